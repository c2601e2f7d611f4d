// drops-buffers, ecn-cnp, retransmits, link-errors, traffic-isolation, packet-size.
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

TEST(DropsBuffers, LosslessQueueDropsOnOnePortStandOut) {
  model::Fabric fabric = healthy_fleet();
  set_rate(port_named(fabric, "leaf1", "Ethernet4").samples, "queue_drop_packets", 3, 850.0);
  auto result = run_probe("drops-buffers", fabric);
  auto drops = with_signal(result, "lossless-queue-drops");
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0].entities[0], "port:leaf1/Ethernet4");
  EXPECT_TRUE(names(drops[0], "switch:leaf1"));
  EXPECT_NE(drops[0].summary.find("850 packets/s"), std::string::npos) << drops[0].summary;
  EXPECT_TRUE(with_signal(result, "drops-clear").empty());
}

TEST(DropsBuffers, SmallNoiseDropsOnTheRoceQueueAreClear) {
  model::Fabric fabric = healthy_fleet();  // every port drops ~0.02/s on UC3
  auto result = run_probe("drops-buffers", fabric);
  EXPECT_EQ(with_signal(result, "drops-clear").size(), 1u);
}

TEST(DropsBuffers, NicDiscardsAboveFleet) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 3, 2).samples, "prio_rx_discards", 3, 90.0);
  auto nic = with_signal(run_probe("drops-buffers", fabric), "nic-discards");
  ASSERT_EQ(nic.size(), 1u);
  EXPECT_EQ(nic[0].entities[0], "nic:node04/mlx5_2");
}

TEST(EcnCnp, LeafWhoseHostsPauseButSeeNoMarksIsNamed) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 4; h < 8; ++h) {
    for (int n = 0; n < 4; ++n) {
      auto& nic = nic_at(fabric, h, n);
      set_rate(nic.samples, "ecn_marked_packets", -1, 0.0);
      set_rate(nic.samples, "cnp_sent", -1, 0.0);
      set_rate(nic.samples, "pfc_rx_pause_frames", 3, 4000.0);
    }
  }
  auto result = run_probe("ecn-cnp", fabric);
  auto inactive = with_signal(result, "ecn-inactive");
  ASSERT_EQ(inactive.size(), 1u);
  EXPECT_EQ(inactive[0].entities[0], "switch:leaf2");
  EXPECT_TRUE(with_signal(result, "ecn-active").empty());
}

TEST(EcnCnp, NoPauseMeansNoMarksAreFine) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 4; h < 8; ++h) {
    for (int n = 0; n < 4; ++n) {
      set_rate(nic_at(fabric, h, n).samples, "ecn_marked_packets", -1, 0.0);
      set_rate(nic_at(fabric, h, n).samples, "pfc_rx_pause_frames", 3, 0.0);
      set_rate(nic_at(fabric, h, n).samples, "pfc_tx_pause_frames", 3, 0.0);
    }
  }
  EXPECT_TRUE(with_signal(run_probe("ecn-cnp", fabric), "ecn-inactive").empty());
}

TEST(EcnCnp, CnpsIgnoredByOneNic) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 1, 3).samples, "cnp_ignored", -1, 120.0, 0.0);
  auto ignored = with_signal(run_probe("ecn-cnp", fabric), "cnp-ignored");
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0].entities[0], "nic:node02/mlx5_3");
}

TEST(Retransmits, HostWhoseEveryNicRetransmitsIsNamedToo) {
  model::Fabric fabric = healthy_fleet();
  for (auto& nic : fabric.hosts[5].nics) {
    set_rate(nic.samples, "out_of_sequence", -1, 400.0);
    set_rate(nic.samples, "ack_timeouts", -1, 20.0);
  }
  auto result = run_probe("retransmits", fabric);
  auto flags = with_signal(result, "rdma-retransmits");
  ASSERT_EQ(flags.size(), 4u);
  for (const auto& flag : flags) {
    EXPECT_TRUE(names(flag, "host:node06"));
    EXPECT_NE(flag.summary.find("out-of-sequence"), std::string::npos);
  }
  EXPECT_TRUE(with_signal(result, "retransmits-clear").empty());
}

TEST(Retransmits, AFewEventsPerSecondAreAWeakSign) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 2, 2).samples, "out_of_sequence", -1, 8.0);
  set_rate(nic_at(fabric, 3, 2).samples, "out_of_sequence", -1, 900.0);
  auto flags = with_signal(run_probe("retransmits", fabric), "rdma-retransmits");
  ASSERT_EQ(flags.size(), 2u);
  const auto& weak = names(flags[0], "nic:node03/mlx5_2") ? flags[0] : flags[1];
  const auto& strong = names(flags[0], "nic:node03/mlx5_2") ? flags[1] : flags[0];
  EXPECT_LT(weak.strength, 0.5);
  EXPECT_GT(strong.strength, 0.9);
}

