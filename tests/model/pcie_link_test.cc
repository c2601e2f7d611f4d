// A NIC's PCIe link: sysfs first, else the lspci -vvv device at its ethtool -i bus address; the
// kernel's "limited by" line marks it and, for an upstream bottleneck, lowers its ceiling;
// malformed sysfs text is a problem naming the file.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model/loader.h"
#include "model/source_names.h"
#include "tests/model/load_mem_bundle.h"
#include "tests/model/mem_bundle.h"
#include "tests/parsers/parser_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

using testing::parser_fixture;

// One mlx5 NIC at `bus` on node01.
MemBundle one_nic(const std::string& bus) {
  MemBundle b;
  b.time("node01", "0", 10.0);
  b.file("node01", "0", "/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
  b.file("node01", "0", "/sys/class/infiniband/mlx5_0/device/net/ens1f0np0/ifindex", "3\n");
  b.command("node01", "0", {"ethtool", "-i", "ens1f0np0"},
            "driver: mlx5_core\nversion: 24.10-1.1.4\nfirmware-version: 28.41.1000 "
            "(MT_0000000838)\nexpansion-rom-version: \nbus-info: " +
                bus +
                "\nsupports-statistics: yes\nsupports-test: yes\nsupports-eeprom-access: no\n"
                "supports-register-dump: no\nsupports-priv-flags: yes\n");
  return b;
}

void sysfs_link(MemBundle& b, const std::string& width, const std::string& max_width,
                const std::string& speed, const std::string& max_speed) {
  const std::string dir = "/sys/class/net/ens1f0np0/device/";
  b.file("node01", "0", dir + "current_link_width", width + "\n");
  b.file("node01", "0", dir + "max_link_width", max_width + "\n");
  b.file("node01", "0", dir + "current_link_speed", speed + "\n");
  b.file("node01", "0", dir + "max_link_speed", max_speed + "\n");
}

using testing::load_mem_bundle;

TEST(PcieLinks, LspciAtTheBusAddressWhereSysfsWasNotCaptured) {
  MemBundle b = one_nic("0000:5e:00.0");
  b.command("node01", "0", {"lspci", "-vvv"},
            parser_fixture("lspci_vvvs_cx5ex_gen4_at_8gts_fdio_csit.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.pcie.source, source::k_lspci);
  EXPECT_EQ(nic.pcie.width, 16u);
  EXPECT_EQ(nic.pcie.max_width, 16u);
  EXPECT_EQ(nic.pcie.gt_s, 8.0);
  EXPECT_EQ(nic.pcie.max_gt_s, 16.0);
  EXPECT_EQ(nic.pcie.generation, 3u);
  EXPECT_TRUE(nic.pcie.speed_downgraded);
  EXPECT_FALSE(nic.pcie.width_downgraded);
  ASSERT_TRUE(nic.pcie.ceiling_gbps);
  EXPECT_NEAR(*nic.pcie.ceiling_gbps, 126.03, 0.01);
  EXPECT_NEAR(*nic.pcie.capable_gbps, 252.06, 0.01);
}

TEST(PcieLinks, SysfsFirstAndTheKernelNamesAnUpstreamBottleneck) {
  MemBundle b = one_nic("0000:01:00.0");
  sysfs_link(b, "16", "16", "16.0 GT/s PCIe", "16.0 GT/s PCIe");
  b.command("node01", "0", {"dmesg"},
            parser_fixture("dmesg_mlx5_cx6_ocp3_pcie_limited_x16_slot.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.pcie.source, source::k_sysfs_pcie);
  EXPECT_EQ(nic.pcie.generation, 4u);
  EXPECT_FALSE(nic.pcie.width_downgraded || nic.pcie.speed_downgraded);
  EXPECT_TRUE(nic.pcie.kernel_limited);
  EXPECT_EQ(nic.pcie.limited_at, "0000:00:01.0");
  ASSERT_TRUE(nic.pcie.ceiling_gbps);
  EXPECT_NEAR(*nic.pcie.ceiling_gbps, 126.016, 0.001);  // the bridge's, not its own 252
  EXPECT_EQ(nic.sources.at(source::k_dmesg).availability, Availability::Observed);
}

TEST(PcieLinks, SysfsTrainedNarrowIsDowngraded) {
  MemBundle b = one_nic("0000:1a:00.0");
  sysfs_link(b, "8", "16", "32.0 GT/s PCIe", "32.0 GT/s PCIe");
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_TRUE(nic.pcie.width_downgraded);
  EXPECT_NEAR(*nic.pcie.ceiling_gbps, 252.06, 0.01);
  EXPECT_NEAR(*nic.pcie.capable_gbps, 504.12, 0.01);
}

TEST(PcieLinks, MalformedSysfsSpeedIsAProblemNamingTheFile) {
  MemBundle b = one_nic("0000:1a:00.0");
  sysfs_link(b, "16", "16", "fast", "16 GT/s");
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_TRUE(nic.pcie.source.empty());
  EXPECT_EQ(nic.sources.at(source::k_sysfs_pcie).availability, Availability::Malformed);
  bool named = false;
  for (const auto& problem : fabric.problems) {
    named |= problem.source == source::k_sysfs_pcie &&
             problem.error.describe().find("current_link_speed") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace netdoctor::model
