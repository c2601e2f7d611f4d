// nccl: channels on sockets, GPUDirect RDMA off on one host, a host leaving an active NIC idle,
// a GID index unlike the fleet's, nccl-tests far below the NICs' line rate are findings; an HCA
// skipped because its port is down is the port's; a healthy job clears; no nccl/ data skips;
// a site's busbw floor changes the verdict.
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

model::NcclHostView& view_at(model::Fabric& fabric, std::size_t host) {
  return fabric.nccl_jobs.at(0).hosts.at(host);
}

TEST(Nccl, AHealthyJobClearsWithItsChannelCount) {
  const auto result = run_probe("nccl", healthy_fleet());
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  const auto cleared = with_signal(result, "nccl-on-rdma");
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_DOUBLE_EQ(*cleared[0].value, 64.0);  // 8 hosts x 8 NET/IB channels
  EXPECT_EQ(result.findings.size(), 1u);
}

TEST(Nccl, WithoutNcclDataItIsSkippedNeverCleared) {
  model::Fabric fabric = healthy_fleet();
  fabric.nccl_jobs.clear();
  const auto result = run_probe("nccl", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_TRUE(result.findings.empty());
  EXPECT_NE(result.reason.find("NCCL"), std::string::npos) << result.reason;
}

TEST(Nccl, ChannelsOnSocketsNameTheHost) {
  model::Fabric fabric = healthy_fleet();
  model::NcclHostView& view = view_at(fabric, 5);
  view.network = "Socket";
  view.hcas.clear();
  view.gdr.clear();
  view.channels = {{"NET/Socket", 8}};
  view.gdr_channels = 0;
  view.socket_devices = {"eth0:10.0.0.6<0>"};
  const auto result = run_probe("nccl", fabric);
  const auto found = with_signal(result, "nccl-socket-transport");
  ASSERT_EQ(found.size(), 1u) << result.reason;
  EXPECT_EQ(found[0].entities, (std::vector<std::string>{"host:" + fabric.hosts[5].name}));
  EXPECT_DOUBLE_EQ(*found[0].value, 8.0);
  EXPECT_NE(found[0].summary.find("eth0:10.0.0.6<0>"), std::string::npos) << found[0].summary;
  // A host on sockets is not also blamed for GDR or HCAs: the socket finding says it all.
  EXPECT_TRUE(with_signal(result, "nccl-gdr-off").empty());
  EXPECT_TRUE(with_signal(result, "nccl-too-few-hcas").empty());
  EXPECT_TRUE(with_signal(result, "nccl-on-rdma").empty());
}

TEST(Nccl, GdrOffOnOneHostWhilePeersHaveItIsStrong) {
  model::Fabric fabric = healthy_fleet();
  model::NcclHostView& view = view_at(fabric, 2);
  for (auto& [hca, enabled] : view.gdr) {
    enabled = false;
  }
  view.gdr_channels = 0;
  const auto found = with_signal(run_probe("nccl", fabric), "nccl-gdr-off");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, (std::vector<std::string>{"host:" + fabric.hosts[2].name}));
  EXPECT_DOUBLE_EQ(found[0].strength, 0.85);
  EXPECT_DOUBLE_EQ(*found[0].value, 8.0);  // its 8 network channels, none with GDRDMA
  EXPECT_NE(found[0].summary.find("7 peer host(s) use it"), std::string::npos) << found[0].summary;
}

TEST(Nccl, GdrOffEverywhereIsWeakerThanOneHostUnlikeItsPeers) {
  model::Fabric fabric = healthy_fleet();
  for (auto& view : fabric.nccl_jobs[0].hosts) {
    view.gdr_channels = 0;  // "via NET/IB/0" without /GDRDMA, as in the reference log
  }
  const auto found = with_signal(run_probe("nccl", fabric), "nccl-gdr-off");
  ASSERT_EQ(found.size(), 8u);
  EXPECT_LT(found[0].strength, 0.8);
}

