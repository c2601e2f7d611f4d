// ib-routing on the hand-built InfiniBand fat tree: a leaf whose up-ports carry very different
// loads is found with its hot up-ports, a leaf with less up than HCA-facing capacity whose
// up-ports run hot is oversubscribed, a balanced tree is healthy, and a site's thresholds move
// the line.
#include <gtest/gtest.h>

#include <string>

#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

// The transmit rate of a port in Gb/s.
void transmit(model::IbPort& port, double gbps) {
  set_ib_rate(port, "ib_tx_bytes", gbps * 1e9 / 8.0, 4e14);
}

// leaf-01's up-ports are 9..16 (9-12 to spine-01, 13-16 to spine-02): 9 and 10 run hot.
model::Fabric imbalanced() {
  model::Fabric fabric = ib_fat_tree();
  transmit(ib_switch_port(fabric, "leaf-01", 9), 180.0);
  transmit(ib_switch_port(fabric, "leaf-01", 10), 170.0);
  for (std::uint32_t port = 11; port <= 16; ++port) {
    transmit(ib_switch_port(fabric, "leaf-01", port), 15.0);
  }
  return fabric;
}

TEST(IbRouting, ABalancedFatTreeIsHealthy) {
  const auto result = run_probe("ib-routing", ib_fat_tree());
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].signal, "ib-routing-ok");
  EXPECT_NE(result.findings[0].summary.find("2 leaves"), std::string::npos)
      << result.findings[0].summary;
}

TEST(IbRouting, ImbalanceIsFoundOnTheRightLeafWithItsHotUpPorts) {
  const auto result = run_probe("ib-routing", imbalanced());
  const auto found = with_signal(result, "ib-routing-imbalance");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(names(found[0], "switch:leaf-01"));
  EXPECT_FALSE(names(found[0], "switch:leaf-02"));
  EXPECT_EQ(found[0].entities[0], "port:leaf-01/9");
  EXPECT_TRUE(names(found[0], "port:leaf-01/10"));
  for (std::uint32_t cool = 11; cool <= 16; ++cool) {
    EXPECT_FALSE(names(found[0], "port:leaf-01/" + std::to_string(cool))) << cool;
  }
  EXPECT_GT(*found[0].value, 0.3);
  EXPECT_TRUE(with_signal(result, "ib-routing-ok").empty());
  EXPECT_TRUE(undeclared_signals("ib-routing", result).empty());
}

TEST(IbRouting, AnUnevenSpreadOfLightTrafficIsNotImbalance) {
  model::Fabric fabric = ib_fat_tree();
  transmit(ib_switch_port(fabric, "leaf-01", 9), 30.0);  // 15 % of 200 Gb/s, the busiest
  for (std::uint32_t port = 10; port <= 16; ++port) {
    transmit(ib_switch_port(fabric, "leaf-01", port), 2.0);
  }
  const auto result = run_probe("ib-routing", fabric);
  EXPECT_TRUE(with_signal(result, "ib-routing-imbalance").empty());
  EXPECT_EQ(with_signal(result, "ib-routing-ok").size(), 1u);
}

// One up-port to each of the two spines for eight HCAs: 4:1 down to up per leaf.
model::Fabric oversubscribed(double up_gbps) {
  IbSpec spec;
  spec.uplinks_per_spine = 1;
  model::Fabric fabric = ib_fat_tree(spec);
  for (std::uint32_t port = 9; port <= 10; ++port) {
    transmit(ib_switch_port(fabric, "leaf-02", port), up_gbps);
  }
  return fabric;
}

TEST(IbRouting, ALeafShortOfUpCapacityWhoseUpPortsRunHotIsOversubscribed) {
  const auto result = run_probe("ib-routing", oversubscribed(185.0));
  const auto found = with_signal(result, "ib-leaf-oversubscribed");
  ASSERT_FALSE(found.empty());
  bool leaf02 = false;
  for (const auto& finding : found) {
    leaf02 = leaf02 || names(finding, "switch:leaf-02");
  }
  EXPECT_TRUE(leaf02);
  for (const auto& finding : found) {
    if (names(finding, "switch:leaf-02")) {
      EXPECT_NEAR(*finding.value, 4.0, 0.01);  // 8 x 200 Gb/s down, 2 x 200 up
      EXPECT_GT(finding.strength, 0.5);
    }
  }
}

