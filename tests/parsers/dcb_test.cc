// iproute2 dcb: text and JSON forms. The samples under tests/parsers/data/dcb_* follow the
// printing code of iproute2's dcb/dcb_{pfc,ets,app,apptrust,buffer,dcbx}.c and its man pages
// (dcb-pfc(8) ... dcb-buffer(8): "pfc-cap 8 macsec-bypass off delay 4096", "buffer-size
// 0:10Kb ... total-size 1222Kb"); dcb_talos_roce_dcb_log.txt is a public RoCE DCB extension's
// log as its README shows it (single-line PFC state, DSCP names).
#include "parsers/dcb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;

TEST(DcbTest, PfcWithStatisticsGivesEnabledPrioritiesAndPauseCounts) {
  auto dcb = parse_dcb(parser_fixture("dcb_-s_pfc_show.txt"));
  ASSERT_TRUE(dcb.ok()) << dcb.error().describe();
  EXPECT_EQ(dcb->parts, std::vector<std::string>{"pfc"});
  EXPECT_EQ(dcb->pfc_cap, 8u);
  EXPECT_EQ(dcb->macsec_bypass, false);
  EXPECT_EQ(dcb->delay_bit_times, 4096u);
  for (std::size_t p = 0; p < 8; ++p) {
    ASSERT_TRUE(dcb->prio_pfc[p].has_value()) << p;
    EXPECT_EQ(*dcb->prio_pfc[p], p == 3) << p;
  }
  EXPECT_EQ(dcb->pfc_requests[3], 1234u);
  EXPECT_EQ(dcb->pfc_indications[3], 5678u);
  EXPECT_EQ(dcb->pfc_indications[0], 0u);
  EXPECT_TRUE(dcb->other.empty());
}

TEST(DcbTest, EtsAppTrustBufferAndDcbxInOneCapture) {
  auto dcb = parse_dcb(parser_fixture("dcb_ets_app_apptrust_buffer_dcbx.txt"));
  ASSERT_TRUE(dcb.ok()) << dcb.error().describe();
  EXPECT_EQ(dcb->parts, (std::vector<std::string>{"ets", "app", "apptrust", "buffer", "dcbx"}));
  EXPECT_EQ(dcb->willing, false);
  EXPECT_EQ(dcb->ets_cap, 8u);
  EXPECT_EQ(dcb->prio_tc[3], 3u);
  EXPECT_EQ(dcb->prio_tc[0], 0u);
  EXPECT_EQ(dcb->tc_tsa[0], "ets");
  EXPECT_EQ(dcb->tc_tsa[1], "strict");
  EXPECT_EQ(dcb->tc_bw[3], 50u);
  // DSCP names resolve to their values: AF31 is 26, CS6 is 48.
  EXPECT_EQ(dcb->priority_of_dscp(26), 3u);
  EXPECT_EQ(dcb->priority_of_dscp(48), 6u);
  EXPECT_EQ(dcb->priority_of_dscp(0), std::nullopt);
  ASSERT_EQ(dcb->apps.size(), 3u);
  EXPECT_EQ(dcb->apps[2].selector, "dgram-port");
  EXPECT_EQ(dcb->apps[2].value, 4791u);
  EXPECT_EQ(dcb->apps[2].priority, 3u);
  EXPECT_EQ(dcb->apptrust_order, (std::vector<std::string>{"dscp", "pcp"}));
  EXPECT_EQ(dcb->prio_buffer[3], 1u);
  EXPECT_EQ(dcb->buffer_size_bytes[0], 10240u);
  EXPECT_EQ(dcb->buffer_size_bytes[1], 262144u);
  EXPECT_EQ(dcb->buffer_size_bytes[2], 0u);
  EXPECT_EQ(dcb->total_size_bytes, 1222u * 1024u);
  EXPECT_EQ(dcb->dcbx, (std::vector<std::string>{"host", "ieee"}));
  // The arrays it keeps as printed, not lost.
  EXPECT_EQ(dcb->other.count("pg-bw"), 1u);
  EXPECT_EQ(dcb->other.count("reco-tc-tsa"), 1u);
  EXPECT_TRUE(dcb->unparsed_lines.empty());  // the prompt lines are not data
}

