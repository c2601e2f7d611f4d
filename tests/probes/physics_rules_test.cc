// The physical reasoning that tells a fault from its look-alikes on fabrics of any size: half
// the uplinks hot beside idle ones, pause between switches or from a whole leaf's NICs
// (congestion) against one NIC pausing (a storm), drops where PFC is not active (lossy RoCE)
// against drops from a short buffer.
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

constexpr int k_roce = 3;

TEST(UtilizationEcmp, HalfTheUplinksHotBesideIdleOnesIsImbalance) {
  // The leaf's median uplink is itself near the hot ones: comparing with the median alone
  // would miss this, the most common picture of elephant flows on a few hash buckets.
  model::Fabric fabric = healthy_fleet();
  for (int u = 0; u < 16; ++u) {
    auto& port = port_named(fabric, "leaf2", "Ethernet" + std::to_string(256 + u * 8));
    set_gauge(port.samples, "tx_util_pct", -1, (u % 2 == 0) ? 97.0 : 6.0);
  }
  auto imbalance = with_signal(run_probe("utilization-ecmp", fabric), "ecmp-imbalance");
  ASSERT_EQ(imbalance.size(), 1u);
  EXPECT_EQ(imbalance[0].entities[0], "switch:leaf2");
  EXPECT_TRUE(names(imbalance[0], "port:leaf2/Ethernet256"));  // hot
  EXPECT_TRUE(names(imbalance[0], "port:leaf2/Ethernet264"));  // idle
}

TEST(UtilizationEcmp, AllHotWithNoIdleUplinkIsNotImbalance) {
  model::Fabric fabric = healthy_fleet();
  for (int u = 0; u < 16; ++u) {
    auto& port = port_named(fabric, "leaf2", "Ethernet" + std::to_string(256 + u * 8));
    set_gauge(port.samples, "tx_util_pct", -1, (u % 2 == 0) ? 99.0 : 62.0);
  }
  EXPECT_TRUE(with_signal(run_probe("utilization-ecmp", fabric), "ecmp-imbalance").empty());
}

TEST(PfcPause, PauseBetweenSwitchesIsCongestionNotAStormOrigin) {
  model::Fabric fabric = healthy_fleet();
  // leaf1's uplinks receive heavy pause from the spines: queues full inside the fabric.
  for (int u = 0; u < 4; ++u) {
    set_rate(port_named(fabric, "leaf1", "Ethernet" + std::to_string(256 + u * 8)).samples,
             "pfc_rx_pause_frames", k_roce, 40000.0);
  }
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  auto wide = with_signal(result, "pfc-pause-widespread");
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_TRUE(names(wide[0], "switch:leaf1"));
}

TEST(PfcPause, ManyNicsOfOneLeafPausingHardTogetherAreCongestion) {
  model::Fabric fabric = healthy_fleet();
  // Six NICs under leaf2 send ~200x the fleet's pause, each holding its link paused ~3 % of
  // the window, none tripping a storm detector.
  for (int h = 4; h < 7; ++h) {
    for (int n = 0; n < 2; ++n) {
      auto& nic = nic_at(fabric, h, n);
      set_rate(nic.samples, "pfc_tx_pause_frames", k_roce, 1000.0 + 50.0 * n);
      set_rate(nic.samples, "pfc_tx_pause_us", k_roce, 30000.0);
    }
  }
  auto result = run_probe("pfc-pause", fabric);
  EXPECT_TRUE(with_signal(result, "pfc-storm-origin").empty());
  auto wide = with_signal(result, "pfc-pause-widespread");
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_TRUE(names(wide[0], "switch:leaf2"));
}

TEST(PfcPause, OneNicHoldingItsLinkPausedIsStillAStormBesideTheGroup) {
  model::Fabric fabric = healthy_fleet();
  auto& storm = nic_at(fabric, 1, 3);
  set_rate(storm.samples, "pfc_tx_pause_frames", k_roce, 9000.0);
  set_rate(storm.samples, "pfc_tx_pause_us", k_roce, 800000.0);  // 80 % of each second
  auto origins = with_signal(run_probe("pfc-pause", fabric), "pfc-storm-origin");
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].entities[0], "nic:node02/mlx5_3");
}

