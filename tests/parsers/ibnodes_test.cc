// ibnodes (ibswitches, ibhosts, ibnodes): reference
// ib/ibswitches_ibhosts_hdr_two_switches_31cas.txt (both commands in one session, prompts) and the
// ibsim outputs of tests/fixtures/ib.
#include "parsers/ibnodes.h"

#include <gtest/gtest.h>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ib_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(IbnodesTest, SwitchesAndHostsSession) {
  auto r =
      parse_ibnodes(read_text(reference_file("ib/ibswitches_ibhosts_hdr_two_switches_31cas.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->unparsed.empty());
  ASSERT_EQ(r->nodes.size(), 33u);
  const IbNode& quantum = r->nodes[0];
  EXPECT_EQ(quantum.type, "Switch");
  EXPECT_EQ(quantum.guid, 0x08c0eb0300add04eu);
  EXPECT_EQ(quantum.ports, 41u);
  EXPECT_EQ(quantum.description, "Quantum Mellanox Technologies");
  EXPECT_EQ(quantum.enhanced_port0, false);
  EXPECT_EQ(quantum.lid, 10u);
  EXPECT_EQ(r->nodes[1].enhanced_port0, true);
  EXPECT_EQ(r->nodes[1].description, "MF0;d32-03-1:MQM8700/U1");
  const IbNode* ca = r->find(0xe8ebd303003a3cb8u);
  ASSERT_NE(ca, nullptr);
  EXPECT_EQ(ca->type, "Ca");
  EXPECT_EQ(ca->description, "node1 HCA-2");
  EXPECT_FALSE(ca->lid.has_value());
}

TEST(IbnodesTest, IbsimIbnodes) {
  auto r = parse_ibnodes(ib_fixture("ibsim_ibnodes.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->nodes.size(), 5u);
  EXPECT_EQ(r->nodes[1].description, "node02 mlx5_0");
  EXPECT_EQ(r->nodes[1].ports, 2u);
  EXPECT_EQ(r->nodes[4].description, "leaf-1 Quantum");
  EXPECT_EQ(r->nodes[4].lid, 1u);
  EXPECT_TRUE(parse_ibnodes(ib_fixture("ibsim_ibhosts.txt")).ok());
}

TEST(IbnodesTest, ForeignRejectedTruncatedKept) {
  EXPECT_FALSE(parse_ibnodes("Switch\t36 \"S-f4521403001165a0\"\n").ok());
  EXPECT_FALSE(parse_ibnodes("ibwarn: failed\n").ok());
  auto r = parse_ibnodes("Ca\t: 0x1 ports 1 \"a b\"\nCa\t: 0x2 ports 1 \"tru");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->nodes.size(), 1u);
  EXPECT_EQ(r->unparsed.size(), 1u);
}

}  // namespace
}  // namespace netdoctor::parsers