// Measured hot, a leaf short of up capacity is the bottleneck seen: at least
// saturated_min_strength, whatever its ratio alone would give.
TEST(IbRouting, AModestRatioMeasuredHotIsStrongEvidence) {
  const auto strength_at_leaf02 = [](double floor) {
    const auto found = with_signal(run_probe("ib-routing", oversubscribed(185.0), {},
                                             {{"ib-routing.saturated_min_strength", floor}}),
                                   "ib-leaf-oversubscribed");
    for (const auto& finding : found) {
      if (names(finding, "switch:leaf-02")) {
        return finding.strength;
      }
    }
    ADD_FAILURE() << "leaf-02 not found oversubscribed";
    return 0.0;
  };
  EXPECT_LT(strength_at_leaf02(0.0), 0.95);  // 4:1 by its ratio alone: 0.75
  EXPECT_NEAR(strength_at_leaf02(0.95), 0.95, 1e-9);
}

TEST(IbRouting, AnOversubscribedLeafWhoseUpPortsRunCoolIsRuledOut) {
  IbSpec spec;
  spec.uplinks_per_spine = 1;
  // The builder's up-ports carry 0.35 x 0.5 x 8 / 2 of line rate: 70 %, under the 80 % hot mark.
  const auto result = run_probe("ib-routing", ib_fat_tree(spec));
  EXPECT_TRUE(with_signal(result, "ib-leaf-oversubscribed").empty());
  EXPECT_EQ(with_signal(result, "ib-routing-ok").size(), 1u);
  bool ruled_out = false;
  for (const auto& line : result.checked) {
    ruled_out = ruled_out || line.find("not saturated") != std::string::npos;
  }
  EXPECT_TRUE(ruled_out);
}

TEST(IbRouting, WithoutRatesTheRatioAloneWeighsLess) {
  IbSpec spec;
  spec.uplinks_per_spine = 1;
  spec.samples = 1;
  const auto found =
      with_signal(run_probe("ib-routing", ib_fat_tree(spec)), "ib-leaf-oversubscribed");
  ASSERT_EQ(found.size(), 2u);  // both leaves, by design
  EXPECT_LE(found[0].strength, 0.5);
}

TEST(IbRouting, WithoutRatesABalancedTreeIsClearedOnCapacityAloneAndWeaker) {
  IbSpec spec;
  spec.samples = 1;
  const auto result = run_probe("ib-routing", ib_fat_tree(spec));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].signal, "ib-routing-ok");
  EXPECT_NE(result.findings[0].summary.find("no up-port rates"), std::string::npos)
      << result.findings[0].summary;
  const auto with_rates = run_probe("ib-routing", ib_fat_tree());
  ASSERT_EQ(with_rates.findings.size(), 1u);
  EXPECT_LT(result.findings[0].strength, with_rates.findings[0].strength);
}

TEST(IbRouting, AFabricWithoutAnInfinibandViewIsSkipped) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib = {};
  const auto result = run_probe("ib-routing", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_FALSE(result.reason.empty());
  EXPECT_TRUE(result.findings.empty());
}

TEST(TunedIbRouting, AStricterSiteCallsAMildSpreadAnImbalance) {
  model::Fabric fabric = ib_fat_tree();
  // leaf-01's up-ports at 120 and 80 Gb/s alternately: coefficient of variation 0.2.
  for (std::uint32_t port = 9; port <= 16; ++port) {
    transmit(ib_switch_port(fabric, "leaf-01", port), port % 2 == 0 ? 120.0 : 80.0);
  }
  EXPECT_TRUE(with_signal(run_probe("ib-routing", fabric), "ib-routing-imbalance").empty());
  const auto tuned =
      with_signal(run_probe("ib-routing", fabric, {}, {{"ib-routing.max_balanced_cv", 0.1}}),
                  "ib-routing-imbalance");
  ASSERT_EQ(tuned.size(), 1u);
  EXPECT_TRUE(names(tuned[0], "switch:leaf-01"));
}

TEST(TunedIbRouting, ASiteThatAllowsTwoToOneDoesNotCallItOversubscribed) {
  const model::Fabric fabric = oversubscribed(185.0);
  const auto tuned = run_probe("ib-routing", fabric, {}, {{"ib-routing.max_balanced_ratio", 4.5}});
  EXPECT_TRUE(with_signal(tuned, "ib-leaf-oversubscribed").empty());
}

}  // namespace
}  // namespace netdoctor::testing
