// sminfo: the ibsim output of tests/fixtures/ib.
#include "parsers/sminfo.h"

#include <gtest/gtest.h>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::ib_fixture;

TEST(SminfoTest, IbsimMaster) {
  auto r = parse_sminfo(ib_fixture("ibsim_sminfo.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->sm_lid, 1u);
  EXPECT_EQ(r->sm_guid, 0x200000u);
  EXPECT_EQ(r->activity_count, 101u);
  EXPECT_EQ(r->priority, 0u);
  EXPECT_EQ(r->state, 3u);
  EXPECT_EQ(r->state_name, "SMINFO_MASTER");
  EXPECT_TRUE(r->unparsed.empty());
}

TEST(SminfoTest, ErrorsRejectedOtherLinesKept) {
  EXPECT_FALSE(parse_sminfo("sminfo: iberror: failed: query\n").ok());
  EXPECT_FALSE(parse_sminfo("CA 'mlx5_0'\n\t\tSM lid: 1\n").ok());
  auto r = parse_sminfo(
      "$ sminfo\nibwarn: x\nsminfo: sm lid 7 sm guid 0x0002c903000a1b2c, "
      "activity count 12 priority 14 state 2 SMINFO_STANDBY\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->sm_lid, 7u);
  EXPECT_EQ(r->sm_guid, 0x0002c903000a1b2cu);
  EXPECT_EQ(r->priority, 14u);
  EXPECT_EQ(r->state_name, "SMINFO_STANDBY");
  EXPECT_EQ(r->unparsed.size(), 1u);
}

}  // namespace
}  // namespace netdoctor::parsers
