// ibqueryerrors: reference ib/ibqueryerrors_sx6036_saturated_xmitwait_emailquoted.txt (quoted
// in an e-mail with "> ", saturated PortXmitWait, "port ALL") and the ibsim output.
#include "parsers/ibqueryerrors.h"

#include <gtest/gtest.h>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ib_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(IbqueryerrorsTest, EmailQuotedSaturatedCountersAndSummary) {
  auto r = parse_ibqueryerrors(
      read_text(reference_file("ib/ibqueryerrors_sx6036_saturated_xmitwait_emailquoted.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  ASSERT_EQ(r->nodes.size(), 4u);
  const IbErrorNode& ca = r->nodes[0];
  EXPECT_EQ(ca.description, "dl380g7 mlx4_0");
  EXPECT_FALSE(ca.guid.has_value());
  ASSERT_EQ(ca.ports.size(), 2u);
  EXPECT_EQ(ca.ports[0].guid, 0x7cfe900300179b31u);
  EXPECT_EQ(ca.ports[0].port_number, 1u);
  EXPECT_EQ(ca.ports[0].find("VL15Dropped")->value, 14u);
  EXPECT_TRUE(ca.ports[0].find("PortXmitWait")->saturated);
  EXPECT_FALSE(ca.ports[1].find("PortXmitWait")->saturated);
  const IbErrorNode* sw = r->find_node("MF0;ys23ib4:SX6036/U1");
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(sw->guid, 0x2c903006e29b0u);
  ASSERT_EQ(sw->ports.size(), 10u);
  EXPECT_EQ(sw->ports[0].port, "ALL");
  EXPECT_FALSE(sw->ports[0].port_number.has_value());
  EXPECT_EQ(sw->ports[0].find("PortXmitDiscards")->value, 15854u);
  const IbErrorPort& p5 = sw->ports[6];
  EXPECT_EQ(p5.port_number, 5u);
  EXPECT_TRUE(p5.find("SymbolErrorCounter")->saturated);
  EXPECT_EQ(p5.find("PortXmitWait")->value, 84704351u);
  EXPECT_FALSE(p5.find("PortXmitWait")->saturated);
  EXPECT_EQ(r->nodes_checked, 4u);
  EXPECT_EQ(r->bad_nodes, 4u);
  EXPECT_EQ(r->ports_checked, 43u);
  EXPECT_EQ(r->ports_with_errors, 14u);
}

TEST(IbqueryerrorsTest, IbsimErrorsAndCleanFabricSummary) {
  auto r = parse_ibqueryerrors(ib_fixture("ibsim_ibqueryerrors.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->nodes.size(), 2u);
  EXPECT_EQ(r->nodes[1].description, "leaf-1 Quantum");
  EXPECT_EQ(r->nodes[1].guid, 0x200000u);
  EXPECT_EQ(r->nodes[1].ports[1].find("PortRcvErrors")->value, 12u);
  EXPECT_EQ(r->ports_checked, 19u);
  auto clean = parse_ibqueryerrors(
      "\n## Summary: 5 nodes checked, 0 bad nodes found\n##          19 ports checked, 0 ports "
      "have errors beyond threshold\n## Thresholds: \n## Suppressed:\n");
  ASSERT_TRUE(clean.ok()) << clean.error().message;
  EXPECT_TRUE(clean->nodes.empty());
  EXPECT_EQ(clean->bad_nodes, 0u);
  EXPECT_EQ(clean->ports_with_errors, 0u);
}

TEST(IbqueryerrorsTest, ForeignRejectedTruncatedKept) {
  EXPECT_FALSE(parse_ibqueryerrors("Query SA failed: Connection timed out\n").ok());
  EXPECT_FALSE(parse_ibqueryerrors("[VL15Dropped == 14]\n").ok());
  auto r = parse_ibqueryerrors(
      "Errors for \"a b\"\n   GUID 0x1 port 1: [PortXmitWait == 5] [Odd]\n"
      "   GUID 0x1 po");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->nodes[0].ports[0].notes.size(), 1u);
  EXPECT_EQ(r->unparsed.size(), 1u);
}

}  // namespace
}  // namespace netdoctor::parsers
