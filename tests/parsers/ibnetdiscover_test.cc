// ibnetdiscover: reference ib/ibnetdiscover_sx6036_fdr10_qdr_8switch_144ca_2014.txt (topology
// form, FDR10/QDR), ib/ibnetdiscover_p_hdr_spaces_in_desc_fixture.txt (-p, descriptions with
// leading/trailing spaces) and the ibsim outputs of tests/fixtures/ib.
#include "parsers/ibnetdiscover.h"

#include <gtest/gtest.h>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ib_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(IbnetdiscoverTest, TopologyFormSwitchesCasLinksAndSpeeds) {
  auto r = parse_ibnetdiscover(
      read_text(reference_file("ib/ibnetdiscover_sx6036_fdr10_qdr_8switch_144ca_2014.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  EXPECT_EQ(r->generated_on, "Sun Oct  5 21:59:42 2014");
  EXPECT_EQ(r->initiated_from, "node 24be05ffff98aba0 port 24be05ffff98aba1");
  ASSERT_EQ(r->nodes.size(), 152u);
  const IbnetNode& sw = r->nodes[0];
  EXPECT_EQ(sw.type, "Switch");
  EXPECT_EQ(sw.ports, 36u);
  EXPECT_EQ(sw.guid, 0xf4521403001165a0u);
  EXPECT_EQ(sw.vendor_id, "0x2c9");
  EXPECT_EQ(sw.description, "MF0;ib5:SX6036/U1");
  EXPECT_EQ(sw.enhanced_port0, true);
  EXPECT_EQ(sw.lid, 128u);
  const IbnetLink& host = sw.links[0];
  EXPECT_EQ(host.port, 1u);
  EXPECT_EQ(host.remote_id, "H-24be05ffff980030");
  EXPECT_EQ(host.remote_port_guid, 0x24be05ffff980031u);
  EXPECT_EQ(host.remote_description, "stage114 mlx4_0");
  EXPECT_EQ(host.remote_lid, 105u);
  EXPECT_EQ(host.width, "4x");
  EXPECT_EQ(host.speed, "QDR");
  const IbnetLink& isl = sw.links[18];
  EXPECT_EQ(isl.port, 21u);
  EXPECT_EQ(isl.remote_port, 26u);
  EXPECT_EQ(isl.speed, "FDR10");
  const IbnetNode* ca = r->find_node("stage1 mlx4_0");
  ASSERT_NE(ca, nullptr);
  EXPECT_EQ(ca->type, "Ca");
  EXPECT_EQ(ca->guid, 0x24be05ffff98aba0u);
  ASSERT_EQ(ca->links.size(), 1u);
  EXPECT_EQ(ca->links[0].port_guid, 0x24be05ffff98aba1u);
  EXPECT_EQ(ca->links[0].lid, 57u);
  EXPECT_EQ(ca->links[0].remote_lid, 64u);
  EXPECT_EQ(ca->links[0].remote_description, "MF0;ib1:SX6036/U1");
}

TEST(IbnetdiscoverTest, PortsFormKeepsSpacesAndUnconnectedPorts) {
  auto r = parse_ibnetdiscover(
      read_text(reference_file("ib/ibnetdiscover_p_hdr_spaces_in_desc_fixture.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->port_lines.size(), 6u);
  const IbnetPortLine& agg = r->port_lines[0];
  EXPECT_EQ(agg.type, "CA");
  EXPECT_EQ(agg.lid, 78u);
  EXPECT_EQ(agg.guid, 0x946dae0300630bfeu);
  EXPECT_TRUE(agg.connected);
  EXPECT_EQ(agg.remote_type, "SW");
  EXPECT_EQ(agg.remote_port, 81u);
  EXPECT_EQ(agg.speed, "HDR");
  EXPECT_EQ(agg.description, "Mellanox Technologies Aggregation Node");
  EXPECT_EQ(agg.remote_description, "5FB0405-leaf-IB01 ");
  EXPECT_FALSE(r->port_lines[3].connected);
  EXPECT_EQ(r->port_lines[3].description, " 5FB0406-spine-IB02 ");
  EXPECT_EQ(r->port_lines[5].lid, 478u);
  EXPECT_EQ(r->port_lines[5].speed, "QDR");
}

TEST(IbnetdiscoverTest, IbsimBothForms) {
  auto t = parse_ibnetdiscover(ib_fixture("ibsim_ibnetdiscover.txt"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_TRUE(t->unparsed.empty());
  const IbnetNode* leaf = t->find_node("leaf-1 Quantum");
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(leaf->guid, 0x200000u);
  EXPECT_EQ(leaf->enhanced_port0, false);
  ASSERT_EQ(leaf->links.size(), 4u);
  EXPECT_EQ(leaf->links[0].remote_description, "node01 mlx5_0");
  EXPECT_EQ(leaf->links[0].remote_port_guid, 0x100001u);
  auto p = parse_ibnetdiscover(ib_fixture("ibsim_ibnetdiscover_p.txt"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->port_lines.size(), 19u);
  EXPECT_EQ(p->port_lines[4].description, "spine-1");
  EXPECT_EQ(p->port_lines[4].remote_description, "leaf-1 Quantum");
}

TEST(IbnetdiscoverTest, ForeignAndGarbageRejectedStrayLinesKept) {
  EXPECT_FALSE(parse_ibnetdiscover("Switch  : 0x08c0eb0300add04e ports 41 \"Q\"\n").ok());
  EXPECT_FALSE(parse_ibnetdiscover("hello world\n").ok());
  EXPECT_FALSE(parse_ibnetdiscover("").ok());
  auto r = parse_ibnetdiscover(
      "Switch\t8 \"S-1\"\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[1]\t\"H-2\"[1](3)\t# \"h\" lid 2 4xHDR\nsomething odd\n"
      "# Cut here\n[2]\t\"H-");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->nodes[0].links.size(), 1u);
  ASSERT_EQ(r->unparsed.size(), 3u);
  EXPECT_EQ(r->unparsed[1], "# Cut here");
}

}  // namespace
}  // namespace netdoctor::parsers