TEST(DcbTest, SingleLinePfcStateInsideALogKeepsTheOtherLines) {
  auto dcb = parse_dcb(parser_fixture("dcb_talos_roce_dcb_log.txt"));
  ASSERT_TRUE(dcb.ok()) << dcb.error().describe();
  EXPECT_EQ(dcb->prio_pfc[3], true);
  EXPECT_EQ(dcb->prio_pfc[4], false);
  EXPECT_EQ(dcb->delay_bit_times, 0u);
  EXPECT_EQ(dcb->prio_tc[7], 7u);
  EXPECT_EQ(dcb->priority_of_dscp(26), 3u);
  EXPECT_EQ(dcb->unparsed_lines.size(), 4u);
  EXPECT_EQ(dcb->unparsed_lines[0], "Configuring RoCE DCB settings on enp1s0f0np0");
}

TEST(DcbTest, JsonFormOneObjectPerCommand) {
  auto dcb = parse_dcb(parser_fixture("dcb_-j_pfc_app_apptrust_buffer.json"));
  ASSERT_TRUE(dcb.ok()) << dcb.error().describe();
  EXPECT_EQ(dcb->parts, (std::vector<std::string>{"pfc", "app", "apptrust", "buffer"}));
  EXPECT_EQ(dcb->prio_pfc[3], true);
  EXPECT_EQ(dcb->prio_pfc[2], false);
  EXPECT_EQ(dcb->macsec_bypass, false);
  EXPECT_EQ(dcb->pfc_requests[3], 17u);
  EXPECT_EQ(dcb->pfc_indications[3], 42u);
  EXPECT_EQ(dcb->priority_of_dscp(26), 3u);
  EXPECT_EQ(dcb->apptrust_order, (std::vector<std::string>{"pcp", "dscp"}));
  EXPECT_EQ(dcb->buffer_size_bytes[1], 262144u);
  EXPECT_EQ(dcb->total_size_bytes, 1251328u);
  ASSERT_EQ(dcb->apps.size(), 3u);
  const auto is_default = [](const DcbAppRule& rule) { return rule.selector == "default"; };
  const auto rule = std::find_if(dcb->apps.begin(), dcb->apps.end(), is_default);
  ASSERT_NE(rule, dcb->apps.end());
  EXPECT_EQ(rule->priority, 0u);
  const auto json = to_json(*dcb);
  EXPECT_EQ(json["prio_pfc"][3], true);
  EXPECT_EQ(json["prio_pfc"][2], false);
}

TEST(DcbTest, UnknownKeysAndBadValuesAreKeptNotDropped) {
  auto dcb = parse_dcb("prio-pfc 0:off 3:maybe 9:on\ntc-juju 0:good 7:bad\n");
  ASSERT_TRUE(dcb.ok());
  EXPECT_EQ(dcb->prio_pfc[0], false);
  EXPECT_FALSE(dcb->prio_pfc[3].has_value());  // "maybe" is neither on nor off
  EXPECT_EQ(dcb->other.at("prio-pfc"), "0:off 3:maybe 9:on");
  EXPECT_TRUE(dcb->unparsed_lines.size() == 1u);  // tc-juju is no dcb key
}

TEST(DcbTest, RefusesOtherOutputs) {
  EXPECT_FALSE(parse_dcb("NIC statistics:\n     rx_packets: 5\n").ok());
  EXPECT_FALSE(parse_dcb("Priority trust state: dscp\nPFC configuration:\n").ok());
  EXPECT_FALSE(parse_dcb("Error: Attribute read: Operation not supported\n").ok());
  EXPECT_FALSE(parse_dcb("{\"lldp\": {\"interface\": []}}").ok());
  EXPECT_FALSE(parse_dcb("{\"prio_pfc\": [tru").ok());
  EXPECT_FALSE(parse_dcb("").ok());
}

TEST(DcbTest, DscpNames) {
  EXPECT_EQ(dscp_value("AF31"), 26u);
  EXPECT_EQ(dscp_value("EF"), 46u);
  EXPECT_EQ(dscp_value("CS3"), 24u);
  EXPECT_EQ(dscp_value("63"), 63u);
  EXPECT_EQ(dscp_value("64"), std::nullopt);
  EXPECT_EQ(dscp_value("AF99"), std::nullopt);
}

}  // namespace
}  // namespace netdoctor::parsers
