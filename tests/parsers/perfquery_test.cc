// perfquery: reference ib/perfquery_x_edr_switch_lid1719_2ports_fixture.txt (-x -l, 2 ports,
// CapMask2 0x2 with error counters) and the ibsim outputs of tests/fixtures/ib (-x without
// error counters, plain with saturated 32-bit counters, -E).
#include "parsers/perfquery.h"

#include <gtest/gtest.h>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ib_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(PerfqueryTest, ExtendedLoopOverPortsWithOctets) {
  auto r = parse_perfquery(
      read_text(reference_file("ib/perfquery_x_edr_switch_lid1719_2ports_fixture.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  ASSERT_EQ(r->blocks.size(), 2u);
  EXPECT_TRUE(r->blocks[0].extended);
  EXPECT_EQ(r->blocks[0].lid, 1719u);
  EXPECT_EQ(r->blocks[0].cap_mask, 0x5300u);
  EXPECT_EQ(r->blocks[0].cap_mask2, 0x2u);
  const PerfqueryPort* p2 = r->find_port(1719, "2");
  ASSERT_NE(p2, nullptr);
  const PerfCounter* data = p2->find("PortXmitData");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->value, 26006570014026u);
  EXPECT_EQ(p2->xmit_data_octets, 26006570014026u * 4);
  EXPECT_EQ(p2->rcv_data_octets, 39078804993378u * 4);
  EXPECT_EQ(p2->find("PortXmitWait")->value, 36510964u);
  EXPECT_FALSE(p2->find("PortXmitWait")->saturated);
  EXPECT_EQ(p2->find("PortSelect"), nullptr);
  EXPECT_EQ(r->blocks[0].find("CounterSelect")->text, "0x0000");
}

TEST(PerfqueryTest, PlainFillsWhatExtendedLacksAndFlagsSaturation) {
  std::string both = ib_fixture("ibsim_perfquery_x.txt") + ib_fixture("ibsim_perfquery.txt");
  auto r = parse_perfquery(both);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->ports.size(), 1u);
  const PerfqueryPort& p = r->ports[0];
  EXPECT_EQ(r->blocks[0].cap_mask2, 0u);
  EXPECT_EQ(r->blocks[0].find("PortXmitWait"), nullptr);
  // The 64-bit extended PortXmitData wins over the plain one stuck at 2^32-1.
  EXPECT_EQ(p.find("PortXmitData")->value, 4464u);
  EXPECT_TRUE(p.find("PortXmitData")->extended);
  EXPECT_EQ(p.xmit_data_octets, 4464u * 4);
  const PerfCounter* wait = p.find("PortXmitWait");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->value, 4294967295u);
  EXPECT_TRUE(wait->saturated);
  EXPECT_EQ(wait->bits, 32u);
  EXPECT_TRUE(p.find("SymbolErrorCounter")->saturated);
  EXPECT_EQ(p.find("LinkDownedCounter")->value, 7u);
  EXPECT_EQ(p.find("PortXmitDiscards")->value, 1234u);
  EXPECT_FALSE(p.find("PortXmitDiscards")->saturated);
}

TEST(PerfqueryTest, PlainAloneSaturatedDataAndDetails) {
  auto plain = parse_perfquery(ib_fixture("ibsim_perfquery.txt"));
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_TRUE(plain->ports[0].find("PortXmitData")->saturated);
  EXPECT_FALSE(plain->blocks[0].extended);
  auto details = parse_perfquery(ib_fixture("ibsim_perfquery_E.txt"));
  ASSERT_TRUE(details.ok()) << details.error().message;
  EXPECT_EQ(details->blocks[0].title, "PortRcvErrorDetails counters");
  EXPECT_EQ(details->ports[0].find("PortLocalPhysicalErrors")->value, 0u);
}

TEST(PerfqueryTest, FragmentWithoutHeaderForeignAndErrors) {
  auto frag = parse_perfquery("PortXmitWait:....................22730\nQP1Dro");
  ASSERT_TRUE(frag.ok()) << frag.error().message;
  EXPECT_EQ(frag->ports[0].find("PortXmitWait")->value, 22730u);
  EXPECT_EQ(frag->unparsed.size(), 1u);
  EXPECT_FALSE(parse_perfquery("ibwarn: [1] mad_rpc: _do_madrpc failed; dport (Lid 1)\n").ok());
  EXPECT_FALSE(parse_perfquery("CA 'mlx5_0'\n\tCA type: MT4123\n").ok());
  EXPECT_FALSE(parse_perfquery(std::string("\0\1", 2)).ok());
  auto vl = parse_perfquery("# PortVLXmitWaitCounters: Lid 1 port 1\nPortVLXmitWait[0]:.......5\n");
  ASSERT_TRUE(vl.ok()) << vl.error().message;
  EXPECT_EQ(vl->ports[0].find("PortVLXmitWait[0]")->value, 5u);
}

}  // namespace
}  // namespace netdoctor::parsers
