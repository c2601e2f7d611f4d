// The text forms of NIC facts and the vendor clues, each read the one way the model keeps.
#include "model/nic_text.h"

#include <gtest/gtest.h>

#include "model/nic_vendor.h"
#include "model/port_state.h"

namespace netdoctor::model {
namespace {

TEST(PortState, StatesFromEverySourceReadAlike) {
  EXPECT_EQ(rdma_port_state_named("4: ACTIVE\n"), RdmaPortState::Active);
  EXPECT_EQ(rdma_port_state_named("PORT_ACTIVE"), RdmaPortState::Active);
  EXPECT_EQ(rdma_port_state_named("down"), RdmaPortState::Down);
  EXPECT_EQ(rdma_port_state_named("ACTIVE_DEFER"), RdmaPortState::ActiveDefer);
  EXPECT_EQ(rdma_port_state_named("5: ACTIVE_DEFER"), RdmaPortState::ActiveDefer);
  EXPECT_EQ(rdma_port_state_named("LINKED"), RdmaPortState::Unknown);
  EXPECT_EQ(phys_state_named("5: LinkUp"), PhysState::LinkUp);
  EXPECT_EQ(phys_state_named("LINK_UP (5)"), PhysState::LinkUp);
  EXPECT_EQ(phys_state_named("3: Disabled"), PhysState::Disabled);
  EXPECT_EQ(phys_state_named("4: PortConfigurationTraining"), PhysState::PortConfigurationTraining);
  EXPECT_EQ(link_state_named("UP"), LinkState::Up);
  EXPECT_EQ(link_state_named("up\n"), LinkState::Up);
  EXPECT_EQ(link_state_named("LOWERLAYERDOWN"), LinkState::LowerLayerDown);
  EXPECT_EQ(link_state_named("UNKNOWN"), LinkState::Unknown);
}

TEST(PortState, WordsAreTheToolsOwnAndDownMeansNothingPasses) {
  EXPECT_STREQ(to_string(RdmaPortState::Active), "ACTIVE");
  EXPECT_STREQ(to_string(PhysState::LinkUp), "LINK_UP");
  EXPECT_STREQ(to_string(LinkState::Down), "down");
  EXPECT_STREQ(to_string(LinkState::Unknown), "");
  EXPECT_TRUE(is_down(LinkState::Down));
  EXPECT_TRUE(is_down(LinkState::LowerLayerDown));
  EXPECT_TRUE(is_down(LinkState::NotPresent));
  EXPECT_FALSE(is_down(LinkState::Dormant));
  EXPECT_FALSE(is_down(LinkState::Unknown));
  EXPECT_FALSE(is_down(LinkState::Up));
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
