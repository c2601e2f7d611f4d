// link-errors' kernel-log corroboration: a netdev the kernel saw go down after it had come up
// (kernel-link-flaps) and driver / firmware / AER errors naming a NIC (driver-errors), each
// localizing the NIC and its link; a clean log, or no log at all, finds nothing; a site can
// demand more drops before the log counts.
#include <gtest/gtest.h>

#include "model/entity_names.h"
#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

void flaps(model::Nic& nic, std::size_t count) {
  nic.kernel.link_downs = count + 1;  // and the bring-up carrier-off
  nic.kernel.link_ups = count + 1;
  nic.kernel.flaps = count;
  for (std::size_t i = 0; i < count; ++i) {
    nic.kernel.flap_times_s.push_back(8100.0 + 1000.0 * static_cast<double>(i));
  }
}

TEST(LinkKernel, KernelFlapsNameTheNicAndItsLinkWithTheirCountAndTime) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 2, 1);
  flaps(nic, 3);
  const auto result = run_probe("link-errors", fabric);
  const auto found = with_signal(result, "kernel-link-flaps");
  ASSERT_EQ(found.size(), 1u) << result.reason;
  EXPECT_EQ(found[0].entities[0], nic.nic_entity());
  EXPECT_TRUE(names(found[0], nic.netdev_entity()));
  EXPECT_TRUE(names(found[0], model::link_entity(nic.netdev_entity(), nic.port_entity())));
  EXPECT_NE(found[0].summary.find("went down 3 times"), std::string::npos) << found[0].summary;
  EXPECT_NE(found[0].summary.find("last at 10100 s after boot"), std::string::npos)
      << found[0].summary;
  EXPECT_DOUBLE_EQ(*found[0].value, 3.0);
  // History since boot: it corroborates but weighs under the window's counters.
  EXPECT_GT(found[0].strength, 0.5);
  EXPECT_LT(found[0].strength, 1.0);
  EXPECT_TRUE(with_signal(result, "link-flap").empty());
}

TEST(LinkKernel, BringUpOnlyAndDriverErrorFreeLogsFindNothing) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 2, 1);
  nic.kernel.link_downs = 1;  // the carrier-off at bring-up, then up
  nic.kernel.link_ups = 1;
  const auto result = run_probe("link-errors", fabric);
  EXPECT_TRUE(with_signal(result, "kernel-link-flaps").empty());
  EXPECT_TRUE(with_signal(result, "driver-errors").empty());
  EXPECT_EQ(with_signal(result, "link-clean").size(), 1u);
}

TEST(LinkKernel, WithoutAKernelLogItsEventsAreNotJudged) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 2, 1);
  flaps(nic, 3);
  nic.sources.erase("dmesg");
  EXPECT_TRUE(with_signal(run_probe("link-errors", fabric), "kernel-link-flaps").empty());
}

TEST(LinkKernel, DriverErrorsAreWeakCorroborationQuotingTheFirstLine) {
  model::Fabric fabric = healthy_fleet();
  model::Nic& nic = nic_at(fabric, 1, 0);
  nic.kernel.driver_errors = 2;
  nic.kernel.aer_corrected = 1;
  nic.kernel.first_error = "mlx5_core 0000:1a:00.0: wait_func:1189: ACCESS_REG(0x805) timeout.";
  const auto found = with_signal(run_probe("link-errors", fabric), "driver-errors");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities[0], nic.nic_entity());
  EXPECT_NE(found[0].summary.find("ACCESS_REG(0x805) timeout"), std::string::npos)
      << found[0].summary;
  EXPECT_NE(found[0].summary.find("1 PCIe AER"), std::string::npos) << found[0].summary;
  EXPECT_DOUBLE_EQ(found[0].strength, 0.3);
}

TEST(LinkKernel, ASiteThatDemandsMoreDropsIgnoresASingleOne) {
  model::Fabric fabric = healthy_fleet();
  flaps(nic_at(fabric, 0, 2), 1);
  EXPECT_EQ(with_signal(run_probe("link-errors", fabric), "kernel-link-flaps").size(), 1u);
  const auto tuned = run_probe("link-errors", fabric, {}, {{"link-errors.kernel_min_flaps", 2.0}});
  EXPECT_TRUE(with_signal(tuned, "kernel-link-flaps").empty());
}

}  // namespace
}  // namespace netdoctor::testing
