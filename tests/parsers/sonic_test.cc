#include <gtest/gtest.h>

#include "parsers/sonic_interfaces_counters.h"
#include "parsers/sonic_interfaces_status.h"
#include "parsers/sonic_lldp_table.h"
#include "parsers/sonic_pfc_counters.h"
#include "parsers/sonic_queue_counters.h"
#include "parsers/text_table.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(TextTableTest, UnderlineSpansHandleSpacesInCellsAndEmptyCells) {
  auto tables = parse_text_tables(
      "  A  Long Name      C\n"
      "---  ---------  -----\n"
      "  1  two words     x\n"
      "  2                y\n"
      "\n"
      "Total entries displayed:  2\n");
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].headers, (std::vector<std::string>{"A", "Long Name", "C"}));
  ASSERT_EQ(tables[0].rows.size(), 2u);
  EXPECT_EQ(tables[0].cell(0, "Long Name"), "two words");
  EXPECT_EQ(tables[0].cell(1, "Long Name"), "");
  EXPECT_EQ(tables[0].cell(1, "C"), "y");
  EXPECT_EQ(tables[0].cell(1, "Missing"), "");
}

TEST(TextTableTest, CountsWithSeparatorsAndNotAvailable) {
  EXPECT_EQ(table_count("61,115,381"), 61115381u);
  EXPECT_EQ(table_count("0"), 0u);
  EXPECT_FALSE(table_count("N/A").has_value());
  EXPECT_FALSE(table_count("").has_value());
  EXPECT_FALSE(table_count("1.5").has_value());
}

TEST(SonicInterfacesCountersTest, SavedCopyWithoutUnderlineAfterAnotherTable) {
  auto c = parse_sonic_interfaces_counters(read_text(
      reference_file("switch/sonic_show_interfaces_counters_and_pfcwd_config_z9332.txt")));
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->interfaces.size(), 1u);
  const auto& e0 = c->interfaces[0];
  EXPECT_EQ(e0.iface, "Ethernet0");
  EXPECT_EQ(e0.state, "U");
  EXPECT_EQ(e0.rx_ok, 61115381u);
  EXPECT_DOUBLE_EQ(*e0.rx_bytes_per_s, 286580.0);
  EXPECT_DOUBLE_EQ(*e0.rx_util_percent, 0.0);
  EXPECT_EQ(e0.tx_ok, 51847244u);
  EXPECT_EQ(e0.tx_drp, 9268210u);
  EXPECT_DOUBLE_EQ(*e0.tx_bytes_per_s, 233950.0);
}

TEST(SonicInterfacesCountersTest, ScenarioTableAndNotAvailableCells) {
  auto c = parse_sonic_interfaces_counters(
      parser_fixture("scenario_leaf1_show_interfaces_counters.txt"));
  ASSERT_TRUE(c.ok());
  ASSERT_GT(c->interfaces.size(), 16u);
  EXPECT_EQ(c->interfaces[0].rx_ok, 3713582421870u);
  EXPECT_DOUBLE_EQ(*c->interfaces[0].rx_bytes_per_s, 15.75e9);
  EXPECT_DOUBLE_EQ(*c->interfaces[0].rx_util_percent, 62.98);
  EXPECT_EQ(c->interfaces[0].rx_drp, 13u);
  auto na = parse_sonic_interfaces_counters(
      "      IFACE    STATE    RX_OK    RX_BPS    RX_UTIL    RX_ERR\n"
      "-----------  -------  -------  --------  ---------  --------\n"
      "Ethernet100        X      N/A       N/A        N/A       N/A\n");
  ASSERT_TRUE(na.ok());
  EXPECT_FALSE(na->interfaces.at(0).rx_ok.has_value());
  EXPECT_FALSE(na->interfaces.at(0).rx_bytes_per_s.has_value());
  EXPECT_FALSE(na->interfaces.at(0).tx_ok.has_value());  // column absent
}

