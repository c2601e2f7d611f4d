// link-speed, utilization-ecmp, oversubscription, mtu, firmware, qos-config, clock,
// addressing, perftest-baseline.
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

TEST(LinkSpeed, NicTrainedBelowRatedSpeed) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 5, 2).speed_gbps = 200.0;
  port_named(fabric, "leaf2", "Ethernet24").speed_gbps = 200.0;
  auto result = run_probe("link-speed", fabric);
  auto degraded = with_signal(result, "link-degraded");
  ASSERT_EQ(degraded.size(), 2u);
  EXPECT_EQ(degraded[0].entities[0], "nic:node06/mlx5_2");
  EXPECT_TRUE(names(degraded[0], "port:leaf2/Ethernet24"));
  EXPECT_NE(degraded[0].summary.find("200 Gb/s"), std::string::npos);
  EXPECT_EQ(degraded[1].entities[0], "port:leaf2/Ethernet24");
}

TEST(LinkSpeed, MissingLanesWithoutRatedSpeed) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.rated_gbps.reset();
    }
  }
  nic_at(fabric, 0, 1).active_width = 2;
  auto degraded = with_signal(run_probe("link-speed", fabric), "link-degraded");
  ASSERT_EQ(degraded.size(), 1u);
  EXPECT_NE(degraded[0].summary.find("2 of 4 lanes"), std::string::npos);
}

TEST(LinkSpeed, DownNic) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 2, 0).operstate = model::LinkState::Down;
  EXPECT_EQ(with_signal(run_probe("link-speed", fabric), "link-down").size(), 1u);
}

TEST(UtilizationEcmp, HotAndIdleUplinksOfOneLeaf) {
  model::Fabric fabric = healthy_fleet();
  for (int u = 0; u < 16; ++u) {
    auto& port = port_named(fabric, "leaf1", "Ethernet" + std::to_string(256 + u * 8));
    set_gauge(port.samples, "tx_util_pct", -1, (u % 4 == 0) ? 99.5 : 15.0);
  }
  auto result = run_probe("utilization-ecmp", fabric);
  auto imbalance = with_signal(result, "ecmp-imbalance");
  ASSERT_EQ(imbalance.size(), 1u);
  EXPECT_EQ(imbalance[0].entities[0], "switch:leaf1");
  EXPECT_TRUE(names(imbalance[0], "port:leaf1/Ethernet256"));
  EXPECT_TRUE(names(imbalance[0], "port:leaf1/Ethernet264"));
}

TEST(UtilizationEcmp, UniformlyBusyUplinksAreBalanced) {
  model::Fabric fabric = healthy_fleet();
  for (int u = 0; u < 16; ++u) {
    auto& port = port_named(fabric, "leaf1", "Ethernet" + std::to_string(256 + u * 8));
    set_gauge(port.samples, "tx_util_pct", -1, 97.0 + (u % 3));
  }
  EXPECT_EQ(with_signal(run_probe("utilization-ecmp", fabric), "ecmp-balanced").size(), 1u);
}

TEST(UtilizationEcmp, SingleSampleUsesTheShownUtilisation) {
  model::Fabric fabric = healthy_fleet();
  keep_first_sample(fabric);
  auto result = run_probe("utilization-ecmp", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran);
  EXPECT_EQ(with_signal(result, "ecmp-balanced").size(), 1u);
}

TEST(Oversubscription, FourToOneLeafWithSaturatedUplinks) {
  FleetSpec spec;
  spec.uplinks_per_leaf = 2;
  model::Fabric fabric = healthy_fleet(spec);
  for (const char* name : {"Ethernet256", "Ethernet264"}) {
    set_gauge(port_named(fabric, "leaf1", name).samples, "tx_util_pct", -1, 99.5);
  }
  auto result = run_probe("oversubscription", fabric);
  auto over = with_signal(result, "oversubscribed-leaf");
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].entities[0], "switch:leaf1");
  EXPECT_NE(over[0].summary.find("6400 Gb/s down"), std::string::npos) << over[0].summary;
  EXPECT_NE(over[0].summary.find("8:1"), std::string::npos) << over[0].summary;
}

