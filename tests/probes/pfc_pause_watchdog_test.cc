// pfc-pause with the switches' PFC watchdog (show pfcwd stats / config): storms it detected on
// the RoCE queue of a port name the NIC behind that port; a watchdog that saw nothing changes
// nothing.
#include <gtest/gtest.h>

#include "model/source_names.h"
#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

constexpr double k_window_s = 30.0;  // healthy_fleet's default

// Every switch runs the watchdog on queues 3 and 4 of every port, no storm detected yet.
void enable_watchdogs(model::Fabric& fabric, std::vector<int> queues = {3, 4}) {
  for (auto& sw : fabric.switches) {
    sw.sources[model::source::k_show_pfcwd] = {model::Availability::Observed, ""};
    for (auto& port : sw.ports) {
      port.pfcwd.configured = true;
      port.pfcwd.action = "drop";
      port.pfcwd.queues = queues;
      for (const int q : queues) {
        set_rate(port.samples, "pfcwd_storms_detected", q, 0.0, 0.0);
        set_rate(port.samples, "pfcwd_storms_restored", q, 0.0, 0.0);
      }
    }
  }
}

// The port's watchdog detects `storms` on queue 3 within the window.
void storm_at(model::Fabric& fabric, const std::string& sw, const std::string& port, double storms,
              bool stormed_now) {
  auto& p = port_named(fabric, sw, port);
  set_rate(p.samples, "pfcwd_storms_detected", 3, storms / k_window_s, 2.0);
  set_rate(p.samples, "pfcwd_storms_restored", 3, storms / k_window_s, stormed_now ? 1.0 : 2.0);
  set_rate(p.samples, "pfcwd_tx_drops", 3, 900.0, 0.0);
  if (stormed_now) {
    p.pfcwd.stormed = {3};
  }
}

TEST(PfcPauseWatchdog, StormDetectedOnAPortNamesTheNicBehindIt) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  storm_at(fabric, "leaf1", "Ethernet36", 4.0, true);
  auto result = run_probe("pfc-pause", fabric);
  auto found = with_signal(result, "pfcwd-storm-detected");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities[0], "nic:node03/mlx5_1");
  EXPECT_TRUE(names(found[0], "port:leaf1/Ethernet36"));
  EXPECT_DOUBLE_EQ(found[0].strength, 0.95);
  ASSERT_TRUE(found[0].value);
  EXPECT_NEAR(*found[0].value, 4.0, 1e-6);
  EXPECT_NE(found[0].summary.find("detected 4 storms on Ethernet36 queue 3 in the window"),
            std::string::npos)
      << found[0].summary;
  EXPECT_NE(found[0].summary.find("from node03/mlx5_1"), std::string::npos) << found[0].summary;
  EXPECT_NE(found[0].summary.find("stormed now"), std::string::npos);
  // The NIC's own counters show nothing: the watchdog alone names it, and no quiet verdict.
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  EXPECT_TRUE(with_signal(result, "pfc-quiet").empty());
}

TEST(PfcPauseWatchdog, WatchdogViewJoinsTheOriginFoundAtTheNic) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  auto& nic = nic_at(fabric, 0, 0);
  set_rate(nic.samples, "pfc_tx_pause_frames", 3, 41000.0);
  set_rate(nic.samples, "pfc_tx_pause_us", 3, 900000.0);
  for (int n = 1; n < 4; ++n) {
    set_rate(nic_at(fabric, 1, n).samples, "pfc_rx_pause_frames", 3, 4000.0);
  }
  storm_at(fabric, "leaf1", "Ethernet0", 6.0, false);
  auto result = run_probe("pfc-pause", fabric);
  auto origins = with_signal(result, "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].entities[0], "nic:node01/mlx5_0");
  EXPECT_NE(origins[0].summary.find("leaf1's PFC watchdog detected 6 storms"), std::string::npos)
      << origins[0].summary;
  auto watchdog = with_signal(result, "pfcwd-storm-detected");
  ASSERT_EQ(watchdog.size(), 1u);
  EXPECT_EQ(watchdog[0].entities[0], "nic:node01/mlx5_0");
  EXPECT_EQ(with_signal(result, "pfc-pause-victim").size(), 1u);
}

