// iblinkinfo: reference ib/iblinkinfo_hdr_quantum_20hosts_sharp_aggnode.txt (HDR, 53.125 Gbps
// lanes, down ports) and the ibsim plain, -l and -S outputs of tests/fixtures/ib.
#include "parsers/iblinkinfo.h"

#include <gtest/gtest.h>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ib_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(IblinkinfoTest, HdrSwitchAndCasWithDownPorts) {
  auto r = parse_iblinkinfo(
      read_text(reference_file("ib/iblinkinfo_hdr_quantum_20hosts_sharp_aggnode.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  EXPECT_EQ(r->links.size(), 63u);
  const IbLink& agg = r->links[1];
  EXPECT_EQ(agg.node_type, "CA");
  EXPECT_EQ(agg.node_description, "Mellanox Technologies Aggregation Node");
  EXPECT_EQ(agg.guid, 0x0c42a103008982acu);
  EXPECT_EQ(agg.lid, 4u);
  EXPECT_EQ(agg.port, 1u);
  EXPECT_EQ(agg.width, "4X");
  EXPECT_EQ(agg.speed_gbps, 53.125);
  EXPECT_EQ(agg.state, "Active");
  EXPECT_EQ(agg.physical_state, "LinkUp");
  EXPECT_EQ(agg.remote_lid, 3u);
  EXPECT_EQ(agg.remote_port, 41u);
  EXPECT_EQ(agg.remote_description, "Quantum Mellanox Technologies");
  const IbLink* down = r->find("Quantum Mellanox Technologies", 5);
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->node_type, "Switch");
  EXPECT_EQ(down->guid, 0x0c42a103008982a4u);
  EXPECT_EQ(down->state, "Down");
  EXPECT_EQ(down->physical_state, "Polling");
  EXPECT_EQ(down->width, "");
  EXPECT_FALSE(down->speed_gbps.has_value());
  EXPECT_FALSE(down->remote_lid.has_value());
  EXPECT_EQ(down->remote_description, "");
  EXPECT_EQ(r->find("Quantum Mellanox Technologies", 41)->remote_description,
            "Mellanox Technologies Aggregation Node");
}

TEST(IblinkinfoTest, IbsimPlainLineAndSwitchForms) {
  auto plain = parse_iblinkinfo(ib_fixture("ibsim_iblinkinfo.txt"));
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->links.size(), 19u);
  const IbLink* ca = plain->find("node03 mlx5_0", 1);
  ASSERT_NE(ca, nullptr);
  EXPECT_EQ(ca->speed_gbps, 2.5);
  EXPECT_EQ(ca->comment, "Could be 12X Could be 10.0 Gbps");
  auto line = parse_iblinkinfo(ib_fixture("ibsim_iblinkinfo_l.txt"));
  ASSERT_TRUE(line.ok()) << line.error().message;
  EXPECT_TRUE(line->unparsed.empty());
  const IbLink* leaf = line->find("leaf-1 Quantum", 3);
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(leaf->guid, 0x200000u);
  EXPECT_EQ(leaf->remote_guid, 0x200001u);
  EXPECT_EQ(leaf->remote_lid, 3u);
  EXPECT_EQ(leaf->remote_port, 3u);
  EXPECT_EQ(leaf->remote_description, "spine-1");
  auto one = parse_iblinkinfo(ib_fixture("ibsim_iblinkinfo_S.txt"));
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(one->links.size(), 8u);
}

TEST(IblinkinfoTest, ForeignRejectedOddLinesKept) {
  EXPECT_FALSE(parse_iblinkinfo("CA: node:\nnothing here\n").ok());
  EXPECT_FALSE(parse_iblinkinfo("PortXmitData:....1\n").ok());
  auto r = parse_iblinkinfo(
      "Switch: 0x1 sw:\n  1 1[ ] ==( 4X 25.78125 Gbps Active/ LinkUp)==> 2 1[ ] \"h\" ( )\n"
      "  1 2[ ] ==( 4X 25.7");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->links[0].speed_gbps, 25.78125);
  EXPECT_EQ(r->unparsed.size(), 1u);
}

}  // namespace
}  // namespace netdoctor::parsers