TEST(SonicInterfacesCountersTest, RateUnits) {
  EXPECT_DOUBLE_EQ(*sonic_rate_bytes_per_s("15.75 GB/s"), 15.75e9);
  EXPECT_DOUBLE_EQ(*sonic_rate_bytes_per_s("286.58 KB/s"), 286580.0);
  EXPECT_DOUBLE_EQ(*sonic_rate_bytes_per_s("3.00 B/s"), 3.0);
  EXPECT_FALSE(sonic_rate_bytes_per_s("N/A").has_value());
}

TEST(SonicInterfacesStatusTest, TypeColumnWithSpacesUsesUnderline) {
  auto s =
      parse_sonic_interfaces_status(parser_fixture("scenario_leaf1_show_interfaces_status.txt"));
  ASSERT_TRUE(s.ok());
  const auto& first = s->interfaces.at(0);
  EXPECT_EQ(first.interface, "Ethernet0");
  EXPECT_EQ(first.lane_list, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(first.speed_mbps, 200000u);
  EXPECT_EQ(first.mtu, 9100u);
  EXPECT_EQ(first.fec, "rs");
  EXPECT_EQ(first.oper, "up");
  EXPECT_EQ(first.type, "QSFP56");
  EXPECT_EQ(first.asym_pfc, "N/A");
  const auto& uplink = s->interfaces.at(16);
  EXPECT_EQ(uplink.interface, "Ethernet256");
  EXPECT_EQ(uplink.speed_mbps, 400000u);
  EXPECT_EQ(uplink.type, "QSFP-DD Double Density 8X Pluggable Transceiver");
  EXPECT_EQ(uplink.alias, "etp65");
}

TEST(SonicInterfacesStatusTest, NotAvailableSpeedAndDownPort) {
  auto s = parse_sonic_interfaces_status(
      "  Interface    Lanes    Speed    MTU    FEC    Alias    Vlan    Oper    Admin    Type    "
      "Asym PFC\n"
      "-----------  -------  -------  -----  -----  -------  ------  ------  -------  ------  "
      "----------\n"
      "  Ethernet8    8,9      N/A     9100    N/A    etp3    routed    down     down     N/A   "
      "      N/A\n");
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->interfaces.at(0).speed_mbps.has_value());
  EXPECT_EQ(s->interfaces.at(0).oper, "down");
  EXPECT_FALSE(parse_sonic_interfaces_status("IFACE RX_OK\n").ok());
}

// Found by fuzz_parser_sonic_interfaces_status: a negative speed was cast to an unsigned count.
TEST(SonicInterfacesStatusTest, NegativeOrHugeSpeedIsNoSpeed) {
  const std::string header =
      "  Interface    Lanes    Speed    MTU    FEC    Alias    Vlan    Oper    Admin    Type    "
      "Asym PFC\n"
      "-----------  -------  -------  -----  -----  -------  ------  ------  -------  ------  "
      "----------\n";
  auto s = parse_sonic_interfaces_status(
      header +
      "  Ethernet0    0,1      -256G    9100    rs    etp1    routed    up     up     N/A   N/A\n"
      "  Ethernet4    4,5      9e300T   9100    rs    etp2    routed    up     up     N/A   N/A\n"
      "  Ethernet8    8,9      400G     9100    rs    etp3    routed    up     up     N/A   N/A\n");
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->interfaces.size(), 3u);
  EXPECT_FALSE(s->interfaces[0].speed_mbps.has_value());
  EXPECT_FALSE(s->interfaces[1].speed_mbps.has_value());
  EXPECT_EQ(s->interfaces[2].speed_mbps, 400000u);
}

TEST(SonicPfcCountersTest, ReferenceRxAndTxTables) {
  auto p = parse_sonic_pfc_counters(
      read_text(reference_file("switch/sonic_show_pfc_counters_fixture.txt")));
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->rx.size(), 3u);
  ASSERT_EQ(p->tx.size(), 3u);
  EXPECT_EQ(p->rx[0].frames[0], 1200u);
  EXPECT_EQ(p->rx[2].frames[3], 803u);
  EXPECT_EQ(p->find_tx("Ethernet4")->frames[0], 1410u);
  EXPECT_EQ(p->find_tx("Ethernet8")->frames[7], 817u);
  EXPECT_EQ(p->find_rx("Ethernet12"), nullptr);
}

