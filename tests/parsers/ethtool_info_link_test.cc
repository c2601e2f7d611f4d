#include <gtest/gtest.h>

#include "parsers/ethtool_info.h"
#include "parsers/ethtool_link.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(EthtoolInfoTest, Mlx5FirmwareWithPsidKeepsFullTextAndFirstToken) {
  auto info =
      parse_ethtool_info(read_text(reference_file("ethtool/mlx5_cx4_ethtool_i_ubuntu1804.txt")));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->driver, "mlx5_core");
  EXPECT_EQ(info->version, "5.0-0");
  EXPECT_EQ(info->firmware_version, "14.23.1020 (MT_2420110034)");
  EXPECT_EQ(info->firmware_version_number, "14.23.1020");
  EXPECT_EQ(info->expansion_rom_version, "");
  EXPECT_EQ(info->bus_info, "0000:af:00.0");
}

TEST(EthtoolInfoTest, VirtioEmptyFirmwareAndScenarioCapture) {
  auto virtio = parse_ethtool_info(read_text(reference_file("local/ethtool_-i_eth0_virtio.txt")));
  ASSERT_TRUE(virtio.ok());
  EXPECT_EQ(virtio->driver, "virtio_net");
  EXPECT_EQ(virtio->firmware_version_number, "");
  auto scenario = parse_ethtool_info(parser_fixture("scenario_ethtool_-i_ens1f0np0.txt"));
  ASSERT_TRUE(scenario.ok());
  EXPECT_EQ(scenario->firmware_version_number, "28.39.1002");
  EXPECT_EQ(scenario->version, "24.10-1.1.4");
}

TEST(EthtoolInfoTest, BnxtPackageSuffixAndNoFinalNewline) {
  auto info = parse_ethtool_info(
      "driver: bnxt_en\nversion: 4.18.0-448.el8.x86_64\nfirmware-version: 220.0.57.0/pkg "
      "22.00.07.60\nbus-info: 0000:3b:00.0");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->firmware_version_number, "220.0.57.0/pkg");
  EXPECT_EQ(info->bus_info, "0000:3b:00.0");
}

TEST(EthtoolInfoTest, RejectsTextWithoutDriver) {
  EXPECT_EQ(parse_ethtool_info("NIC statistics:\n rx: 1\n").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_ethtool_info("").ok());
}

TEST(EthtoolLinkTest, I40eSettingsWithContinuationAndSpaceIndentedMessageLevel) {
  auto link =
      parse_ethtool_link(read_text(reference_file("ethtool/i40e_25g_ethtool_settings.txt")));
  ASSERT_TRUE(link.ok());
  EXPECT_EQ(link->interface, "eth0");
  EXPECT_EQ(link->speed_mbps, 10000u);
  EXPECT_EQ(link->duplex, "Full");
  EXPECT_EQ(link->link_detected, true);
  EXPECT_EQ(link->port, "FIBRE");
  EXPECT_EQ(link->auto_negotiation, "off");
  ASSERT_EQ(link->supported_link_modes.size(), 8u);
  EXPECT_EQ(link->supported_link_modes[2], "25000baseCR/Full");
  EXPECT_EQ(link->max_supported_speed_mbps, 25000u);
  EXPECT_EQ(link->max_advertised_speed_mbps, 10000u);
  EXPECT_EQ(link->supported_ports, std::vector<std::string>{"FIBRE"});
  EXPECT_EQ(link->fields.at("Current message level"), "0x00000007 (7) drv probe link");
}

TEST(EthtoolLinkTest, ScenarioCaptureWithTabSeparatedFecModes) {
  auto link = parse_ethtool_link(parser_fixture("scenario_ethtool_ens1f0np0.txt"));
  ASSERT_TRUE(link.ok());
  EXPECT_EQ(link->speed_mbps, 200000u);
  EXPECT_EQ(link->max_supported_speed_mbps, 200000u);
  EXPECT_EQ(link->supported_fec_modes, (std::vector<std::string>{"None", "RS"}));
  EXPECT_EQ(link->advertised_fec_modes, std::vector<std::string>{"RS"});
  EXPECT_EQ(link->port, "Direct Attach Copper");
}

TEST(EthtoolLinkTest, UnknownSpeedAndNoLink) {
  auto link = parse_ethtool_link(
      "Settings for ens2:\n\tSupported link modes:   Not reported\n\tSpeed: Unknown!\n"
      "\tDuplex: Unknown! (255)\n\tLink detected: no\n");
  ASSERT_TRUE(link.ok());
  EXPECT_FALSE(link->speed_mbps.has_value());
  EXPECT_EQ(link->speed_raw, "Unknown!");
  EXPECT_EQ(link->link_detected, false);
  EXPECT_TRUE(link->supported_link_modes.empty());
  EXPECT_FALSE(link->max_supported_speed_mbps.has_value());
}

TEST(EthtoolLinkTest, LinkModeSpeeds) {
  EXPECT_EQ(link_mode_speed_mbps("200000baseCR4/Full"), 200000u);
  EXPECT_EQ(link_mode_speed_mbps("10baseT/Half"), 10u);
  EXPECT_FALSE(link_mode_speed_mbps("Autoneg").has_value());
}

TEST(EthtoolLinkTest, RejectsOtherOutput) {
  EXPECT_EQ(parse_ethtool_link("driver: mlx5_core\n").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_ethtool_link(std::string(64, '\0')).ok());
}

}  // namespace
}  // namespace netdoctor::parsers
