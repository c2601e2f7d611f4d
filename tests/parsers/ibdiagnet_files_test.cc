// ibdiagnet-pm, ibdiagnet-net-dump, ibdiagnet-log, ibdiagnet-sm: the hand-written
// tests/fixtures/ibdiag files (formats in its README) and the reference
// ibdiag/ibdiagnet2_log_skip_pm_links_quantum2.txt.
#include <gtest/gtest.h>

#include "parsers/ibdiagnet_log.h"
#include "parsers/ibdiagnet_net_dump.h"
#include "parsers/ibdiagnet_pm.h"
#include "parsers/ibdiagnet_sm.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ibdiag_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(IbdiagnetPmTest, BlocksWithHexCountersAndNotAvailable) {
  auto r = parse_ibdiagnet_pm(ibdiag_fixture("ibdiagnet2.pm"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  ASSERT_EQ(r->ports.size(), 3u);
  const IbdiagPmPort& leaf = r->ports[0];
  EXPECT_EQ(leaf.port, 4u);
  EXPECT_EQ(leaf.lid, 1u);
  EXPECT_EQ(leaf.guid, 0xb8cef603001bf9deu);
  EXPECT_EQ(leaf.device_id, 54000u);
  EXPECT_EQ(leaf.port_name, "MF0;leaf-01:MQM8700/U1/P4");
  EXPECT_EQ(leaf.counters.at("port_xmit_data_extended"), 6000000000u);
  EXPECT_EQ(leaf.counters.at("port_xmit_data"), 0xffffffffu);
  EXPECT_EQ(leaf.counters.at("port_xmit_discard"), 5u);
  EXPECT_EQ(leaf.not_available,
            (std::vector<std::string>{"retransmission_per_sec", "max_retransmission_rate"}));
  const IbdiagPmPort& spine = r->ports[1];
  EXPECT_EQ(spine.counters.at("symbol_error_counter"), 0xffffu);
  EXPECT_EQ(spine.counters.count("port_xmit_data_extended"), 0u);
  EXPECT_EQ(r->ports[2].port_name, "node01 mlx5_0/U1/P1");
}

TEST(IbdiagnetPmTest, ForeignTextIsRefused) {
  EXPECT_FALSE(parse_ibdiagnet_pm("PortXmitData:.....................1234\n").ok());
  EXPECT_FALSE(parse_ibdiagnet_pm("Port=abc Lid=1\n").ok());
}

TEST(IbdiagnetNetDumpTest, SwitchBlocksPortsAndNeighbours) {
  auto r = parse_ibdiagnet_net_dump(ibdiag_fixture("ibdiagnet2.net_dump"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  ASSERT_EQ(r->nodes.size(), 2u);
  const NetDumpNode& leaf = r->nodes[0];
  EXPECT_EQ(leaf.description, "MF0;leaf-01:MQM8700/U1");
  EXPECT_EQ(leaf.vendor, "Mellanox");
  EXPECT_EQ(leaf.guid, 0xb8cef603001bf9deu);
  EXPECT_EQ(leaf.lid, 1u);
  ASSERT_EQ(leaf.ports.size(), 4u);
  const NetDumpPort& p2 = leaf.ports[1];
  EXPECT_EQ(p2.port, 2u);
  EXPECT_EQ(p2.state, "ACT");
  EXPECT_EQ(p2.phys_state, "LINK UP");
  EXPECT_EQ(p2.mtu, 5u);
  EXPECT_EQ(p2.width, "4x");
  EXPECT_EQ(p2.speed, "25");
  EXPECT_EQ(p2.fec, "STD-RS");
  EXPECT_EQ(p2.retransmission, "NO-RTR");
  EXPECT_EQ(p2.peer_guid, 0x0c42a10300a1b2d0u);
  EXPECT_EQ(p2.peer_port, "1");
  EXPECT_EQ(p2.peer_lid, 8u);
  EXPECT_EQ(p2.peer_description, "node02 mlx5_0");
  const NetDumpPort& down = leaf.ports[2];
  EXPECT_EQ(down.state, "DOWN");
  EXPECT_EQ(down.phys_state, "POLL");
  EXPECT_FALSE(down.peer_guid.has_value());
  EXPECT_TRUE(down.width.empty());
  // A neighbour description holding ':' stays whole.
  EXPECT_EQ(leaf.ports[3].peer_description, "MF0;spine-01:MQM8700/U1");
  // The older header without FEC mode / Retran: columns by name.
  const NetDumpNode& spine = r->nodes[1];
  ASSERT_EQ(spine.ports.size(), 2u);
  EXPECT_EQ(spine.ports[0].peer_port, "4");
  EXPECT_EQ(spine.ports[0].peer_guid, 0xb8cef603001bf9deu);
  EXPECT_TRUE(spine.ports[0].fec.empty());
  EXPECT_EQ(spine.ports[1].phys_state, "DISABLE");
}

TEST(IbdiagnetNetDumpTest, UnknownColumnsAreKept) {
  auto r = parse_ibdiagnet_net_dump(
      "\"sw\", Mellanox, 0x10, LID 3\n"
      " # : IB# : Sta : Cable : LWA : LSA : Neighbor Guid : N# : NLID : Neighbor Description\n"
      " 7 : 7 : ACT : AOC : 4x : 100 : 0x20 : 1 : 9 : \"h1 mlx5_1\"\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->nodes[0].ports.size(), 1u);
  const NetDumpPort& p = r->nodes[0].ports[0];
  EXPECT_EQ(p.extra.at("Cable"), "AOC");
  EXPECT_EQ(p.speed, "100");
  EXPECT_EQ(p.peer_lid, 9u);
  EXPECT_FALSE(p.mtu.has_value());
}

TEST(IbdiagnetNetDumpTest, ForeignTextIsRefused) {
  EXPECT_FALSE(parse_ibdiagnet_net_dump("a : b : c : d\n").ok());
  EXPECT_FALSE(parse_ibdiagnet_net_dump("\"quoted\" but nothing else\n").ok());
}

TEST(IbdiagnetLogTest, ReferenceStagesWarningsSummaryAndMasterSm) {
  auto r = parse_ibdiagnet_log(
      read_text(reference_file("ibdiag/ibdiagnet2_log_skip_pm_links_quantum2.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->timestamp, "2025-03-15 22:32:20 UTC +0000");
  EXPECT_NE(r->command.find("--skip dup_guids"), std::string::npos);
  EXPECT_TRUE(r->errors.empty());
  ASSERT_EQ(r->warnings.size(), 11u);
  for (const auto& w : r->warnings) {
    EXPECT_EQ(w.stage, "Discovery") << w.text;
  }
  EXPECT_EQ(r->warnings[0].text, "Duplicated Node Description detection skipped");
  ASSERT_EQ(r->summary.size(), 7u);
  EXPECT_EQ(r->summary[0].stage, "Discovery");
  EXPECT_EQ(r->summary[0].warnings, 11u);
  EXPECT_EQ(r->summary[6].stage, "Post Reports Generation");
  ASSERT_EQ(r->managers.size(), 1u);
  EXPECT_EQ(r->managers[0].role, "master");
  EXPECT_EQ(r->managers[0].lid, 180u);
  EXPECT_EQ(r->managers[0].guid, 0xb0cf0e0300d33fc0u);
  EXPECT_EQ(r->managers[0].priority, 12u);
  EXPECT_EQ(r->managers[0].node_description, "MF0;ib-switch-sequoia:MQM9700/U1");
  EXPECT_TRUE(r->no_standby);
  EXPECT_EQ(r->fabric_summary.at("Total Nodes"), 272u);
  EXPECT_EQ(r->fabric_summary.at("IB Switches"), 9u);
}

TEST(IbdiagnetLogTest, ErrorsCarryTheirStage) {
  auto r = parse_ibdiagnet_log(ibdiag_fixture("ibdiagnet2.log"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->errors.size(), 3u);
  EXPECT_EQ(r->errors[1].stage, "Port Counters");
  EXPECT_EQ(r->errors[1].text, "lid=0x0001 dev=54000 MF0;leaf-01:MQM8700/U1/P2");
  EXPECT_EQ(r->errors[1].details,
            (std::vector<std::string>{"Performance Monitor counter     : Value",
                                      "symbol_error_counter            : 12 (threshold=1)"}));
  EXPECT_TRUE(r->errors[0].details.empty());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[1].stage, "Speed / Width checks");
  ASSERT_EQ(r->managers.size(), 2u);
  EXPECT_EQ(r->managers[1].role, "standby");
  EXPECT_EQ(r->managers[1].node_type, "CA");
  EXPECT_FALSE(r->no_standby);
  bool found = false;
  for (const auto& s : r->summary) {
    if (s.stage == "Port Counters") {
      found = true;
      EXPECT_EQ(s.errors, 2u);
    }
  }
  EXPECT_TRUE(found);
}

TEST(IbdiagnetLogTest, ForeignTextIsRefused) {
  EXPECT_FALSE(parse_ibdiagnet_log("just a line\nand another\n").ok());
}

// The real SM report of a Quantum-2 fabric: a master only, its LID in hex, "dev=" and
// "priority:" spelled as ibdiagnet spells them.
TEST(IbdiagnetSmTest, RealReportWithAMasterOnly) {
  auto r = parse_ibdiagnet_sm(read_text(reference_file("ibdiag/ibdiagnet2_sm_master_only.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->managers.size(), 1u);
  const IbdiagLogSm& master = r->managers[0];
  EXPECT_EQ(master.role, "master");
  EXPECT_EQ(master.port, 0u);
  EXPECT_EQ(master.lid, 0xb4u);
  EXPECT_EQ(master.guid, 0xb0cf0e0300d33fc0u);
  EXPECT_EQ(master.device_id, 54002u);
  EXPECT_EQ(master.priority, 12u);
}

TEST(IbdiagnetSmTest, MasterAndStandbyInFileOrder) {
  auto r = parse_ibdiagnet_sm(ibdiag_fixture("ibdiagnet2.sm"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->managers.size(), 2u);
  EXPECT_EQ(r->managers[0].role, "master");
  EXPECT_EQ(r->managers[1].role, "standby");
  EXPECT_EQ(r->managers[1].guid, 0x0c42a10300a1b2d0u);
  EXPECT_EQ(r->managers[1].lid, 8u);
}

// The title with no block is a report that found no SM; text of another tool is refused.
TEST(IbdiagnetSmTest, AReportWithoutBlocksFoundNoSmAndForeignTextIsRefused) {
  auto empty = parse_ibdiagnet_sm("ibdiagnet fabric SM report\n\n");
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_TRUE(empty->managers.empty());
  EXPECT_FALSE(parse_ibdiagnet_sm("sminfo: sm lid 1 sm guid 0x1, activity count 5\n").ok());
  EXPECT_FALSE(parse_ibdiagnet_sm("").ok());
}

}  // namespace
}  // namespace netdoctor::parsers