TEST(Oversubscription, NonBlockingLeavesAreBalanced) {
  auto result = run_probe("oversubscription", healthy_fleet());
  EXPECT_EQ(with_signal(result, "capacity-balanced").size(), 1u);
}

TEST(Mtu, HostBelowFleetAndBelowItsSwitchPort) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 4, 2).mtu = 1500;
  nic_at(fabric, 4, 2).active_mtu = 1024;
  auto mismatch = with_signal(run_probe("mtu", fabric), "mtu-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].entities[0], "netdev:node05/ens3f0np0");
  EXPECT_TRUE(names(mismatch[0], "nic:node05/mlx5_2"));
  EXPECT_NE(mismatch[0].summary.find("1500"), std::string::npos);
}

TEST(Mtu, SwitchPortBelowTheHost) {
  model::Fabric fabric = healthy_fleet();
  port_named(fabric, "leaf1", "Ethernet8").mtu = 1500;
  auto mismatch = with_signal(run_probe("mtu", fabric), "mtu-mismatch");
  ASSERT_GE(mismatch.size(), 1u);
  EXPECT_TRUE(names(mismatch[0], "port:leaf1/Ethernet8"));
}

TEST(Mtu, SwitchSlightlyAboveHostIsFine) {
  EXPECT_EQ(with_signal(run_probe("mtu", healthy_fleet()), "mtu-consistent").size(), 1u);
}

TEST(Firmware, WholeHostOnOtherFirmwareNamesTheHost) {
  model::Fabric fabric = healthy_fleet();
  for (auto& nic : fabric.hosts[4].nics) {
    nic.firmware = "28.36.1010";
  }
  auto mismatch = with_signal(run_probe("firmware", fabric), "firmware-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].entities[0], "host:node05");
  EXPECT_TRUE(names(mismatch[0], "nic:node05/mlx5_3"));
}

TEST(Firmware, MixedVendorsAreComparedWithinTheirModel) {
  model::Fabric fabric = healthy_fleet();
  for (int h = 6; h < 8; ++h) {
    for (auto& nic : fabric.hosts[static_cast<std::size_t>(h)].nics) {
      nic.vendor = "bnxt";
      nic.part_id = "5984";
      nic.firmware = "230.0.157.0";
      nic.driver_version = "6.8.0-45-generic";
    }
  }
  EXPECT_EQ(with_signal(run_probe("firmware", fabric), "firmware-consistent").size(), 1u);
}

TEST(QosConfig, PfcOffOnTheRocePriorityOfAWholeHost) {
  model::Fabric fabric = healthy_fleet();
  for (auto& nic : fabric.hosts[5].nics) {
    nic.qos.pfc_enabled[3] = false;
  }
  auto off = with_signal(run_probe("qos-config", fabric), "pfc-disabled-on-roce-priority");
  ASSERT_EQ(off.size(), 1u);
  EXPECT_EQ(off[0].entities[0], "host:node06");
  EXPECT_TRUE(names(off[0], "nic:node06/mlx5_0"));
}

TEST(QosConfig, TrustMismatchAndMissingMlnxQosOnBnxt) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 1, 1).qos.trust = "pcp";
  for (auto& nic : fabric.hosts[7].nics) {
    nic.qos = model::QosConfig{};  // bnxt: no mlnx_qos
  }
  auto result = run_probe("qos-config", fabric);
  EXPECT_EQ(with_signal(result, "trust-mismatch").size(), 1u);
  EXPECT_NE(result.reason.find("partial coverage"), std::string::npos);
}

