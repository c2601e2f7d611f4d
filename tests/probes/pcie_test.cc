// pcie: a NIC trained below its PCIe capability with a ceiling under its port's line rate is
// named with the ceiling; a fleet at x8 by design that still carries its ports is not; the
// kernel's warning alone is weaker; no PCIe data skips; a site can demand more headroom.
#include <gtest/gtest.h>

#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

void set_all(model::Fabric& fabric, const model::PcieLink& link) {
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.pcie = link;
    }
  }
}

TEST(Pcie, NicTrainedAtX8UnderA400GPortIsNamedWithItsCeiling) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 3, 2);
  nic.pcie = pcie_link(32.0, 8, 32.0, 16);  // ~252 Gb/s for a 400G port
  const auto result = run_probe("pcie", fabric);
  const auto found = with_signal(result, "pcie-link-degraded");
  ASSERT_EQ(found.size(), 1u) << result.reason;
  EXPECT_EQ(found[0].entities[0], nic.nic_entity());
  EXPECT_TRUE(names(found[0], nic.netdev_entity()));
  EXPECT_NE(found[0].summary.find("32.0 GT/s x8"), std::string::npos) << found[0].summary;
  EXPECT_NE(found[0].summary.find("capable of 32.0 GT/s x16"), std::string::npos)
      << found[0].summary;
  EXPECT_NEAR(*found[0].value, 252.06, 0.1);
  EXPECT_DOUBLE_EQ(*found[0].fleet_normal, 400.0);
  EXPECT_GT(found[0].strength, 0.5);
  EXPECT_TRUE(with_signal(result, "pcie-link-ok").empty());
}

TEST(Pcie, OneGenerationDownBelowItsPeersIsAFindingToo) {
  model::Fabric fabric = healthy_fleet();
  // lspci without LnkCap: no capability known, only the peers tell.
  model::PcieLink link = pcie_link(16.0, 16, 16.0, 16);
  nic_at(fabric, 0, 1).pcie = link;
  const auto found = with_signal(run_probe("pcie", fabric), "pcie-link-degraded");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].summary.find("peers of model mlx5/4129 reach 504"), std::string::npos)
      << found[0].summary;
}

TEST(Pcie, FleetAtX8ByDesignThatCarriesItsPortsIsHealthy) {
  model::Fabric fabric = healthy_fleet();
  model::PcieLink x8 = pcie_link(32.0, 8, 32.0, 16);  // ~252 Gb/s, a 200G port
  x8.kernel_limited = true;                           // the kernel says so at every boot
  set_all(fabric, x8);
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.rated_gbps = nic.speed_gbps = 200.0;
    }
  }
  const auto result = run_probe("pcie", fabric);
  EXPECT_TRUE(with_signal(result, "pcie-link-degraded").empty()) << result.findings[0].summary;
  EXPECT_TRUE(with_signal(result, "pcie-bandwidth-warning").empty());
  ASSERT_EQ(with_signal(result, "pcie-link-ok").size(), 1u);
}

TEST(Pcie, KernelWarningAloneIsAWeakerSign) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 5, 0);
  nic.pcie = {};
  nic.pcie.source = "dmesg";  // only the kernel's line was captured, the port still carried
  nic.pcie.gt_s = nic.pcie.max_gt_s = 32.0;
  nic.pcie.width = nic.pcie.max_width = 16;
  nic.pcie.ceiling_gbps = 504.112;
  nic.pcie.kernel_limited = true;
  nic.pcie.limited_at = "0000:00:01.0";
  const auto result = run_probe("pcie", fabric);
  EXPECT_TRUE(with_signal(result, "pcie-link-degraded").empty());
  const auto warned = with_signal(result, "pcie-bandwidth-warning");
  ASSERT_EQ(warned.size(), 1u);
  EXPECT_LT(warned[0].strength, 0.5);
  EXPECT_NE(warned[0].summary.find("0000:00:01.0"), std::string::npos) << warned[0].summary;
}

TEST(Pcie, UpstreamBridgeCapsANicWhoseOwnLinkIsFine) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 6, 3);
  nic.pcie.kernel_limited = true;
  nic.pcie.limited_at = "0000:00:03.1";
  nic.pcie.ceiling_gbps = 252.048;  // the kernel's "available" figure
  const auto found = with_signal(run_probe("pcie", fabric), "pcie-link-degraded");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].summary.find("the bottleneck, the link at 0000:00:03.1"), std::string::npos)
      << found[0].summary;
}

TEST(Pcie, WithoutPcieDataTheProbeIsSkipped) {
  model::Fabric fabric = healthy_fleet();
  set_all(fabric, {});
  const auto result = run_probe("pcie", fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_TRUE(result.findings.empty());
}

TEST(Pcie, ASiteCanDemandHeadroomAboveLineRate) {
  model::Fabric fabric = healthy_fleet();
  model::PcieLink x8 = pcie_link(32.0, 8, 32.0, 16);
  set_all(fabric, x8);
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      nic.rated_gbps = nic.speed_gbps = 200.0;
    }
  }
  EXPECT_TRUE(with_signal(run_probe("pcie", fabric), "pcie-link-degraded").empty());
  const auto strict = run_probe("pcie", fabric, {}, {{"pcie.min_ceiling_ratio", 1.5}});
  EXPECT_EQ(with_signal(strict, "pcie-link-degraded").size(), 32u);
}

}  // namespace
}  // namespace netdoctor::testing