TEST(SonicPfcCountersTest, ScenarioAndLastCachedTime) {
  auto p = parse_sonic_pfc_counters(parser_fixture("scenario_leaf1_show_pfc_counters.txt"));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->find_rx("Ethernet56")->frames[3], 10561029u);
  auto cached = parse_sonic_pfc_counters(
      "Last cached time was 2024-01-01 10:00:00.000000\n"
      "  Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
      "---------  ------  ------  ------  ------  ------  ------  ------  ------\n"
      "Ethernet0       0       0       0     N/A       0       0       0       0\n");
  ASSERT_TRUE(cached.ok());
  EXPECT_EQ(cached->last_cached_time, "2024-01-01 10:00:00.000000");
  EXPECT_TRUE(cached->rx.empty());
  EXPECT_FALSE(cached->tx.at(0).frames[3].has_value());
  EXPECT_EQ(parse_sonic_pfc_counters("nothing\n").error().code, ErrorCode::Parse);
}

TEST(SonicQueueCountersTest, ReferenceFragmentWithLossyDropsAndPrompt) {
  auto q = parse_sonic_queue_counters(
      read_text(reference_file("switch/sonic_show_queue_counters_ucdrops_fragment.txt")));
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(q->queues.size(), 14u);
  EXPECT_EQ(q->queues[1].queue, "UC1");
  EXPECT_EQ(q->queues[1].drop_packets, 6841131615u);
  EXPECT_EQ(q->queues[1].drop_bytes, 2893444514176u);
  EXPECT_EQ(q->queues[13].queue_type, "MC");
  EXPECT_EQ(q->queues[13].queue_index, 13u);
}

TEST(SonicQueueCountersTest, ScenarioWithThousandsSeparators) {
  auto q = parse_sonic_queue_counters(parser_fixture("scenario_leaf1_show_queue_counters.txt"));
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->queues.at(3).queue, "UC3");
  EXPECT_EQ(q->queues.at(3).bytes, 14854329704448534u);
  EXPECT_EQ(q->queues.at(3).drop_bytes, 52000u);
  EXPECT_FALSE(parse_sonic_queue_counters("").ok());
}

TEST(SonicLldpTableTest, EmptyCapabilityAndFooter) {
  auto t = parse_sonic_lldp_table(parser_fixture("scenario_leaf1_show_lldp_table.txt"));
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->entries.size(), 24u);
  EXPECT_EQ(t->total_entries, 24u);
  EXPECT_EQ(t->entries[23].local_port, "Ethernet312");
  EXPECT_EQ(t->entries[0].remote_device, "node01");
  EXPECT_EQ(t->entries[0].capability, "");
  EXPECT_EQ(t->entries[0].remote_port_descr, "ens1f0np0");
  EXPECT_EQ(t->entries[16].capability, "BR");
  EXPECT_EQ(t->entries[16].remote_port_id, "Ethernet0");
  auto footer = parse_sonic_lldp_table(
      "Capability codes: (R) Router, (B) Bridge, (O) Other\n"
      "LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr\n"
      "-----------  --------------  --------------  ------------  -----------------\n"
      "Ethernet0    spine1          Ethernet8       BR            to leaf1 port 0\n"
      "--------------------------------------------------\n"
      "Total entries displayed:  1\n");
  ASSERT_TRUE(footer.ok());
  ASSERT_EQ(footer->entries.size(), 1u);
  EXPECT_EQ(footer->entries[0].remote_port_descr, "to leaf1 port 0");
  EXPECT_EQ(footer->total_entries, 1u);
}

}  // namespace
}  // namespace netdoctor::parsers
