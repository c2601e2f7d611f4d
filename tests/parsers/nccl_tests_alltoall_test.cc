// nccl-tests tables of collectives without a reduction (alltoall_perf, all_gather_perf,
// sendrecv_perf): their rows print "none" or nothing under redop. Real outputs kept in
// tests/parsers/data:
//   nccl_tests_alltoall_perf_old_blank_redop_256gpu_issue78.txt  NVIDIA/nccl-tests#78, comment
//     by ngc7292 2021-12-08: alltoall_perf of the old format, nothing under redop (these rows
//     gave no row at all before)
//   nccl_tests_alltoall_perf_2_18_none_root_16rank_spectrumx.txt  code index id 52913594292 (a
//     Spectrum-X adaptive-routing test report, case "AR ON DDP OFF"): nccl-tests 2.18.3
//     alltoall_perf, 16 ranks, "none -1", "N/A" under in-place #wrong, mpirun notes in the table
#include <gtest/gtest.h>

#include "parsers/nccl_tests.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;

TEST(NcclTestsAlltoallTest, OldFormatRowsWithNothingUnderRedopParse) {
  auto r = parse_nccl_tests(
      parser_fixture("nccl_tests_alltoall_perf_old_blank_redop_256gpu_issue78.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->new_format);
  ASSERT_EQ(r->rows.size(), 2u);
  const NcclRow& row = r->rows[0];
  EXPECT_EQ(row.size_bytes, 268435456u);
  EXPECT_EQ(row.count, 1048576u);
  EXPECT_EQ(row.type, "float");
  EXPECT_EQ(row.redop, "");
  EXPECT_FALSE(row.root.has_value());
  EXPECT_DOUBLE_EQ(*row.out_of_place.time_us, 520935.0);
  EXPECT_DOUBLE_EQ(*row.out_of_place.busbw_gbyte_s, 0.51);
  EXPECT_EQ(row.out_of_place.error, "0e+00");
  EXPECT_EQ(row.in_place.error, "1e+00");
  EXPECT_DOUBLE_EQ(*r->rows[1].in_place.time_us, 1041299.0);
  EXPECT_DOUBLE_EQ(*r->avg_bus_bandwidth_gbyte_s, 0.507636);
}

TEST(NcclTestsAlltoallTest, NewFormatNoneRootAndNotAvailableWrong) {
  auto r = parse_nccl_tests(
      parser_fixture("nccl_tests_alltoall_perf_2_18_none_root_16rank_spectrumx.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->new_format);
  ASSERT_EQ(r->rows.size(), 24u);
  EXPECT_EQ(r->rows[0].size_bytes, 1024u);
  EXPECT_EQ(r->rows[0].redop, "none");
  EXPECT_EQ(r->rows[0].root, -1);
  EXPECT_EQ(r->rows[0].out_of_place.wrong, 0u);
  EXPECT_FALSE(r->rows[0].in_place.wrong.has_value());
  EXPECT_EQ(r->rows[0].in_place.error, "N/A");
  const NcclRow& last = r->rows.back();
  EXPECT_EQ(last.size_bytes, 8589934592u);
  EXPECT_DOUBLE_EQ(*last.out_of_place.time_us, 234524.0);
  EXPECT_DOUBLE_EQ(*last.out_of_place.busbw_gbyte_s, 34.34);
  EXPECT_DOUBLE_EQ(*last.in_place.busbw_gbyte_s, 34.62);
  ASSERT_EQ(r->ranks.size(), 16u);
  EXPECT_EQ(r->ranks[8].host, "R6KD-CX8aaS-GPU-12");
  EXPECT_DOUBLE_EQ(*r->avg_bus_bandwidth_gbyte_s, 9.48105);
}

// Rows without their header (a pasted table body): the cells between type and the legs decide.
TEST(NcclTestsAlltoallTest, RowsWithoutHeaderReadTheirMiddleCells) {
  auto r = parse_nccl_tests(
      "     1048576         16384     float    none      -1    996.7    1.05    0.99    N/A   "
      "1007.1    1.04    0.98    N/A\n"
      "     1048576         16384     float            571.5    1.83    1.72  0e+00     0.50  "
      "2087.88  1957.39  1e+00\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0].redop, "none");
  EXPECT_EQ(r->rows[0].root, -1);
  EXPECT_EQ(r->rows[1].redop, "");
  EXPECT_DOUBLE_EQ(*r->rows[1].in_place.busbw_gbyte_s, 1957.39);
}

}  // namespace
}  // namespace netdoctor::parsers
