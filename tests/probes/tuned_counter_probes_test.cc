// A site tunes the thresholds of the counter and clock probes (drops-buffers, ecn-cnp,
// retransmits, traffic-isolation, packet-size, clock, utilization-ecmp, perftest-baseline): each
// case sits on one side of the kb's value and moves to the other with the site's, so what the
// probe finds changes.
#include <gtest/gtest.h>

#include <string>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

TEST(TunedDropsBuffers, ASiteWithNoisierCountersRaisesTheDropFloor) {
  model::Fabric fabric = healthy_fleet();
  // 8 drops/s on the RoCE queue: far above the fleet (~0.02/s) and above the 1/s floor.
  set_rate(port_named(fabric, "leaf1", "Ethernet4").samples, "queue_drop_packets", 3, 8.0);
  EXPECT_EQ(with_signal(run_probe("drops-buffers", fabric), "lossless-queue-drops").size(), 1u);

  auto tuned = run_probe("drops-buffers", fabric, {}, {{"drops-buffers.min_drop_rate", 10.0}});
  EXPECT_TRUE(with_signal(tuned, "lossless-queue-drops").empty());
  EXPECT_EQ(with_signal(tuned, "drops-clear").size(), 1u);
}

TEST(TunedDropsBuffers, LossyQueueDropsKeepTheSiteShareOfTheirStrength) {
  model::Fabric fabric = healthy_fleet();
  set_rate(port_named(fabric, "leaf2", "Ethernet8").samples, "queue_drop_packets", 0, 900.0);
  auto lossy = with_signal(run_probe("drops-buffers", fabric), "lossy-queue-drops");
  ASSERT_EQ(lossy.size(), 1u);
  EXPECT_LE(lossy[0].strength, 0.5);

  auto full = with_signal(
      run_probe("drops-buffers", fabric, {}, {{"drops-buffers.lossy_drops_weight", 1.0}}),
      "lossy-queue-drops");
  ASSERT_EQ(full.size(), 1u);
  EXPECT_DOUBLE_EQ(full[0].strength, 2.0 * lossy[0].strength);
}

TEST(TunedEcnCnp, AStricterSiteCallsALeafMarkingFarLessThanTheRestInactive) {
  model::Fabric fabric = healthy_fleet();
  // leaf2's hosts pause and mark 6/s, about 2 % of the rest's ~300/s: above the kb's 1 %.
  for (int h = 4; h < 8; ++h) {
    for (int n = 0; n < 4; ++n) {
      set_rate(nic_at(fabric, h, n).samples, "ecn_marked_packets", -1, 6.0);
      set_rate(nic_at(fabric, h, n).samples, "pfc_rx_pause_frames", 3, 4000.0);
    }
  }
  EXPECT_TRUE(with_signal(run_probe("ecn-cnp", fabric), "ecn-inactive").empty());

  auto inactive = with_signal(
      run_probe("ecn-cnp", fabric, {}, {{"ecn-cnp.inactive_fraction", 0.05}}), "ecn-inactive");
  ASSERT_EQ(inactive.size(), 1u);
  EXPECT_EQ(inactive[0].entities[0], "switch:leaf2");
}

TEST(TunedEcnCnp, AStricterSiteFlagsAFewIgnoredCnps) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 2, 1).samples, "cnp_ignored", -1, 0.5, 0.0);
  EXPECT_TRUE(with_signal(run_probe("ecn-cnp", fabric), "cnp-ignored").empty());

  auto ignored = with_signal(run_probe("ecn-cnp", fabric, {}, {{"ecn-cnp.min_ignored_rate", 0.2}}),
                             "cnp-ignored");
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0].entities[0], "nic:node03/mlx5_1");
}

TEST(TunedRetransmits, ASiteRaisingTheEventFloorClearsAFewRecoveriesPerSecond) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 2, 2).samples, "out_of_sequence", -1, 8.0);
  auto flags = with_signal(run_probe("retransmits", fabric), "rdma-retransmits");
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_LT(flags[0].strength, 0.5);  // below the costly rate of 10/s

  auto cheaper =
      with_signal(run_probe("retransmits", fabric, {}, {{"retransmits.costly_event_rate", 2.0}}),
                  "rdma-retransmits");
  ASSERT_EQ(cheaper.size(), 1u);
  EXPECT_GT(cheaper[0].strength, flags[0].strength);

  auto tuned = run_probe("retransmits", fabric, {}, {{"retransmits.min_event_rate", 10.0}});
  EXPECT_TRUE(with_signal(tuned, "rdma-retransmits").empty());
  EXPECT_EQ(with_signal(tuned, "retransmits-clear").size(), 1u);
}

void foreign_bytes(model::Fabric& fabric, double share) {
  auto& nic = nic_at(fabric, 4, 0);
  set_rate(nic.samples, "prio_tx_bytes", 3, 20e9, 1e15);
  set_rate(nic.samples, "rdma_tx_bytes", -1, 20e9 * (1.0 - share), 1e15);
}

TEST(TunedTrafficIsolation, AStricterSiteFlagsAFewPercentOfForeignBytes) {
  model::Fabric fabric = healthy_fleet();
  foreign_bytes(fabric, 0.04);
  EXPECT_TRUE(with_signal(run_probe("traffic-isolation", fabric), "non-rdma-on-lossless").empty());

  auto flags = with_signal(run_probe("traffic-isolation", fabric, {},
                                     {{"traffic-isolation.max_foreign_share", 0.02},
                                      {"traffic-isolation.min_share_over_fleet", 0.02}}),
                           "non-rdma-on-lossless");
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].entities[0], "nic:node05/mlx5_0");
}

