// ib-congestion on the hand-built InfiniBand fat tree: the root of a congestion tree is found
// with the HCA behind it, its victims are named as victims and never as the root, a saturated
// history counter is not congestion, the ordinary wait of a busy fabric is healthy, and a site's
// thresholds move the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

// The XmitWait tick of an HDR port as the kb reads it: 8 byte times of a 50 Gb/s lane.
constexpr double k_hdr_tick_s = 8.0 * 8.0 / 50e9;
constexpr double k_window_s = 30.0;  // IbSpec's default
constexpr double k_max32 = 4294967295.0;

// Makes `port` wait for credits `share` of the window.
void wait(model::IbPort& port, double share) {
  set_ib_rate(port, "ib_xmit_wait", share / k_hdr_tick_s, 5e9);
}

// The HCA's receive rate in Gb/s.
void receive(model::IbPort& port, double gbps) {
  set_ib_rate(port, "ib_rx_bytes", gbps * 1e9 / 8.0, 4e14);
}

model::IbPort& hca_port(model::Fabric& fabric, const std::string& host) {
  return ib_ca(fabric, host, "mlx5_0").ports.front();
}

// A tree rooted at leaf-01/1 (facing node01/mlx5_0): spine-01 port 1 sends into leaf-01 and
// waits, leaf-02's up-port 9 sends into spine-01 and waits, node05's HCA sends into leaf-02
// and waits; node02's HCA (on leaf-01 itself) waits to send into leaf-01.
model::Fabric congested_tree(double receiver_gbps) {
  model::Fabric fabric = ib_fat_tree();
  wait(ib_switch_port(fabric, "leaf-01", 1), 0.30);
  wait(ib_switch_port(fabric, "spine-01", 1), 0.15);
  wait(ib_switch_port(fabric, "leaf-02", 9), 0.10);
  wait(hca_port(fabric, "node05"), 0.08);
  wait(hca_port(fabric, "node02"), 0.07);
  receive(hca_port(fabric, "node01"), receiver_gbps);
  return fabric;
}

bool any_names(const std::vector<probes::Finding>& findings, const std::string& entity) {
  return std::any_of(findings.begin(), findings.end(),
                     [&entity](const probes::Finding& f) { return names(f, entity); });
}

TEST(IbCongestion, TheRootIsTheLeafPortFacingTheSlowHcaNamedFirst) {
  const auto result = run_probe("ib-congestion", congested_tree(12.0));
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  const auto roots = with_signal(result, "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  ASSERT_GE(roots[0].entities.size(), 2u);
  EXPECT_EQ(roots[0].entities[0], "nic:node01/mlx5_0");
  EXPECT_EQ(roots[0].entities[1], "port:leaf-01/1");
  EXPECT_NE(roots[0].summary.find("slow receiver"), std::string::npos) << roots[0].summary;
  EXPECT_NEAR(*roots[0].value, 0.30, 0.01);
  EXPECT_GE(roots[0].strength, 0.9);
  EXPECT_TRUE(with_signal(result, "ib-congestion-link-root").empty());
  EXPECT_TRUE(with_signal(result, "ib-congestion-ok").empty());
  EXPECT_TRUE(undeclared_signals("ib-congestion", result).empty());
}

TEST(IbCongestion, VictimsAreNamedAsVictimsOfTheRootNeverAsRoots) {
  const auto result = run_probe("ib-congestion", congested_tree(12.0));
  const auto victims = with_signal(result, "ib-congestion-victim");
  ASSERT_EQ(victims.size(), 1u);
  for (const char* victim :
       {"port:spine-01/1", "port:leaf-02/9", "nic:node05/mlx5_0", "nic:node02/mlx5_0"}) {
    EXPECT_TRUE(names(victims[0], victim)) << victim << ": " << victims[0].summary;
    EXPECT_FALSE(any_names(with_signal(result, "ib-congestion-root"), victim)) << victim;
    EXPECT_FALSE(any_names(with_signal(result, "ib-congestion-link-root"), victim)) << victim;
  }
  EXPECT_FALSE(names(victims[0], "port:leaf-01/1"));
  EXPECT_NE(victims[0].summary.find("leaf-01/1"), std::string::npos) << victims[0].summary;
  EXPECT_LT(victims[0].strength, 1.0);
}

TEST(IbCongestion, AReceiverNearLineRateIsAnIncastNotASlowHca) {
  model::Fabric incast = congested_tree(190.0);
  wait(ib_switch_port(incast, "leaf-01", 1), 0.10);
  const auto roots = with_signal(run_probe("ib-congestion", incast), "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_EQ(roots[0].entities[0], "nic:node01/mlx5_0");
  EXPECT_NE(roots[0].summary.find("incast"), std::string::npos) << roots[0].summary;
  EXPECT_EQ(roots[0].summary.find("slow receiver"), std::string::npos);
  EXPECT_NEAR(roots[0].strength, 0.5, 0.01);  // the wait alone, at wait_half_share

  // The same wait towards an HCA that moves a fraction of its line rate names it outright.
  model::Fabric slow = congested_tree(12.0);
  wait(ib_switch_port(slow, "leaf-01", 1), 0.10);
  const auto slow_roots = with_signal(run_probe("ib-congestion", slow), "ib-congestion-root");
  ASSERT_EQ(slow_roots.size(), 1u);
  EXPECT_GE(slow_roots[0].strength, 0.9);
}

TEST(IbCongestion, DiscardsAtTheRootStrengthenIt) {
  model::Fabric fabric = congested_tree(12.0);
  set_ib_rate(ib_switch_port(fabric, "leaf-01", 1), "ib_xmit_discards", 50.0, 4.0);
  const auto discards = with_signal(run_probe("ib-congestion", fabric), "ib-xmit-discards");
  ASSERT_EQ(discards.size(), 1u);
  EXPECT_TRUE(names(discards[0], "port:leaf-01/1"));
  EXPECT_NEAR(*discards[0].value, 50.0, 1.0);

  // The same discards on a victim are not what the probe reports.
  model::Fabric victim = congested_tree(12.0);
  set_ib_rate(ib_switch_port(victim, "spine-01", 1), "ib_xmit_discards", 50.0, 4.0);
  EXPECT_TRUE(with_signal(run_probe("ib-congestion", victim), "ib-xmit-discards").empty());
}

TEST(IbCongestion, ASwitchPortWaitingTowardsASwitchThatDoesNotWaitIsALinkRoot) {
  model::Fabric fabric = ib_fat_tree();
  wait(ib_switch_port(fabric, "spine-01", 5), 0.25);  // towards leaf-02, which waits nowhere
  const auto result = run_probe("ib-congestion", fabric);
  EXPECT_TRUE(with_signal(result, "ib-congestion-root").empty());
  const auto links = with_signal(result, "ib-congestion-link-root");
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].entities[0], "port:spine-01/5");
}

