// ibdiagnet-db-csv: the reference ibdiag/ibdiagnet2_db_csv_quantum2_ndr_272nodes_full.txt (a real
// Quantum-2 NDR fabric, 272 nodes, 34 sections), the hand-written tests/fixtures/ibdiag fabric,
// and the shapes real files take: quoted commas, columns in another order, truncation.
#include "parsers/ibdiagnet_db_csv.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ibdiag_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

std::string reference_db() {
  return read_text(reference_file("ibdiag/ibdiagnet2_db_csv_quantum2_ndr_272nodes_full.txt"));
}

// The reference parsed once for the tests that only read it.
const Result<IbdiagDbCsv>& reference() {
  static const Result<IbdiagDbCsv> parsed = parse_ibdiagnet_db_csv(reference_db());
  return parsed;
}

TEST(IbdiagnetDbCsvTest, ReferenceSectionsAreAllKeptWhole) {
  const auto& r = reference();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->sections.size(), 34u);
  EXPECT_FALSE(r->truncated);
  EXPECT_TRUE(r->unparsed.empty());
  EXPECT_EQ(r->skipped_rows, 0u);
  for (const auto& s : r->sections) {
    EXPECT_TRUE(s.complete) << s.name;
  }
  // Untyped sections keep header and rows.
  const IbdiagSection* temp = r->find("TEMP_SENSING");
  ASSERT_NE(temp, nullptr);
  EXPECT_EQ(temp->rows.size(), 272u);
  EXPECT_EQ(temp->column("CurrentTemperature"), 1u);
  const IbdiagSection* fw = r->find("WARNINGS_FW_CHECK");
  ASSERT_NE(fw, nullptr);
  ASSERT_EQ(fw->rows.size(), 7u);
  ASSERT_EQ(fw->rows[0].size(), fw->header.size());
  EXPECT_EQ(fw->rows[0][5].rfind("Node with Devid:54002(0xd2f2)-PSID:MT_0000000579", 0), 0u);
}

TEST(IbdiagnetDbCsvTest, ReferenceNodesPortsLinksAndManagers) {
  const auto& r = reference();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->nodes.size(), 272u);
  const IbdiagNode& sw = r->nodes[0];
  EXPECT_EQ(sw.description, "MF0;ib-switch-sequoia:MQM9700/U1");
  EXPECT_EQ(sw.guid, 0xb0cf0e0300d33fc0u);
  EXPECT_EQ(sw.type, 2u);
  EXPECT_EQ(sw.ports, 65u);
  EXPECT_EQ(sw.device_id, 54002u);
  EXPECT_EQ(sw.vendor_id, 713u);
  ASSERT_EQ(r->ports.size(), 551u);
  const IbdiagPort& p0 = r->ports[0];
  EXPECT_EQ(p0.port, 0u);
  EXPECT_EQ(p0.lid, 180u);
  const IbdiagPort& p1 = r->ports[1];
  EXPECT_EQ(p1.node_guid, 0xb0cf0e0300d33fc0u);
  EXPECT_EQ(p1.port, 1u);
  EXPECT_EQ(p1.width_active, 2u);
  EXPECT_EQ(p1.width_supported, 19u);
  EXPECT_EQ(p1.speed_active, 2052u);
  EXPECT_EQ(p1.speed_supported, 3845u);
  EXPECT_EQ(p1.state, 4u);
  EXPECT_EQ(p1.phys_state, 5u);
  EXPECT_EQ(p1.mtu, 5u);
  EXPECT_EQ(r->links.size(), 271u);
  EXPECT_EQ(r->links[0].guid1, 0xb0cf0e0300e5b940u);
  EXPECT_EQ(r->links[0].port2, 1u);
  ASSERT_EQ(r->managers.size(), 1u);
  EXPECT_EQ(r->managers[0].guid, 0xb0cf0e0300d33fc0u);
  EXPECT_EQ(r->managers[0].state, 3u);
  EXPECT_EQ(r->managers[0].priority, 12u);
  EXPECT_EQ(r->managers[0].activity_count, 4202301u);
}

TEST(IbdiagnetDbCsvTest, ReferencePmRowsKeepBothWidthsAndNotAvailable) {
  const auto& r = reference();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->pm_info.size(), 542u);
  const IbdiagPmRow& pm = r->pm_info[0];
  EXPECT_EQ(pm.port, 1u);
  EXPECT_EQ(pm.counters.at("PortXmitData"), 4294967295u);  // 32-bit, saturated
  EXPECT_EQ(pm.counters.at("PortXmitDataExtended"), 299195507523u);
  EXPECT_EQ(pm.counters.at("PortXmitWaitExt"), 9463628588u);
  // The header's " max_retransmission_rate" is trimmed; "-1" is not a value.
  EXPECT_EQ(pm.counters.count("max_retransmission_rate"), 1u);
  EXPECT_EQ(pm.counters.count("PortLoopingErrors"), 0u);
  EXPECT_EQ(pm.not_available, std::vector<std::string>{"PortLoopingErrors"});
  EXPECT_EQ(r->pm_info[1].counters.at("PortRcvSwitchRelayErrors"), 158u);
  ASSERT_EQ(r->pm_delta.size(), 542u);
  // PM_DELTA's 0xfffffffffffffffe marks retransmission_per_sec as not available.
  EXPECT_EQ(r->pm_delta[0].counters.count("retransmission_per_sec"), 0u);
  EXPECT_EQ(r->pm_delta[0].counters.at("PortXmitDataExtended"), 21096u);
}