TEST(DropsBuffers, DiscardsAtANicWithPfcOffAreLossyRoceNotBuffers) {
  model::Fabric fabric = healthy_fleet();
  auto& nic = nic_at(fabric, 2, 1);
  nic.qos.pfc_enabled[k_roce] = false;
  set_rate(nic.samples, "prio_rx_discards", k_roce, 300.0);
  auto result = run_probe("drops-buffers", fabric);
  EXPECT_TRUE(with_signal(result, "nic-discards").empty());
  auto lossy = with_signal(result, "drops-at-lossy-nic");
  ASSERT_EQ(lossy.size(), 1u);
  EXPECT_EQ(lossy[0].entities[0], "nic:node03/mlx5_1");
  EXPECT_NE(lossy[0].summary.find("PFC is off"), std::string::npos) << lossy[0].summary;
}

TEST(DropsBuffers, WithoutQosConfigDiscardingWhileNeverPausingMeansPfcInactive) {
  // Broadcom NICs have no mlnx_qos: the counters must tell.
  model::Fabric fabric = healthy_fleet();
  auto& quiet = nic_at(fabric, 5, 0);
  quiet.qos = {};
  set_rate(quiet.samples, "prio_rx_discards", k_roce, 250.0);
  set_rate(quiet.samples, "pfc_tx_pause_frames", k_roce, 0.0);
  auto& pausing = nic_at(fabric, 6, 0);  // discards too, but pauses first: a short buffer
  pausing.qos = {};
  set_rate(pausing.samples, "prio_rx_discards", k_roce, 250.0);
  auto result = run_probe("drops-buffers", fabric);
  auto lossy = with_signal(result, "drops-at-lossy-nic");
  ASSERT_EQ(lossy.size(), 1u);
  EXPECT_EQ(lossy[0].entities[0], "nic:node06/mlx5_0");
  auto buffers = with_signal(result, "nic-discards");
  ASSERT_EQ(buffers.size(), 1u);
  EXPECT_EQ(buffers[0].entities[0], "nic:node07/mlx5_0");
}

TEST(DropsBuffers, SwitchPortDropsFacingANicWithPfcOffNameThatNic) {
  model::Fabric fabric = healthy_fleet();
  auto& nic = nic_at(fabric, 0, 2);
  nic.qos.pfc_enabled[k_roce] = false;
  set_rate(port_named(fabric, "leaf1", "Ethernet8").samples, "queue_drop_packets", k_roce, 400.0);
  auto result = run_probe("drops-buffers", fabric);
  EXPECT_TRUE(with_signal(result, "lossless-queue-drops").empty());
  auto lossy = with_signal(result, "drops-at-lossy-nic");
  ASSERT_EQ(lossy.size(), 1u);
  EXPECT_TRUE(names(lossy[0], "port:leaf1/Ethernet8"));
  EXPECT_TRUE(names(lossy[0], "nic:node01/mlx5_2"));
  // The NIC's PFC, not the switch, is at fault: several such ports must not add up to blaming it.
  EXPECT_FALSE(names(lossy[0], "switch:leaf1"));
  // Drops on a lossless queue facing a NIC whose PFC is on are the switch's buffers.
  nic.qos.pfc_enabled[k_roce] = true;
  auto buffers = with_signal(run_probe("drops-buffers", fabric), "lossless-queue-drops");
  ASSERT_EQ(buffers.size(), 1u);
  EXPECT_TRUE(names(buffers[0], "switch:leaf1"));
}

TEST(Firmware, FindingCarriesHowManyNicsRunTheOddVersionAgainstTheMajority) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 3, 0).firmware = "28.36.1010";
  nic_at(fabric, 3, 1).firmware = "28.36.1010";
  auto odd = with_signal(run_probe("firmware", fabric), "firmware-mismatch");
  ASSERT_EQ(odd.size(), 1u);
  ASSERT_TRUE(odd[0].value.has_value());
  ASSERT_TRUE(odd[0].fleet_normal.has_value());
  EXPECT_DOUBLE_EQ(*odd[0].value, 2.0);
  EXPECT_DOUBLE_EQ(*odd[0].fleet_normal, 30.0);
}

}  // namespace
}  // namespace netdoctor::testing