TEST(IbCongestion, AXmitWaitSaturatedBeforeTheWindowIsHistoryNotCongestion) {
  model::Fabric fabric = ib_fat_tree();
  saturate(ib_switch_port(fabric, "leaf-01", 1), "ib_xmit_wait", 0);
  const auto result = run_probe("ib-congestion", fabric);
  EXPECT_TRUE(with_signal(result, "ib-congestion-root").empty());
  EXPECT_TRUE(with_signal(result, "ib-congestion-link-root").empty());
  EXPECT_EQ(with_signal(result, "ib-congestion-ok").size(), 1u);
  EXPECT_NE(result.reason.find("leaf-01/1"), std::string::npos) << result.reason;
  EXPECT_NE(result.reason.find("history"), std::string::npos) << result.reason;
}

TEST(IbCongestion, AXmitWaitSaturatedInsideTheWindowGivesALowerBound) {
  model::Fabric fabric = ib_fat_tree();
  auto& root = ib_switch_port(fabric, "leaf-01", 1);
  // 20 % of the window's ticks short of the maximum at the first sample, saturated at the second.
  set_ib_rate(root, "ib_xmit_wait", 0.0, k_max32 - 0.20 * k_window_s / k_hdr_tick_s);
  saturate(root, "ib_xmit_wait", 1);
  const auto roots = with_signal(run_probe("ib-congestion", fabric), "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(*roots[0].value, 0.20, 0.01);
  EXPECT_NE(roots[0].summary.find("at least"), std::string::npos) << roots[0].summary;

  // Saturated inside the window but after climbing little: a lower bound under the limit.
  model::Fabric little = ib_fat_tree();
  auto& port = ib_switch_port(little, "leaf-01", 1);
  set_ib_rate(port, "ib_xmit_wait", 0.0, k_max32 - 0.01 * k_window_s / k_hdr_tick_s);
  saturate(port, "ib_xmit_wait", 1);
  const auto result = run_probe("ib-congestion", little);
  EXPECT_TRUE(with_signal(result, "ib-congestion-root").empty());
  EXPECT_NE(result.reason.find("lower bound"), std::string::npos) << result.reason;
  // How long it waited past its bound nobody counted: the fabric is only weakly cleared.
  const auto cleared = with_signal(result, "ib-congestion-ok");
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_NEAR(cleared[0].strength, 0.3, 1e-9);
}

// Three samples: the interval before the counter saturated measured the wait (10 % of it);
// the climb to the maximum in the next interval alone would say only 1 %.
TEST(IbCongestion, TheIntervalBeforeASaturationMeasuresTheWait) {
  IbSpec spec;
  spec.samples = 3;
  model::Fabric fabric = ib_fat_tree(spec);
  auto& root = ib_switch_port(fabric, "leaf-01", 1);
  const double climbed = 0.10 * k_window_s / k_hdr_tick_s;  // ticks in one interval at 10 %
  set_ib_rate(root, "ib_xmit_wait", 0.10 / k_hdr_tick_s,
              k_max32 - 0.01 * k_window_s / k_hdr_tick_s - climbed);
  saturate(root, "ib_xmit_wait", 2);
  const auto roots = with_signal(run_probe("ib-congestion", fabric), "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(*roots[0].value, 0.10, 0.005);
}

TEST(IbCongestion, TheOrdinaryWaitOfABusyFabricIsHealthy) {
  model::Fabric fabric = ib_fat_tree();
  wait(ib_switch_port(fabric, "leaf-02", 3), 0.02);  // busy, not congested
  const auto result = run_probe("ib-congestion", fabric);
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].signal, "ib-congestion-ok");
  EXPECT_NE(result.findings[0].summary.find("leaf-02/3"), std::string::npos)
      << result.findings[0].summary;
  EXPECT_NEAR(*result.findings[0].value, 0.02, 0.002);
}