TEST(QosConfig, DcbNicsAreJudgedLikeMlnxQosAndTheToolIsNamed) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.vendor = "bnxt";
      nic.qos.tool = "dcb";
    }
  }
  auto clean = with_signal(run_probe("qos-config", fabric), "qos-consistent");
  ASSERT_EQ(clean.size(), 1u);
  EXPECT_NE(clean[0].summary.find("with dcb"), std::string::npos) << clean[0].summary;
  for (auto& nic : fabric.hosts[2].nics) {
    nic.qos.pfc_enabled[3] = false;
  }
  auto off = with_signal(run_probe("qos-config", fabric), "pfc-disabled-on-roce-priority");
  ASSERT_EQ(off.size(), 1u);
  EXPECT_EQ(off[0].entities[0], "host:node03");
  EXPECT_NE(off[0].summary.find("(dcb)"), std::string::npos) << off[0].summary;
}

// No config tool at all: pause frames prove PFC where they flow, and say so.
TEST(QosConfig, WithoutAConfigToolPfcIsInferredFromPauseFrames) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.qos = model::QosConfig{};
    }
  }
  auto clean = run_probe("qos-config", fabric);
  auto consistent = with_signal(clean, "qos-consistent");
  ASSERT_EQ(consistent.size(), 1u);
  EXPECT_NE(consistent[0].summary.find("inferred"), std::string::npos) << consistent[0].summary;
  EXPECT_LT(consistent[0].strength, 0.9);  // weaker than a config tool's word

  // node05's first NIC pauses on priority 5 only: PFC sits on the wrong priority.
  model::Nic& moved = nic_at(fabric, 4, 0);
  for (const char* name : {"pfc_tx_pause_frames", "pfc_rx_pause_frames"}) {
    remove_metric(moved.samples, name, 3);
    set_rate(moved.samples, name, 5, 40.0);
  }
  auto result = run_probe("qos-config", fabric);
  auto inferred = with_signal(result, "pfc-off-roce-priority-inferred");
  ASSERT_EQ(inferred.size(), 1u);
  EXPECT_EQ(inferred[0].entities[0], moved.nic_entity());
  EXPECT_NE(inferred[0].summary.find("inferred"), std::string::npos);
  EXPECT_TRUE(with_signal(result, "qos-consistent").empty());

  // A NIC that never paused proves nothing: no finding, and the fleet is not cleared whole.
  model::Fabric idle = healthy_fleet();
  for (auto& host : idle.hosts) {
    for (auto& nic : host.nics) {
      nic.qos = model::QosConfig{};
    }
  }
  for (const char* name : {"pfc_tx_pause_frames", "pfc_rx_pause_frames"}) {
    remove_metric(nic_at(idle, 4, 0).samples, name, 3);
  }
  auto partial = run_probe("qos-config", idle);
  EXPECT_TRUE(with_signal(partial, "pfc-off-roce-priority-inferred").empty());
  auto weak = with_signal(partial, "qos-consistent");
  ASSERT_EQ(weak.size(), 1u);
  EXPECT_EQ(weak[0].strength, 0.0);
}

// Hosts on PTP: the clock view is named, and an unlocked servo is an unsynchronised clock.
TEST(Clock, LinuxptpHostsAreJudgedAndTheViewIsNamed) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    host.clock.source = "ptp4l log";
    host.clock.leap_status = "linuxptp locked";
  }
  auto clean = with_signal(run_probe("clock", fabric), "clock-ok");
  ASSERT_EQ(clean.size(), 1u);
  EXPECT_NE(clean[0].summary.find("read via ptp4l log"), std::string::npos) << clean[0].summary;
  auto& host = fabric.hosts[3];
  host.clock.synchronised = false;
  host.clock.leap_status = "linuxptp not locked";
  auto unsync = with_signal(run_probe("clock", fabric), "clock-unsynchronised");
  ASSERT_EQ(unsync.size(), 1u);
  EXPECT_EQ(unsync[0].entities[0], host.entity());
  EXPECT_NE(unsync[0].summary.find("linuxptp not locked per ptp4l log"), std::string::npos)
      << unsync[0].summary;
}

