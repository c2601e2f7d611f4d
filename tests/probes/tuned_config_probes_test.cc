// A site's tuned thresholds change what link-errors, link-speed, mtu, firmware, qos-config,
// addressing and oversubscription find: each case sits just inside the kb's value and crosses
// it once the site tightens (or loosens) the threshold, keyed "<probe-id>.<name>".
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

TEST(TunedLinkErrors, AStricterBerLimitFlagsALinkBelowTheDefault) {
  model::Fabric fabric = healthy_fleet();
  // 2 FCS errors in 30 s on ~112 Gb/s received: a ratio near 6e-13, inside 1e-12, and far
  // below the 1/s a link needs to stand out from the fleet.
  set_rate(nic_at(fabric, 2, 1).samples, "fcs_errors", -1, 0.08);
  auto result = run_probe("link-errors", fabric);
  EXPECT_TRUE(with_signal(result, "link-errors").empty());
  EXPECT_EQ(with_signal(result, "link-clean").size(), 1u);

  auto tuned = run_probe("link-errors", fabric, {}, {{"link-errors.ber_limit", 1e-13}});
  auto errors = with_signal(tuned, "link-errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].entities[0], "nic:node03/mlx5_1");
  EXPECT_NE(errors[0].summary.find("limit 1e-13"), std::string::npos) << errors[0].summary;
  EXPECT_TRUE(with_signal(tuned, "link-clean").empty());
}

TEST(TunedLinkErrors, MoreErrorsBeforeARateSilencesAFewErrorsAboveTheLimit) {
  model::Fabric fabric = healthy_fleet();
  // 6 FCS errors in the window: above the BER limit, with the 2 errors a rate needs.
  set_rate(nic_at(fabric, 5, 0).samples, "fcs_errors", -1, 0.2);
  EXPECT_EQ(with_signal(run_probe("link-errors", fabric), "link-errors").size(), 1u);
  auto tuned = run_probe("link-errors", fabric, {}, {{"link-errors.min_error_count", 10.0}});
  EXPECT_TRUE(with_signal(tuned, "link-errors").empty());
}

TEST(TunedLinkSpeed, ANarrowerSlackFlagsALinkOnePercentSlow) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 3, 2).speed_gbps = 396.0;  // exactly 99 % of its rated 400 Gb/s
  EXPECT_EQ(with_signal(run_probe("link-speed", fabric), "link-speed-ok").size(), 1u);

  auto tuned = run_probe("link-speed", fabric, {}, {{"link-speed.min_speed_share", 0.995}});
  auto degraded = with_signal(tuned, "link-degraded");
  ASSERT_EQ(degraded.size(), 1u);
  EXPECT_EQ(degraded[0].entities[0], "nic:node04/mlx5_2");
  EXPECT_NE(degraded[0].summary.find("rated 400 Gb/s"), std::string::npos) << degraded[0].summary;
}

TEST(TunedMtu, TheSiteSetsHowStronglyAMismatchWeighs) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 1, 0).mtu = 1500;
  // Below the other switch ports (9100) but not below its host (9000): only the port differs.
  port_named(fabric, "leaf2", "Ethernet8").mtu = 9000;
  auto mismatch = with_signal(run_probe("mtu", fabric), "mtu-mismatch");
  ASSERT_EQ(mismatch.size(), 2u);
  EXPECT_DOUBLE_EQ(mismatch[0].strength, 0.9);
  EXPECT_DOUBLE_EQ(mismatch[1].strength, 0.8);

  auto tuned = with_signal(
      run_probe("mtu", fabric, {},
                {{"mtu.host_mismatch_strength", 0.6}, {"mtu.port_mismatch_strength", 0.3}}),
      "mtu-mismatch");
  ASSERT_EQ(tuned.size(), 2u);
  EXPECT_EQ(tuned[0].entities[0], "netdev:node02/ens1f0np0");
  EXPECT_DOUBLE_EQ(tuned[0].strength, 0.6);
  EXPECT_EQ(tuned[1].entities[0], "port:leaf2/Ethernet8");
  EXPECT_DOUBLE_EQ(tuned[1].strength, 0.3);
}