TEST(PfcPauseWatchdog, WatchdogThatDetectedNothingIsNoEvidenceEitherWay) {
  // The same heavy pause at a switch port, with and without a watchdog that saw no storm.
  model::Fabric without = healthy_fleet();
  for (auto& nic : without.hosts[2].nics) {
    remove_metric(nic.samples, "pfc_tx_pause_frames", 3);
  }
  set_rate(port_named(without, "leaf1", "Ethernet36").samples, "pfc_rx_pause_frames", 3, 50000.0);
  model::Fabric with = without;
  enable_watchdogs(with);
  const auto plain = run_probe("pfc-pause", without);
  const auto watched = run_probe("pfc-pause", with);
  EXPECT_TRUE(with_signal(watched, "pfcwd-storm-detected").empty());
  auto a = with_signal(plain, "pfc-storm-origin");
  auto b = with_signal(watched, "pfc-storm-origin");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].entities, b[0].entities);
  EXPECT_DOUBLE_EQ(a[0].strength, b[0].strength);
  EXPECT_EQ(a[0].summary, b[0].summary);
  EXPECT_EQ(plain.reason, watched.reason);
}

TEST(PfcPauseWatchdog, HealthyFleetWithQuietWatchdogsOrNoneIsQuiet) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  const auto watched = run_probe("pfc-pause", fabric);
  ASSERT_EQ(watched.findings.size(), 1u);
  EXPECT_EQ(watched.findings[0].signal, "pfc-quiet");
  // Storm counts without the source observed (no show pfcwd captured) are not read.
  model::Fabric stray = healthy_fleet();
  storm_at(stray, "leaf1", "Ethernet36", 4.0, true);
  EXPECT_TRUE(with_signal(run_probe("pfc-pause", stray), "pfcwd-storm-detected").empty());
}

TEST(PfcPauseWatchdog, TunedMinimumStormCountIgnoresFewerStorms) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  storm_at(fabric, "leaf2", "Ethernet4", 2.0, false);
  EXPECT_EQ(with_signal(run_probe("pfc-pause", fabric), "pfcwd-storm-detected").size(), 1u);
  const auto tuned = run_probe("pfc-pause", fabric, {}, {{"pfc-pause.pfcwd_min_storms", 3.0}});
  EXPECT_TRUE(with_signal(tuned, "pfcwd-storm-detected").empty());
  // A queue the watchdog holds stormed now counts whatever the minimum.
  port_named(fabric, "leaf2", "Ethernet4").pfcwd.stormed = {3};
  const auto stormed = run_probe("pfc-pause", fabric, {}, {{"pfc-pause.pfcwd_min_storms", 3.0}});
  EXPECT_EQ(with_signal(stormed, "pfcwd-storm-detected").size(), 1u);
}

TEST(PfcPauseWatchdog, SingleSampleCountsStormsSinceTheCountersStartedWeaker) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  set_rate(port_named(fabric, "leaf1", "Ethernet36").samples, "pfcwd_storms_detected", 3, 0.0, 7.0);
  keep_first_sample(fabric);
  auto found = with_signal(run_probe("pfc-pause", fabric), "pfcwd-storm-detected");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities[0], "nic:node03/mlx5_1");
  EXPECT_DOUBLE_EQ(found[0].strength, 0.7);
  EXPECT_NE(found[0].summary.find("since its counters started"), std::string::npos);
}

TEST(PfcPauseWatchdog, OldStormsThatDidNotGrowInTheWindowAreNotEvidence) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  set_rate(port_named(fabric, "leaf1", "Ethernet36").samples, "pfcwd_storms_detected", 3, 0.0, 7.0);
  EXPECT_TRUE(with_signal(run_probe("pfc-pause", fabric), "pfcwd-storm-detected").empty());
}

TEST(PfcPauseWatchdog, StormOnAPortFacingASwitchIsPassedOnNotAnOrigin) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric);
  storm_at(fabric, "leaf1", "Ethernet256", 3.0, false);
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfcwd-storm-detected").empty());
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  EXPECT_NE(result.reason.find("Ethernet256 queue 3"), std::string::npos) << result.reason;
  EXPECT_NE(result.reason.find("passed on"), std::string::npos) << result.reason;
}

TEST(PfcPauseWatchdog, WatchdogNotWatchingTheRoceQueueIsNoted) {
  model::Fabric fabric = healthy_fleet();
  enable_watchdogs(fabric, {4});
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_NE(result.reason.find("leaf1's PFC watchdog does not watch queue 3 on 16 of its 16 "
                               "NIC-facing ports"),
            std::string::npos)
      << result.reason;
  // Still a quiet fleet: an unwatched queue is a gap in the evidence, not a storm.
  EXPECT_EQ(with_signal(result, "pfc-quiet").size(), 1u);
}

}  // namespace
}  // namespace netdoctor::testing