TEST(IbdiagnetDbCsvTest, FirmwareFromNodesInfoElseGeneralInfoSmp) {
  const auto& r = reference();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->node_info.size(), 272u);  // 265 in NODES_INFO, the other HCAs from GENERAL_INFO_SMP
  EXPECT_EQ(r->node_info[0].guid, 0xb0cf0e0300d33fc0u);
  EXPECT_EQ(r->node_info[0].firmware, "31.2012.1024");
  EXPECT_EQ(r->node_info[0].psid, "MT_0000000577");
  EXPECT_EQ(r->node_info[0].device_id, 0xd2f2u);
  std::size_t from_smp = 0;
  for (const auto& i : r->node_info) {
    from_smp += i.source == "GENERAL_INFO_SMP" ? 1u : 0u;
  }
  EXPECT_EQ(from_smp, 7u);
}

TEST(IbdiagnetDbCsvTest, QuotedFieldsKeepCommasAndSpaces) {
  auto r = parse_ibdiagnet_db_csv(
      "START_NODES\nNodeDesc,NumPorts,NodeType,NodeGUID\n\"a, b  c\",1,1,0x1\n"
      "\"say \"\"hi\"\"\",1,1,0x2\nEND_NODES\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->nodes.size(), 2u);
  EXPECT_EQ(r->nodes[0].description, "a, b  c");
  EXPECT_EQ(r->nodes[0].guid, 1u);
  EXPECT_EQ(r->nodes[1].description, "say \"hi\"");
}

TEST(IbdiagnetDbCsvTest, ColumnsAreFoundByTheirHeaderInAnyOrder) {
  auto r = parse_ibdiagnet_db_csv(
      "START_PORTS\nPortState,NewColumn,PortNum,LinkWidthActv,NodeGuid,LID\n"
      "4,x7,3,2,0xabc,N/A\nEND_PORTS\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->ports.size(), 1u);
  EXPECT_EQ(r->ports[0].node_guid, 0xabcu);
  EXPECT_EQ(r->ports[0].port, 3u);
  EXPECT_EQ(r->ports[0].state, 4u);
  EXPECT_EQ(r->ports[0].width_active, 2u);
  EXPECT_FALSE(r->ports[0].lid.has_value());
  EXPECT_FALSE(r->ports[0].speed_active.has_value());
  // The unknown column stays in the section.
  EXPECT_EQ(r->sections[0].rows[0][r->sections[0].column("NewColumn").value()], "x7");
}

TEST(IbdiagnetDbCsvTest, SeparateExtendedSpeedColumnsAreFoldedIntoTheMask) {
  auto r = parse_ibdiagnet_db_csv(
      "START_PORTS\nNodeGuid,PortNum,LinkSpeedActv,LinkSpeedExtActv,LinkSpeedSup,LinkSpeedExtSup\n"
      "0x1,1,4,2,7,3\n0x1,2,2052,0,3845,N/A\nEND_PORTS\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->ports.size(), 2u);
  EXPECT_EQ(r->ports[0].speed_active, 0x204u);  // QDR byte 1, EDR in byte 2
  EXPECT_EQ(r->ports[0].speed_supported, 0x307u);
  EXPECT_EQ(r->ports[1].speed_active, 2052u);  // already combined
  EXPECT_EQ(r->ports[1].speed_supported, 3845u);
}

TEST(IbdiagnetDbCsvTest, TruncatedFileKeepsWholeRowsOnly) {
  std::string full = reference_db();
  auto pm_at = full.find("START_PM_INFO");
  ASSERT_NE(pm_at, std::string::npos);
  // Cut in the middle of the 12th PM_INFO row (after START_PM_INFO, the header, 11 rows).
  std::size_t cut = pm_at;
  for (int line = 0; line < 13; ++line) {
    cut = full.find('\n', cut) + 1;
  }
  cut += 40;
  auto r = parse_ibdiagnet_db_csv(full.substr(0, cut));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->truncated);
  EXPECT_FALSE(r->fragment.empty());
  EXPECT_EQ(r->pm_info.size(), 11u);
  const IbdiagSection* pm = r->find("PM_INFO");
  ASSERT_NE(pm, nullptr);
  EXPECT_FALSE(pm->complete);
  EXPECT_TRUE(r->find("LINKS")->complete);
  EXPECT_EQ(r->find("PM_DELTA"), nullptr);
  EXPECT_EQ(r->nodes.size(), 272u);
}

TEST(IbdiagnetDbCsvTest, FixtureFabric) {
  auto r = parse_ibdiagnet_db_csv(ibdiag_fixture("ibdiagnet2.db_csv"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->truncated);
  EXPECT_EQ(r->nodes.size(), 4u);
  EXPECT_EQ(r->managers.size(), 2u);
  ASSERT_EQ(r->pm_info.size(), 3u);
  EXPECT_EQ(
      r->pm_info[2].not_available,
      (std::vector<std::string>{"LinkDownedCounterExt", "PortRcvErrorsExt", "PortLoopingErrors"}));
  auto j = to_json(*r);
  EXPECT_EQ(j["nodes"][0]["guid"], "0xb8cef603001bf9de");
  EXPECT_EQ(j["sections"].size(), r->sections.size());
}

TEST(IbdiagnetDbCsvTest, ForeignTextIsRefused) {
  EXPECT_FALSE(parse_ibdiagnet_db_csv("hello world\n").ok());
  EXPECT_FALSE(parse_ibdiagnet_db_csv("NodeGUID,PortNum\n0x1,1\n").ok());
  EXPECT_FALSE(parse_ibdiagnet_db_csv("").ok());
}

}  // namespace
}  // namespace netdoctor::parsers