TEST(TunedTrafficIsolation, ALooserSiteAcceptsMoreAccountingDisagreement) {
  model::Fabric fabric = healthy_fleet();
  foreign_bytes(fabric, 0.07);
  EXPECT_EQ(with_signal(run_probe("traffic-isolation", fabric), "non-rdma-on-lossless").size(), 1u);

  auto tuned =
      run_probe("traffic-isolation", fabric, {}, {{"traffic-isolation.max_foreign_share", 0.1}});
  EXPECT_TRUE(with_signal(tuned, "non-rdma-on-lossless").empty());
  EXPECT_EQ(with_signal(tuned, "isolation-ok").size(), 1u);
}

TEST(TunedPacketSize, ASiteCountingLargerPacketsAsSmall) {
  model::Fabric fabric = healthy_fleet();
  // 1500-byte packets: above a quarter of the 4096 path MTU, below half of it.
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      set_rate(nic.samples, "prio_tx_bytes", 3, 2.4e9, 1e15);
      set_rate(nic.samples, "prio_tx_packets", 3, 1.6e6, 1e12);
    }
  }
  EXPECT_EQ(with_signal(run_probe("packet-size", fabric), "packet-size-normal").size(), 1u);

  auto small = with_signal(
      run_probe("packet-size", fabric, {}, {{"packet-size.small_fraction_of_mtu", 0.5}}),
      "small-packets");
  ASSERT_EQ(small.size(), 1u);
  EXPECT_NE(small[0].summary.find("1500 bytes"), std::string::npos) << small[0].summary;
}

TEST(TunedPacketSize, TheSitesPathMtuWhenNoHostReportsOne) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.active_mtu.reset();
      set_rate(nic.samples, "prio_tx_bytes", 3, 2.4e9, 1e15);
      set_rate(nic.samples, "prio_tx_packets", 3, 3e6, 1e12);  // 800 bytes
    }
  }
  EXPECT_EQ(with_signal(run_probe("packet-size", fabric), "small-packets").size(), 1u);

  auto normal =
      with_signal(run_probe("packet-size", fabric, {}, {{"packet-size.default_path_mtu", 1024.0}}),
                  "packet-size-normal");
  ASSERT_EQ(normal.size(), 1u);
  EXPECT_NE(normal[0].summary.find("path MTU 1024"), std::string::npos) << normal[0].summary;
}

TEST(TunedClock, ASiteWideningTheOffsetToleranceAcceptsAFewMilliseconds) {
  model::Fabric fabric = healthy_fleet();
  fabric.hosts[2].clock.offset_s = 3e-3;
  auto offset = with_signal(run_probe("clock", fabric), "clock-offset");
  ASSERT_EQ(offset.size(), 1u);
  EXPECT_EQ(offset[0].entities[0], "host:node03");

  auto wide = run_probe("clock", fabric, {}, {{"clock.offset_tolerance", 5.0}});
  EXPECT_TRUE(with_signal(wide, "clock-offset").empty());
  auto ok = with_signal(wide, "clock-ok");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_NE(ok[0].summary.find("tolerance 5 ms"), std::string::npos) << ok[0].summary;
}

TEST(TunedUtilizationEcmp, ASiteWithALowerHotMarkSeesTheImbalance) {
  model::Fabric fabric = healthy_fleet();
  for (int u = 0; u < 16; ++u) {
    auto& port = port_named(fabric, "leaf1", "Ethernet" + std::to_string(256 + u * 8));
    set_gauge(port.samples, "tx_util_pct", -1, (u % 4 == 0) ? 75.0 : 15.0);
  }
  EXPECT_EQ(with_signal(run_probe("utilization-ecmp", fabric), "ecmp-imbalance").size(), 0u);

  auto imbalance = with_signal(
      run_probe("utilization-ecmp", fabric, {}, {{"utilization-ecmp.hot_utilisation", 0.7}}),
      "ecmp-imbalance");
  ASSERT_EQ(imbalance.size(), 1u);
  EXPECT_EQ(imbalance[0].entities[0], "switch:leaf1");
  EXPECT_TRUE(names(imbalance[0], "port:leaf1/Ethernet256"));
  EXPECT_NE(imbalance[0].summary.find("at 70 % or more"), std::string::npos)
      << imbalance[0].summary;
}

TEST(TunedPerftestBaseline, ALooserSiteRuleAcceptsALargerDrop) {
  model::Fabric fabric = healthy_fleet();
  for (auto& run : fabric.perftests) {
    if (!run.baseline && run.client == "node03" && run.bw_avg_gbps) {
      run.bw_avg_gbps = 300.0;  // 23.5 % below its baseline
    }
  }
  EXPECT_EQ(with_signal(run_probe("perftest-baseline", fabric), "perftest-regression").size(), 1u);

  auto tuned = run_probe("perftest-baseline", fabric, {}, {{"baseline.threshold", 0.3}});
  EXPECT_TRUE(with_signal(tuned, "perftest-regression").empty());
  EXPECT_EQ(with_signal(tuned, "perftest-ok").size(), 1u);
}

TEST(TunedPerftestBaseline, AFailedRunWeighsWhatTheSiteSays) {
  model::Fabric fabric = healthy_fleet();
  fabric.perftests[2].ok = false;
  fabric.perftests[2].error = "Couldn't connect to node02:18515";
  fabric.perftests[2].baseline = false;
  auto failed = with_signal(run_probe("perftest-baseline", fabric), "perftest-failed");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_DOUBLE_EQ(failed[0].strength, 0.9);

  auto tuned = with_signal(
      run_probe("perftest-baseline", fabric, {}, {{"perftest-baseline.failed_strength", 0.5}}),
      "perftest-failed");
  ASSERT_EQ(tuned.size(), 1u);
  EXPECT_DOUBLE_EQ(tuned[0].strength, 0.5);
}

}  // namespace
}  // namespace netdoctor::testing