TEST(TunedFirmware, ALargerModelGroupLeavesTwoNicsOfARareModelUnjudged) {
  model::Fabric fabric = healthy_fleet();
  for (int n = 0; n < 2; ++n) {
    auto& nic = nic_at(fabric, 6, n);
    nic.vendor = "bnxt";
    nic.part_id = "5984";
    nic.driver_version = "6.8.0-45-generic";
  }
  nic_at(fabric, 6, 0).firmware = "230.0.157.0";
  nic_at(fabric, 6, 1).firmware = "230.0.160.0";
  auto mismatch = with_signal(run_probe("firmware", fabric), "firmware-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].entities[0], "nic:node07/mlx5_1");

  auto tuned = run_probe("firmware", fabric, {}, {{"firmware.min_model_nics", 3.0}});
  EXPECT_TRUE(with_signal(tuned, "firmware-mismatch").empty());
  EXPECT_EQ(with_signal(tuned, "firmware-consistent").size(), 1u);
}

TEST(TunedQosConfig, TrustIsJudgedOnlyWithAsManyNicsAsTheSiteRequires) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.qos.trust.clear();  // PFC still read: the NICs stay covered
    }
  }
  nic_at(fabric, 0, 0).qos.trust = "dscp";
  nic_at(fabric, 0, 1).qos.trust = "dscp";
  nic_at(fabric, 0, 2).qos.trust = "pcp";
  auto mismatch = with_signal(run_probe("qos-config", fabric), "trust-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].entities[0], "nic:node01/mlx5_2");

  auto tuned = run_probe("qos-config", fabric, {}, {{"qos-config.min_trust_nics", 4.0}});
  EXPECT_TRUE(with_signal(tuned, "trust-mismatch").empty());
  EXPECT_EQ(with_signal(tuned, "qos-consistent").size(), 1u);
}

TEST(TunedAddressing, ALowerShareOfSharingHostsIsTakenAsTheDesign) {
  model::Fabric fabric = healthy_fleet();
  // 3 of 8 hosts put their second NIC in the first NIC's subnet.
  for (int h = 0; h < 3; ++h) {
    nic_at(fabric, h, 1).ipv4 = {"10.10.0." + std::to_string(101 + h) + "/24"};
  }
  EXPECT_EQ(with_signal(run_probe("addressing", fabric), "shared-subnet").size(), 3u);

  auto tuned = run_probe("addressing", fabric, {}, {{"addressing.max_shared_share", 0.25}});
  EXPECT_TRUE(with_signal(tuned, "shared-subnet").empty());
  EXPECT_EQ(with_signal(tuned, "addressing-ok").size(), 1u);
}

TEST(TunedOversubscription, ALowerSaturationFlagsAFourToOneLeafAtSeventyPercent) {
  FleetSpec spec;
  spec.uplinks_per_leaf = 4;
  model::Fabric fabric = healthy_fleet(spec);
  for (const char* name : {"Ethernet256", "Ethernet264", "Ethernet272", "Ethernet280"}) {
    set_gauge(port_named(fabric, "leaf1", name).samples, "tx_util_pct", -1, 70.0);
  }
  auto result = run_probe("oversubscription", fabric);
  EXPECT_TRUE(with_signal(result, "oversubscribed-leaf").empty());
  EXPECT_EQ(with_signal(result, "capacity-balanced").size(), 1u);

  auto tuned =
      run_probe("oversubscription", fabric, {}, {{"oversubscription.saturated_utilisation", 0.6}});
  auto over = with_signal(tuned, "oversubscribed-leaf");
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].entities[0], "switch:leaf1");
  EXPECT_NE(over[0].summary.find("uplinks at 70 % of line rate"), std::string::npos)
      << over[0].summary;
}

TEST(TunedOversubscription, AWiderBalanceToleranceAcceptsOneUplinkShort) {
  FleetSpec spec;
  spec.uplinks_per_leaf = 15;  // 16 x 400G down, 15 x 400G up: 1.07:1
  model::Fabric fabric = healthy_fleet(spec);
  for (int u = 0; u < 15; ++u) {
    set_gauge(port_named(fabric, "leaf2", "Ethernet" + std::to_string(256 + u * 8)).samples,
              "tx_util_pct", -1, 95.0);
  }
  auto over = with_signal(run_probe("oversubscription", fabric), "oversubscribed-leaf");
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].entities[0], "switch:leaf2");

  auto tuned =
      run_probe("oversubscription", fabric, {}, {{"oversubscription.max_balanced_ratio", 1.1}});
  EXPECT_TRUE(with_signal(tuned, "oversubscribed-leaf").empty());
  EXPECT_EQ(with_signal(tuned, "capacity-balanced").size(), 1u);
}

}  // namespace
}  // namespace netdoctor::testing