TEST(Clock, HostOffsetAndCaptureSkew) {
  model::Fabric fabric = healthy_fleet();
  auto& host = fabric.hosts[1];
  host.clock.offset_s = -1.668;
  host.clock.synchronised = false;
  host.clock.leap_status = "Not synchronised";
  for (double& t : host.captured_at) {
    t -= 1.7;
  }
  auto result = run_probe("clock", fabric);
  auto offset = with_signal(result, "clock-offset");
  ASSERT_EQ(offset.size(), 1u);
  EXPECT_EQ(offset[0].entities[0], "host:node02");
  EXPECT_NE(offset[0].summary.find("1668 ms behind"), std::string::npos) << offset[0].summary;
  EXPECT_EQ(with_signal(result, "clock-unsynchronised").size(), 1u);
}

TEST(Clock, WithoutChronyCaptureTimesStillJudge) {
  model::Fabric fabric = healthy_fleet();
  for (auto& host : fabric.hosts) {
    host.clock = model::ClockState{};
  }
  for (double& t : fabric.hosts[3].captured_at) {
    t += 5.0;
  }
  auto result = run_probe("clock", fabric);
  EXPECT_NE(result.reason.find("partial coverage"), std::string::npos);
  auto offset = with_signal(result, "clock-offset");
  ASSERT_EQ(offset.size(), 1u);
  EXPECT_EQ(offset[0].entities[0], "host:node04");
}

TEST(Addressing, DuplicateAddressOnTwoHosts) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 3, 2).ipv4 = nic_at(fabric, 1, 2).ipv4;
  auto dup = with_signal(run_probe("addressing", fabric), "duplicate-ip");
  ASSERT_EQ(dup.size(), 1u);
  EXPECT_TRUE(names(dup[0], "netdev:node02/ens3f0np0"));
  EXPECT_TRUE(names(dup[0], "netdev:node04/ens3f0np0"));
  EXPECT_TRUE(names(dup[0], "host:node04"));
}

TEST(Addressing, SharedSubnetOnlyWhenTheFleetSeparates) {
  model::Fabric fabric = healthy_fleet();
  nic_at(fabric, 6, 1).ipv4 = {"10.10.0.107/24"};  // same subnet as its mlx5_0
  auto shared = with_signal(run_probe("addressing", fabric), "shared-subnet");
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_TRUE(names(shared[0], "host:node07"));

  // A fleet designed with one subnet for all NICs is not flagged.
  model::Fabric flat = healthy_fleet();
  for (auto& host : flat.hosts) {
    for (std::size_t n = 0; n < host.nics.size(); ++n) {
      host.nics[n].ipv4 = {"10.0." + std::to_string(n) + host.name.substr(4) + ".1/16"};
    }
  }
  EXPECT_TRUE(with_signal(run_probe("addressing", flat), "shared-subnet").empty());
}

TEST(PerftestBaseline, BandwidthDropBeyondThreshold) {
  model::Fabric fabric = healthy_fleet();
  for (auto& run : fabric.perftests) {
    if (!run.baseline && run.client == "node03" && run.bw_avg_gbps) {
      run.bw_avg_gbps = 300.0;
    }
  }
  auto regression = with_signal(run_probe("perftest-baseline", fabric), "perftest-regression");
  ASSERT_EQ(regression.size(), 1u);
  EXPECT_EQ(regression[0].entities[0], "nic:node03/mlx5_0");
  EXPECT_TRUE(names(regression[0], "host:node04"));
  EXPECT_NE(regression[0].summary.find("23.5 %"), std::string::npos) << regression[0].summary;
}

TEST(PerftestBaseline, FailedRunAndThresholdFromTheSite) {
  model::Fabric fabric = healthy_fleet();
  fabric.perftests[2].ok = false;
  fabric.perftests[2].error = "Couldn't connect to node02:18515";
  fabric.perftests[2].baseline = false;
  // 0.4 % bandwidth loss counts once the site lowers the 5 % rule to 0.1 %.
  auto result = run_probe("perftest-baseline", fabric, {}, {{"baseline.threshold", 0.001}});
  EXPECT_EQ(with_signal(result, "perftest-failed").size(), 1u);
  EXPECT_FALSE(with_signal(result, "perftest-regression").empty());
}

}  // namespace
}  // namespace netdoctor::testing
