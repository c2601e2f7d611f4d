// Sizes of generated bundles and the refusal of impossible requests.
#include <gtest/gtest.h>

#include "sim_test_support.h"

namespace netdoctor::sim::testing {
namespace {

// Files per host sample: captured_at + 6 host commands, and per mlx5 NIC 7 identity files,
// 21 PMA counters, 30 hw_counters, 4 net files, 8 statistics, 4 command outputs, and a GID
// table of 8 entries (4 used, each with its type and netdev file).
std::size_t expected_files(const Bundle& bundle) {
  const Fabric& fabric = bundle.simulation.fabric;
  std::size_t per_sample = 0;
  for (const Host& host : fabric.hosts) {
    // Host-wide: 6, lspci, dmesg, show_gids, ibdev2netdev, rdma statistic and rdma resource;
    // per NIC its GID files (8 + 4 + 4) and its sysfs PCIe link files (4).
    per_sample += 6 + 6 + host.nics.size() * (7 + 21 + 30 + 4 + 8 + 4 + 8 + 4 + 4 + 4);
  }
  // Switches: captured_at, five show tables, show pfcwd stats and show pfcwd config.
  per_sample += fabric.switches.size() * 8;
  // The NCCL job: one NCCL_DEBUG=INFO log per host and the nccl-tests output.
  const std::size_t nccl = fabric.hosts.size() + 1;
  return per_sample * fabric.samples + (fabric.hosts.size() / 2) * 4 + nccl;
}

TEST(SimRequests, OneHostBundleHasExactlyItsFiles) {
  const Bundle bundle = run(config_for(1, 1, {}, 1));
  EXPECT_EQ(bundle.files.size(), expected_files(bundle));
  EXPECT_EQ(bundle.simulation.fabric.leaf_count, 1u);
}

TEST(SimRequests, SixteenHostsWithEightNicsCountRight) {
  SimConfig config = config_for(16, 8, {}, 1);
  config.samples = 3;
  const Bundle bundle = run(config);
  EXPECT_EQ(bundle.files.size(), expected_files(bundle));
  std::size_t host_dirs = 0;
  for (const auto& [path, content] : bundle.files) {
    if (ends_with(path, "/" + bundle.sample(2) + "/captured_at") && starts_with(path, "hosts/")) {
      ++host_dirs;
    }
  }
  EXPECT_EQ(host_dirs, 16u);
}

TEST(SimRequests, ImpossibleRequestsAreRefusedWithClearErrors) {
  EXPECT_FALSE(simulate(config_for(0, 4, {})).ok());
  EXPECT_FALSE(simulate(config_for(4, 4, {"no-such-fault"})).ok());
  const auto missing = simulate(config_for(4, 4, {"pfc-storm@nic:ghost/mlx5_0"}));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
  const auto spine = simulate(config_for(4, 4, {"pfc-storm@spine1"}));
  ASSERT_FALSE(spine.ok());
  EXPECT_NE(spine.error().message.find("pfc-storm"), std::string::npos);
  EXPECT_FALSE(simulate(config_for(4, 4, {"pfc-storm", "link-errors", "clock-skew"})).ok());
  EXPECT_FALSE(parse_vendors("mlx5,acme").ok());
  EXPECT_FALSE(parse_oversubscription("one:three").ok());
  EXPECT_DOUBLE_EQ(parse_oversubscription("1:3").value(), 3.0);
  // A fault's onset names an interval of the capture: 1 to samples - 1.
  SimConfig late = config_for(4, 1, {"pfc-storm"});
  late.samples = 3;
  late.onset_interval = 3;
  const auto outside = simulate(late);
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.error().message.find("--onset"), std::string::npos);
  late.onset_interval = 2;
  EXPECT_TRUE(simulate(late).ok());
}

TEST(SimRequests, FaultAtANamedEntityLandsThere) {
  const Bundle first = run(config_for(8, 4, {}, 9));
  const Host& host = first.simulation.fabric.hosts[5];
  const std::string nic = "nic:" + host.name + "/" + host.nics[2].rdma_dev;
  const Bundle bundle = run(config_for(8, 4, {"link-errors@" + nic}, 9));
  EXPECT_EQ(bundle.simulation.faults[0].culprits[0], nic);
}

TEST(SimRequests, BroadcomHostsGetBnxtNamesAndNoMlnxQos) {
  SimConfig config = config_for(2, 2, {}, 3);
  config.vendors = {Vendor::Bnxt};
  const Bundle bundle = run(config);
  const Host& host = bundle.simulation.fabric.hosts[0];
  EXPECT_EQ(host.nics[1].rdma_dev, "bnxt_re1");
  const std::string dir = "hosts/" + host.name + "/" + bundle.sample(0) + "/";
  EXPECT_NE(bundle.file(dir + "sos_commands/networking/ethtool_-i_" + host.nics[0].netdev)
                .find("driver: bnxt_en\n"),
            std::string::npos);
  EXPECT_EQ(bundle.files.count(dir + "sos_commands/mellanox/mlnx_qos_-i_" + host.nics[0].netdev),
            0u);
}

}  // namespace
}  // namespace netdoctor::sim::testing