TEST(IbCongestion, AFabricWithoutAnInfinibandViewIsSkipped) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib = {};
  const auto result = run_probe("ib-congestion", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_NE(result.reason.find("no InfiniBand ports"), std::string::npos) << result.reason;
  EXPECT_TRUE(result.findings.empty());
}

TEST(IbCongestion, OneFabricSampleHasNoRatesAndIsSkipped) {
  IbSpec spec;
  spec.samples = 1;
  const auto result = run_probe("ib-congestion", ib_fat_tree(spec));
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_NE(result.reason.find("no data for PortXmitWait"), std::string::npos) << result.reason;
}

TEST(IbCongestion, TheTickFollowsTheLaneSoAnNdrPortWaitsHalfAsLongPerTick) {
  IbSpec spec;
  spec.speed = "NDR";
  model::Fabric fabric = ib_fat_tree(spec);
  wait(ib_switch_port(fabric, "leaf-01", 1), 0.30);  // the ticks of 30 % at HDR
  const auto roots = with_signal(run_probe("ib-congestion", fabric), "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(*roots[0].value, 0.15, 0.005);  // 8 byte times of a 100 Gb/s lane: 0.64 ns
}

TEST(IbCongestion, APortWithoutASpeedIsReadWithTheFallbackTick) {
  model::Fabric fabric = ib_fat_tree();
  auto& root = ib_switch_port(fabric, "leaf-01", 1);
  root.data_gbps.reset();
  set_ib_rate(root, "ib_xmit_wait", 0.25 / 1.28e-9, 5e9);
  const auto tuned = with_signal(
      run_probe("ib-congestion", fabric, {}, {{"ib-congestion.fallback_tick_ns", 0.128}}),
      "ib-congestion-root");
  EXPECT_TRUE(tuned.empty());  // a tenth of the tick: 2.5 %
  const auto roots = with_signal(run_probe("ib-congestion", fabric), "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(*roots[0].value, 0.25, 0.005);
}

TEST(TunedIbCongestion, ASiteThatToleratesMoreWaitMovesTheLine) {
  const model::Fabric fabric = congested_tree(12.0);
  EXPECT_EQ(with_signal(run_probe("ib-congestion", fabric), "ib-congestion-root").size(), 1u);
  const auto tuned = run_probe("ib-congestion", fabric, {}, {{"ib-congestion.wait_share", 0.5}});
  EXPECT_TRUE(with_signal(tuned, "ib-congestion-root").empty());
  EXPECT_EQ(with_signal(tuned, "ib-congestion-ok").size(), 1u);
}

TEST(TunedIbCongestion, ALongerTickTurnsTheSameCountIntoCongestion) {
  model::Fabric fabric = ib_fat_tree();
  wait(ib_switch_port(fabric, "leaf-01", 1), 0.03);  // 3 % at 8 byte times a tick
  EXPECT_TRUE(with_signal(run_probe("ib-congestion", fabric), "ib-congestion-root").empty());
  // Devices at Tick 0x1f count every 32 byte times: the same count is 12 % of the window.
  const auto roots = with_signal(
      run_probe("ib-congestion", fabric, {}, {{"ib-congestion.tick_symbol_times", 32.0}}),
      "ib-congestion-root");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(*roots[0].value, 0.12, 0.005);
}

}  // namespace
}  // namespace netdoctor::testing
