// gids: a RoCE NIC with no RoCE v2 GID for its address, with only a v1 one, or with its v2 GID
// at another index than the fleet's is named with its host; InfiniBand ports and a fleet without
// a convention are not judged; a site can demand a larger majority.
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

// Moves the NIC's IPv4 GIDs to 4/5 behind an IPv6 pair at 2/3, as an address added first does.
void shift_ipv4_gids(model::Nic& nic) {
  const std::string v6 = "fd00:0000:0000:0000:0000:0000:0000:0003";
  nic.gids[2].index = 4;
  nic.gids[3].index = 5;
  nic.gids.insert(nic.gids.begin() + 2,
                  {{2, v6, "IB/RoCE v1", nic.netdev, ""}, {3, v6, "RoCE v2", nic.netdev, ""}});
}

TEST(Gids, HostWhoseV2GidSitsAtAnotherIndexIsNamedWithItsNics) {
  model::Fabric fabric = healthy_fleet();
  for (int n = 0; n < 4; ++n) {
    shift_ipv4_gids(nic_at(fabric, 5, n));
  }
  const auto result = run_probe("gids", fabric);
  const auto differs = with_signal(result, "gid-index-differs");
  ASSERT_EQ(differs.size(), 1u) << result.reason;
  EXPECT_TRUE(names(differs[0], "host:node06"));
  EXPECT_TRUE(names(differs[0], "nic:node06/mlx5_0"));
  EXPECT_TRUE(names(differs[0], "netdev:node06/ens4f0np0"));
  EXPECT_EQ(differs[0].value, 5.0);
  EXPECT_EQ(differs[0].fleet_normal, 3.0);
  EXPECT_NE(differs[0].summary.find("index 5, while 28 of 32 NICs hold theirs at 3"),
            std::string::npos)
      << differs[0].summary;
  EXPECT_TRUE(with_signal(result, "gids-consistent").empty());
  EXPECT_TRUE(with_signal(result, "no-rocev2-gid").empty());
}

TEST(Gids, OnlyARoceV1GidForTheAddress) {
  model::Fabric fabric = healthy_fleet();
  auto& gids = nic_at(fabric, 2, 1).gids;
  gids.pop_back();  // the v2 entry of the IPv4 address
  const auto result = run_probe("gids", fabric);
  const auto v1 = with_signal(result, "rocev1-only");
  ASSERT_EQ(v1.size(), 1u) << result.reason;
  EXPECT_EQ(v1[0].entities.front(), "nic:node03/mlx5_1");
  EXPECT_NE(v1[0].summary.find("index 2"), std::string::npos) << v1[0].summary;
  EXPECT_TRUE(with_signal(result, "gid-index-differs").empty());
}

TEST(Gids, NoGidCarriesTheAddress) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 7, 3);
  nic.ipv4 = {"10.99.0.8/24"};  // readdressed after the table was filled
  const auto result = run_probe("gids", fabric);
  const auto missing = with_signal(result, "no-rocev2-gid");
  ASSERT_EQ(missing.size(), 1u) << result.reason;
  EXPECT_TRUE(names(missing[0], "nic:node08/mlx5_3"));
  EXPECT_TRUE(names(missing[0], "host:node08"));
  EXPECT_NE(missing[0].summary.find("10.99.0.8"), std::string::npos) << missing[0].summary;
}

TEST(Gids, InfinibandPortsAreNotJudgedAndSaidSo) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.link_layer = "InfiniBand";
      nic.gids.clear();  // IB GIDs: subnet prefix and GUID, no IP
    }
  }
  const auto result = run_probe("gids", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_NE(result.reason.find("32 InfiniBand ports not judged"), std::string::npos)
      << result.reason;
  EXPECT_TRUE(result.findings.empty());

  // One IB host among RoCE ones: the RoCE fleet is still judged, the IB host is not.
  model::Fabric mixed = healthy_fleet();
  for (auto& nic : mixed.hosts[0].nics) {
    nic.link_layer = "InfiniBand";
    nic.gids.clear();
  }
  const auto ran = run_probe("gids", mixed);
  EXPECT_EQ(ran.status, probes::ProbeStatus::Ran);
  ASSERT_EQ(with_signal(ran, "gids-consistent").size(), 1u) << ran.reason;
  EXPECT_NE(ran.reason.find("4 InfiniBand ports not judged"), std::string::npos) << ran.reason;
}

TEST(Gids, HealthyFleetClearsWithItsIndex) {
  const auto result = run_probe("gids", healthy_fleet());
  const auto ok = with_signal(result, "gids-consistent");
  ASSERT_EQ(ok.size(), 1u) << result.reason;
  EXPECT_EQ(ok[0].value, 3.0);
  EXPECT_NE(ok[0].summary.find("32 RoCE NICs"), std::string::npos) << ok[0].summary;
  EXPECT_EQ(result.findings.size(), 1u);
}

TEST(Gids, MissingTablesAreCoverageGapsNotFindings) {
  model::Fabric fabric = healthy_fleet();
  for (auto& nic : fabric.hosts[4].nics) {
    nic.gids.clear();
    nic.sources.erase("sysfs gids");
  }
  const auto result = run_probe("gids", fabric);
  EXPECT_NE(result.reason.find("28 of 32"), std::string::npos) << result.reason;
  EXPECT_EQ(with_signal(result, "gids-consistent").size(), 1u);
}

TEST(Gids, TunedMajorityLeavesAnEvenSplitUnjudged) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 0; h < 3; ++h) {
    for (int n = 0; n < 4; ++n) {
      shift_ipv4_gids(nic_at(fabric, h, n));
    }
  }
  // 20 of 32 at index 3: the fleet's index by the kb's majority (half), not by two thirds.
  EXPECT_EQ(with_signal(run_probe("gids", fabric), "gid-index-differs").size(), 3u);
  const auto strict = run_probe("gids", fabric, {}, {{"gids.min_fleet_share", 0.7}});
  EXPECT_TRUE(with_signal(strict, "gid-index-differs").empty());
  EXPECT_NE(strict.reason.find("no GID index is the fleet's"), std::string::npos) << strict.reason;
  // Cleared only as strongly as the fleet agrees: 20 of 32 NICs at the most used index.
  const auto weak = with_signal(strict, "gids-consistent");
  ASSERT_EQ(weak.size(), 1u);
  const auto full = with_signal(run_probe("gids", healthy_fleet()), "gids-consistent");
  ASSERT_EQ(full.size(), 1u);
  EXPECT_NEAR(weak[0].strength, full[0].strength * 20.0 / 32.0, 1e-9);
}

}  // namespace
}  // namespace netdoctor::testing