TEST(Retransmits, MissingHwCountersOnBnxtAreNotZero) {
  model::Fabric fabric = healthy_fleet();
  for (auto& nic : fabric.hosts[0].nics) {
    nic.vendor = "bnxt";
    for (const char* name :
         {"out_of_sequence", "seq_err_naks", "ack_timeouts", "retransmits", "duplicate_requests"}) {
      remove_metric(nic.samples, name);
    }
  }
  auto result = run_probe("retransmits", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran);
  EXPECT_NE(result.reason.find("partial coverage"), std::string::npos);
  EXPECT_EQ(with_signal(result, "retransmits-clear").size(), 1u);
}

TEST(LinkErrors, FcsAndSymbolErrorsNameNicNetdevPortAndLink) {
  model::Fabric fabric = healthy_fleet();
  auto& nic = nic_at(fabric, 3, 3);
  set_rate(nic.samples, "fcs_errors", -1, 264.0);
  set_rate(nic.samples, "symbol_errors", -1, 527.0);
  set_rate(nic.samples, "link_down_events", -1, 0.23, 1.0);
  auto result = run_probe("link-errors", fabric);
  auto errors = with_signal(result, "link-errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].entities[0], "nic:node04/mlx5_3");
  EXPECT_TRUE(names(errors[0], "netdev:node04/ens4f0np0"));
  EXPECT_TRUE(names(errors[0], "port:leaf1/Ethernet60"));
  EXPECT_TRUE(names(errors[0], "link:leaf1/Ethernet60~node04/ens4f0np0"));
  EXPECT_EQ(with_signal(result, "link-flap").size(), 1u);
}

TEST(LinkErrors, OldErrorsThatDidNotGrowAreClean) {
  model::Fabric fabric = healthy_fleet();
  set_rate(nic_at(fabric, 0, 0).samples, "fcs_errors", -1, 0.0, 1e6);
  EXPECT_EQ(with_signal(run_probe("link-errors", fabric), "link-clean").size(), 1u);
}

TEST(LinkErrors, FewErrorsAboveTheBerLimitCountEvenWhenTheFleetIsNoisy) {
  model::Fabric fabric = healthy_fleet();
  // 5 FCS errors/s on a 400G link: BER >= 1.25e-11 > 1e-12.
  set_rate(nic_at(fabric, 6, 0).samples, "fcs_errors", -1, 5.0);
  auto errors = with_signal(run_probe("link-errors", fabric), "link-errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].summary.find("per bit"), std::string::npos);
}

TEST(TrafficIsolation, NonRdmaBytesOnTheRocePriority) {
  model::Fabric fabric = healthy_fleet();
  auto& nic = nic_at(fabric, 4, 0);
  set_rate(nic.samples, "prio_tx_bytes", 3, 20e9, 1e15);
  set_rate(nic.samples, "rdma_tx_bytes", -1, 14e9, 1e15);
  auto result = run_probe("traffic-isolation", fabric);
  auto flags = with_signal(result, "non-rdma-on-lossless");
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].entities[0], "nic:node05/mlx5_0");
  EXPECT_TRUE(names(flags[0], "host:node05"));
  EXPECT_NE(flags[0].summary.find("30 %"), std::string::npos) << flags[0].summary;
}

TEST(TrafficIsolation, SingleSampleCannotJudgeAndSaysSo) {
  model::Fabric fabric = healthy_fleet();
  keep_first_sample(fabric);
  auto result = run_probe("traffic-isolation", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_TRUE(result.findings.empty());
}

TEST(PacketSize, SmallPacketsOnIdleLinksFabricWide) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      set_rate(nic.samples, "prio_tx_bytes", 3, 2.4e9, 1e15);
      set_rate(nic.samples, "prio_tx_packets", 3, 1.2e7, 1e12);
      set_rate(nic.samples, "port_tx_bytes", -1, 2.5e9, 1e15);
      set_rate(nic.samples, "port_tx_packets", -1, 1.25e7, 1e12);
    }
  }
  auto result = run_probe("packet-size", fabric);
  auto small = with_signal(result, "small-packets");
  ASSERT_EQ(small.size(), 1u);
  EXPECT_NE(small[0].summary.find("200 bytes"), std::string::npos) << small[0].summary;
}

}  // namespace
}  // namespace netdoctor::testing