TEST(Nccl, AnActiveNicNcclLeftIdleIsTooFewHcas) {
  model::Fabric fabric = healthy_fleet();
  model::NcclHostView& view = view_at(fabric, 4);
  view.hcas = {"mlx5_0", "mlx5_1"};
  view.env["NCCL_IB_HCA"] = "=mlx5_0,mlx5_1";
  const auto result = run_probe("nccl", fabric);
  const auto found = with_signal(result, "nccl-too-few-hcas");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(names(found[0], "host:" + fabric.hosts[4].name));
  EXPECT_TRUE(names(found[0], nic_at(fabric, 4, 3).nic_entity()));
  EXPECT_DOUBLE_EQ(*found[0].value, 2.0);
  EXPECT_DOUBLE_EQ(*found[0].fleet_normal, 4.0);
  EXPECT_NE(found[0].summary.find("NCCL_IB_HCA==mlx5_0,mlx5_1"), std::string::npos)
      << found[0].summary;
  EXPECT_TRUE(with_signal(result, "nccl-hca-port-down").empty());
}

TEST(Nccl, AnHcaSkippedBecauseItsPortIsDownIsThePortsFault) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& down = nic_at(fabric, 1, 2);
  down.state = model::RdmaPortState::Down;
  down.operstate = model::LinkState::Down;
  model::NcclHostView& view = view_at(fabric, 1);
  view.hcas = {"mlx5_0", "mlx5_1", "mlx5_3"};
  const auto result = run_probe("nccl", fabric);
  EXPECT_TRUE(with_signal(result, "nccl-too-few-hcas").empty());
  const auto found = with_signal(result, "nccl-hca-port-down");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), down.nic_entity());
}

TEST(Nccl, AGidIndexUnlikeTheFleetsRoceV2IndexIsNamed) {
  model::Fabric fabric = healthy_fleet();
  view_at(fabric, 6).env["NCCL_IB_GID_INDEX"] = "1";
  const auto found = with_signal(run_probe("nccl", fabric), "nccl-gid-index-wrong");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, (std::vector<std::string>{"host:" + fabric.hosts[6].name}));
  EXPECT_DOUBLE_EQ(*found[0].value, 1.0);
  EXPECT_DOUBLE_EQ(*found[0].fleet_normal, 3.0);
}

TEST(Nccl, BusBandwidthFarBelowTheNicsIsCorroborationAndASiteFloorMovesIt) {
  model::Fabric fabric = healthy_fleet();
  fabric.nccl_jobs[0].busbw_peak_gbyte_s = 60.0;  // 480 Gb/s of 1600 Gb/s: 30 %
  const auto found = with_signal(run_probe("nccl", fabric), "nccl-busbw-low");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_DOUBLE_EQ(*found[0].value, 480.0);
  EXPECT_DOUBLE_EQ(*found[0].fleet_normal, 800.0);
  EXPECT_EQ(found[0].entities.size(), 8u);
  // A site that accepts 25 % of line rate (a fleet without GPUDirect by design) sees no finding.
  const auto tuned = run_probe("nccl", fabric, {}, {{"nccl.min_busbw_efficiency", 0.25}});
  EXPECT_TRUE(with_signal(tuned, "nccl-busbw-low").empty());
  EXPECT_EQ(with_signal(tuned, "nccl-on-rdma").size(), 1u);
}

TEST(Nccl, SingleNodeBusBandwidthIsNotJudgedAgainstTheNetwork) {
  model::Fabric fabric = healthy_fleet();
  model::NcclJob& job = fabric.nccl_jobs[0];
  job.test_hosts = {fabric.hosts[0].name};
  job.hosts.resize(1);
  job.busbw_peak_gbyte_s = 1.0;
  const auto result = run_probe("nccl", fabric);
  EXPECT_TRUE(with_signal(result, "nccl-busbw-low").empty());
}

TEST(Nccl, NcclWarningsCorroborateOnTheirHost) {
  model::Fabric fabric = healthy_fleet();
  view_at(fabric, 3).warnings = {"NET/IB : Got async event : port error"};
  const auto found = with_signal(run_probe("nccl", fabric), "nccl-warnings");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_LT(found[0].strength, 0.5);
  EXPECT_NE(found[0].summary.find("port error"), std::string::npos);
}

}  // namespace
}  // namespace netdoctor::testing
