#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

TEST(PfcPause, StormOriginIsTheNicItsNetdevAndItsSwitchPort) {
  model::Fabric fabric = healthy_fleet();
  inject_pfc_storm(fabric);
  auto result = run_probe("pfc-pause", fabric);
  auto origins = with_signal(result, "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  const auto& origin = origins[0];
  ASSERT_GE(origin.entities.size(), 3u);
  EXPECT_EQ(origin.entities[0], "nic:node01/mlx5_0");
  EXPECT_TRUE(names(origin, "netdev:node01/ens1f0np0"));
  EXPECT_TRUE(names(origin, "port:leaf1/Ethernet0"));
  EXPECT_NE(origin.summary.find("41k pause frames/s on priority 3"), std::string::npos)
      << origin.summary;
  EXPECT_NE(origin.summary.find("fleet median"), std::string::npos);
  ASSERT_TRUE(origin.value && origin.fleet_normal);
  EXPECT_GT(*origin.value / *origin.fleet_normal, 1000.0);
  EXPECT_GT(origin.strength, 0.8);
  auto victims = with_signal(result, "pfc-pause-victim");
  ASSERT_EQ(victims.size(), 1u);
  EXPECT_TRUE(names(victims[0], "nic:node02/mlx5_1"));
  EXPECT_FALSE(names(victims[0], "nic:node01/mlx5_0"));
  EXPECT_TRUE(with_signal(result, "pfc-quiet").empty());
  EXPECT_TRUE(with_signal(result, "pfc-pause-widespread").empty());
}

TEST(PfcPause, FrequentShortPausesThatCostLittleTimeAreNotAStorm) {
  model::Fabric fabric = healthy_fleet();
  auto& nic = nic_at(fabric, 4, 0);
  set_rate(nic.samples, "pfc_tx_pause_frames", 3, 1600.0);
  set_rate(nic.samples, "pfc_tx_pause_us", 3, 5000.0);  // 0.5 % of the time
  // The switch port it is cabled to sees the same frames.
  set_rate(port_named(fabric, "leaf2", "Ethernet0").samples, "pfc_rx_pause_frames", 3, 1600.0);
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  ASSERT_FALSE(result.checked.empty());
  EXPECT_NE(result.checked[0].find("not a storm"), std::string::npos) << result.checked[0];
}

TEST(PfcPause, WithoutDurationCountersTheRateAloneDecides) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      remove_metric(nic.samples, "pfc_tx_pause_us", 3);
    }
  }
  set_rate(nic_at(fabric, 4, 0).samples, "pfc_tx_pause_frames", 3, 30000.0);
  auto origins = with_signal(run_probe("pfc-pause", fabric), "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_GT(origins[0].strength, 0.8);
}

TEST(PfcPause, StormDetectorEventsAloneMarkTheOrigin) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 5, 2).samples, "pause_storm_error_events", -1, 0.2, 0.0);
  auto origins = with_signal(run_probe("pfc-pause", fabric), "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].entities[0], "nic:node06/mlx5_2");
  EXPECT_GT(origins[0].strength, 0.9);
}

TEST(PfcPause, ModeratePauseOnOneLeafIsWidespreadNotAStorm) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 4; h < 8; ++h) {
    for (int n = 0; n < 4; ++n) {
      set_rate(nic_at(fabric, h, n).samples, "pfc_rx_pause_frames", 3, 3500.0 + 100.0 * n);
    }
  }
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  auto wide = with_signal(result, "pfc-pause-widespread");
  ASSERT_EQ(wide.size(), 1u);
  ASSERT_FALSE(wide[0].entities.empty());
  EXPECT_EQ(wide[0].entities[0], "switch:leaf2");
}

TEST(PfcPause, HistoricCountsThatDidNotMoveAreNotAStorm) {
  model::Fabric fabric = healthy_fleet();
  // A huge cumulative count from an old storm, flat during the window.
  set_rate(nic_at(fabric, 0, 0).samples, "pfc_tx_pause_frames", 3, 0.0, 5e9);
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  EXPECT_EQ(with_signal(result, "pfc-quiet").size(), 1u);
}

TEST(PfcPause, SingleSampleComparesCumulativeCountsAcrossHosts) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 2, 1).samples, "pfc_tx_pause_frames", 3, 0.0, 9e8);
  keep_first_sample(fabric);
  auto result = run_probe("pfc-pause", fabric);
  auto origins = with_signal(result, "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].entities[0], "nic:node03/mlx5_1");
  EXPECT_NE(origins[0].summary.find("cumulative"), std::string::npos);
  EXPECT_EQ(origins[0].unit, "frames");
}

TEST(PfcPause, CounterResetIsNotedAndNotARate) {
  model::Fabric fabric = healthy_fleet();
  auto& nic = nic_at(fabric, 1, 1);
  nic.samples[1].values[model::MetricKey{"pfc_tx_pause_frames", 3}] = 5.0;  // went down
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  EXPECT_NE(result.reason.find("reset"), std::string::npos) << result.reason;
}

TEST(PfcPause, BnxtWithoutPauseCountersIsPartialCoverageNotZero) {
  model::Fabric fabric = healthy_fleet();
  for (auto& nic : fabric.hosts[7].nics) {
    nic.vendor = "bnxt";
    remove_metric(nic.samples, "pfc_tx_pause_frames", 3);
    remove_metric(nic.samples, "pfc_rx_pause_frames", 3);
  }
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran);
  EXPECT_NE(result.reason.find("28 of 32"), std::string::npos) << result.reason;
}

TEST(PfcPause, SwitchPortReceivingPauseNamesTheNicBehindIt) {
  model::Fabric fabric = healthy_fleet();
  // The host's counters are absent; only the switch sees the pause.
  for (auto& nic : fabric.hosts[2].nics) {
    remove_metric(nic.samples, "pfc_tx_pause_frames", 3);
  }
  set_rate(port_named(fabric, "leaf1", "Ethernet36").samples, "pfc_rx_pause_frames", 3, 50000.0);
  auto origins = with_signal(run_probe("pfc-pause", fabric), "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].entities[0], "nic:node03/mlx5_1");
  EXPECT_TRUE(names(origins[0], "port:leaf1/Ethernet36"));
}

}  // namespace
}  // namespace netdoctor::testing
