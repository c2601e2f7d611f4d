// model/ib_link_speed: IBTA speed, width, MTU and state encodings as ibdiagnet and
// infiniband-diags print them.
#include "model/ib_link_speed.h"

#include <gtest/gtest.h>

namespace netdoctor::model {
namespace {

TEST(IbLinkSpeed, ActiveMaskPrefersExtendedThenMellanoxThenBaseSpeeds) {
  EXPECT_EQ(ib_active_speed(2052)->name, "NDR");       // 0x804: NDR, QDR also set in byte 1
  EXPECT_EQ(ib_active_speed(0x10004)->name, "FDR10");  // FDR10 reports QDR in byte 1 too
  EXPECT_EQ(ib_active_speed(0x4)->name, "QDR");
  EXPECT_FALSE(ib_active_speed(0).has_value());
  EXPECT_EQ(ib_fastest_speed(3845)->name, "NDR");  // 0xf05: SDR QDR FDR EDR HDR NDR
  EXPECT_EQ(ib_fastest_speed(0x10107)->name, "FDR");
  auto hdr = ib_active_speed(0x404);
  ASSERT_TRUE(hdr.has_value());
  EXPECT_EQ(hdr->lane_gbps, 53.125);
  EXPECT_EQ(hdr->data_gbps * 4, 200.0);
}

TEST(IbLinkSpeed, LaneTextsRatesAndNames) {
  EXPECT_EQ(ib_speed_from_lane_text("25")->name, "EDR");
  EXPECT_EQ(ib_speed_from_lane_text("FDR10")->name, "FDR10");
  EXPECT_EQ(ib_speed_from_lane_text("2.5")->name, "SDR");
  EXPECT_FALSE(ib_speed_from_lane_text("").has_value());
  EXPECT_EQ(ib_speed_from_lane_gbps(53.125)->name, "HDR");
  EXPECT_EQ(ib_speed_from_lane_gbps(10.3125)->name, "FDR10");
  EXPECT_FALSE(ib_speed_from_lane_gbps(11.0).has_value());
  EXPECT_EQ(ib_speed_named("ndr")->data_gbps, 100.0);
  EXPECT_FALSE(ib_speed_named("FAST").has_value());
}

TEST(IbLinkSpeed, WidthsMtusAndStates) {
  EXPECT_EQ(ib_width_lanes(2), 4);
  EXPECT_EQ(ib_width_lanes(16), 2);
  EXPECT_FALSE(ib_width_lanes(3).has_value());
  EXPECT_EQ(ib_widest_lanes(19), 4);  // 1x, 4x, 2x
  EXPECT_EQ(ib_widest_lanes(0xb), 12);
  EXPECT_EQ(ib_width_from_text("4X"), 4);
  EXPECT_FALSE(ib_width_from_text("x").has_value());
  EXPECT_EQ(ib_mtu_bytes(5), 4096);
  EXPECT_EQ(ib_mtu_bytes(1), 256);
  EXPECT_FALSE(ib_mtu_bytes(0).has_value());
  EXPECT_EQ(ib_port_state(4), RdmaPortState::Active);
  EXPECT_EQ(ib_port_state(9), RdmaPortState::Unknown);
  EXPECT_EQ(ib_phys_state(5), PhysState::LinkUp);
  EXPECT_EQ(ib_port_state_word("INI"), RdmaPortState::Init);
  EXPECT_EQ(ib_phys_state_word("LINK ERR RECOVER"), PhysState::LinkErrorRecovery);
  EXPECT_EQ(ib_phys_state_word("POLL"), PhysState::Polling);
}

}  // namespace
}  // namespace netdoctor::model
