// ib-config on the hand-built InfiniBand fat tree: the odd HCA MTU and the odd switch firmware;
// and the firmware probe naming the odd HCA from its host.
#include <gtest/gtest.h>

#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

const std::string k_probe = "ib-config";

TEST(IbConfig, OneMtuAndOneFirmwarePerModelIsConsistent) {
  const auto result = run_probe(k_probe, ib_fat_tree());
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_EQ(result.findings.size(), 1u) << result.findings.front().summary;
  EXPECT_EQ(result.findings.front().signal, "ib-config-consistent");
}

TEST(IbConfig, TheHcaAtAnotherMtuIsNamed) {
  model::Fabric fabric = ib_fat_tree();
  ib_ca(fabric, "node06", "mlx5_1").ports[0].mtu = 2048;
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-mtu-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), "nic:node06/mlx5_1");
  EXPECT_EQ(*found[0].value, 2048.0);
  EXPECT_EQ(*found[0].fleet_normal, 4096.0);
}

TEST(IbConfig, WithoutTheSubnetsMtuTheHostsActiveMtuIsJudged) {
  model::Fabric fabric = ib_fat_tree();
  for (auto& node : fabric.ib.nodes) {
    for (auto& port : node.ports) {
      port.mtu.reset();
    }
  }
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      if (host.name == "node03" && nic.device == "mlx5_0") {
        nic.active_mtu = 1024;
      }
    }
  }
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-mtu-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), "nic:node03/mlx5_0");
  EXPECT_NE(found[0].summary.find("ibv_devinfo"), std::string::npos) << found[0].summary;
}

TEST(IbConfig, TheSwitchOnAnotherFirmwareThanItsModelIsNamed) {
  model::Fabric fabric = ib_fat_tree();
  ib_node_named(fabric, "spine-02").firmware = "27.2012.1010";
  const auto result = run_probe(k_probe, fabric);
  const auto found = with_signal(result, "ib-switch-firmware-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, std::vector<std::string>{"switch:spine-02"});
  EXPECT_EQ(*found[0].value, 1.0);
  EXPECT_EQ(*found[0].fleet_normal, 3.0);
  // A site that wants a larger majority before judging.
  const auto tuned = run_probe(k_probe, fabric, {}, {{"ib-config.min_model_switches", 5.0}});
  EXPECT_TRUE(with_signal(tuned, "ib-switch-firmware-mismatch").empty());
}

TEST(IbConfig, SwitchesOfAnotherModelAreNotComparedWithThisOne) {
  model::Fabric fabric = ib_fat_tree();
  auto& spine = ib_node_named(fabric, "spine-02");
  spine.model = "QM9700";
  spine.firmware = "31.2012.1010";
  EXPECT_TRUE(with_signal(run_probe(k_probe, fabric), "ib-switch-firmware-mismatch").empty());
}

TEST(IbConfig, NoSubnetViewIsSkipped) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib = {};
  const auto result = run_probe(k_probe, fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_EQ(result.reason.rfind("no ", 0), 0u) << result.reason;  // the usual no-data reason
}

// HCA firmware is judged from the hosts by the firmware probe: on an InfiniBand fleet it names
// the odd HCA as well.
TEST(IbConfig, TheFirmwareProbeNamesTheOddHcaOfAnInfinibandFleet) {
  model::Fabric fabric = ib_fat_tree();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      if (host.name == "node04" && nic.device == "mlx5_1") {
        nic.firmware = "20.38.1900";
      }
    }
  }
  const auto found = with_signal(run_probe("firmware", fabric), "firmware-mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, std::vector<std::string>{"nic:node04/mlx5_1"});
}

}  // namespace
}  // namespace netdoctor::testing
