// The text forms of NIC facts and the vendor clues, each read the one way the model keeps.
#include "model/nic_text.h"

#include <gtest/gtest.h>

#include "model/nic_vendor.h"

namespace netdoctor::model {
namespace {

TEST(NicText, PortStatesFromEverySourceReadAlike) {
  EXPECT_EQ(normalise_port_state("4: ACTIVE\n"), "ACTIVE");
  EXPECT_EQ(normalise_port_state("PORT_ACTIVE"), "ACTIVE");
  EXPECT_EQ(normalise_port_state("down"), "DOWN");
  EXPECT_EQ(normalise_phys_state("5: LinkUp"), "LINK_UP");
  EXPECT_EQ(normalise_phys_state("LINK_UP (5)"), "LINK_UP");
  EXPECT_EQ(normalise_phys_state("3: Disabled"), "DISABLED");
}

TEST(NicText, SysfsRateGivesSpeedAndLanes) {
  const auto rate = parse_sysfs_rate("200 Gb/sec (4X HDR)");
  EXPECT_EQ(rate.gbps, 200.0);
  EXPECT_EQ(rate.width, 4);
  const auto bare = parse_sysfs_rate("25 Gb/sec");
  EXPECT_EQ(bare.gbps, 25.0);
  EXPECT_FALSE(bare.width.has_value());
  EXPECT_FALSE(parse_sysfs_rate("").gbps.has_value());
}

TEST(NicText, FirmwareIsItsFirstToken) {
  EXPECT_EQ(first_token("28.39.1002 (MT_0000000838)"), "28.39.1002");
  EXPECT_EQ(first_token("220.0.57.0/pkg 22.00.07.60"), "220.0.57.0");
  EXPECT_EQ(first_token("  "), "");
}

TEST(NicVendor, DriverThenDeviceThenIdsThenDriverName) {
  Nic nic;
  nic.driver = "bnxt_en";
  nic.device = "mlx5_0";
  EXPECT_EQ(nic_vendor(nic, nullptr), "bnxt");
  nic.driver.clear();
  EXPECT_EQ(nic_vendor(nic, nullptr), "mlx5");
  nic.device = "rocep90s0f0";
  parsers::IbvDevice device;
  device.vendor_id = "0x8086";
  EXPECT_EQ(nic_vendor(nic, &device), "intel");
  EXPECT_EQ(nic_vendor(nic, nullptr), "unknown");
  nic.driver = "qede";
  EXPECT_EQ(nic_vendor(nic, nullptr), "qede");
}

}  // namespace
}  // namespace netdoctor::model
