#include <gtest/gtest.h>

#include "parsers/nccl_tests.h"
#include "parsers/perftest.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(PerftestTest, BnxtRdmaCmDurationRunPeakZeroIsNotMeasured) {
  auto r = parse_perftest(
      read_text(reference_file("perftest/ib_write_bw_bnxt_re_rdmacm_q3_client.txt")));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->title, "RDMA_Write BW Test");
  EXPECT_EQ(r->kind, PerftestKind::Bandwidth);
  EXPECT_EQ(r->device, "bnxt_re0");
  EXPECT_EQ(r->num_qps, 3u);
  EXPECT_EQ(r->mtu_bytes, 1024u);
  EXPECT_EQ(r->param_map.at("rdma_cm QPs"), "ON");
  EXPECT_EQ(r->param_map.at("Data ex. method"), "rdma_cm");
  ASSERT_EQ(r->addresses.size(), 6u);
  EXPECT_EQ(r->addresses[0].gid_ipv4, "10.0.0.12");
  EXPECT_EQ(r->addresses[5].side, "remote");
  EXPECT_EQ(r->addresses[5].gid_ipv4, "10.0.0.10");
  EXPECT_EQ(r->bw_unit, "Gb/sec");
  ASSERT_EQ(r->bw_rows.size(), 1u);
  EXPECT_DOUBLE_EQ(r->bw_rows[0].bw_average_gbps, 363.47);
  EXPECT_FALSE(r->bw_rows[0].bw_peak.has_value());
  EXPECT_FALSE(r->bw_peak_measured);
}

TEST(PerftestTest, Mlx5CudaRunWithTabsAndBwMinColumn) {
  auto r =
      parse_perftest(read_text(reference_file("perftest/ib_write_bw_mlx5_cuda_bwmin_client.txt")));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->param_map.at("rdma_cm QPs"), "OFF");  // "rdma_cm QPs\t :" quirk
  EXPECT_EQ(r->param_map.at("Device"), "mlx5_0");
  EXPECT_EQ(r->param_map.at("Transport type"), "IB");
  EXPECT_EQ(r->gid_index, 3u);
  ASSERT_EQ(r->bw_rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*r->bw_rows[0].bw_peak, 368.67);
  EXPECT_DOUBLE_EQ(r->bw_rows[0].bw_average, 368.48);
  EXPECT_DOUBLE_EQ(*r->bw_rows[0].msg_rate_mpps, 0.702829);
  EXPECT_DOUBLE_EQ(*r->bw_rows[0].bw_min, 0.0);
  EXPECT_TRUE(r->bw_peak_measured);
}

TEST(PerftestTest, LatencyTableByPosition) {
  auto r =
      parse_perftest(read_text(reference_file("perftest/ib_write_lat_cx7_dgxspark_client.txt")));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, PerftestKind::Latency);
  EXPECT_EQ(r->link_type, "IB");
  EXPECT_FALSE(r->gid_index.has_value());
  ASSERT_EQ(r->lat_rows.size(), 1u);
  const auto& row = r->lat_rows[0];
  EXPECT_EQ(row.bytes, 2u);
  EXPECT_DOUBLE_EQ(row.t_min_us, 1.42);
  EXPECT_DOUBLE_EQ(*row.t_typical_us, 1.47);
  EXPECT_DOUBLE_EQ(*row.p99_us, 1.57);
  EXPECT_DOUBLE_EQ(*row.p999_us, 1.93);
  auto scenario = parse_perftest(parser_fixture("scenario_ib_read_lat.txt"));
  ASSERT_TRUE(scenario.ok());
  EXPECT_DOUBLE_EQ(*scenario->lat_rows.at(0).t_typical_us, 2.76);
  EXPECT_DOUBLE_EQ(*scenario->lat_rows.at(0).p999_us, 7.46);
}

TEST(PerftestTest, ScenarioBandwidthReportGbits) {
  auto r = parse_perftest(parser_fixture("scenario_ib_write_bw_report_gbits.txt"));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->bw_rows.at(0).bw_average_gbps, 186.49);
  EXPECT_EQ(r->addresses.at(1).gid_ipv4, "10.10.0.12");
}

// Found by fuzz_parser_perftest: a negative #iterations was cast to an unsigned count. Such a
// row is not a measurement; the real row beside it still is.
TEST(PerftestTest, RowWithNegativeOrHugeCountsIsSkipped) {
  std::string text = parser_fixture("scenario_ib_write_bw_report_gbits.txt");
  const std::string row = " 65536      5000 ";
  const auto at = text.find(row);
  ASSERT_NE(at, std::string::npos);
  text.insert(
      at, " 4096      -4159600     10.00     9.00     0.1\n 8192   1e300   10.00   9.00   0.1\n");
  auto r = parse_perftest(text);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->bw_rows.size(), 1u);
  EXPECT_EQ(r->bw_rows[0].bytes, 65536u);
  EXPECT_EQ(r->bw_rows[0].iterations, 5000u);
}

TEST(PerftestTest, ConnectErrorRunTogetherOnOneLine) {
  auto r =
      parse_perftest(read_text(reference_file("perftest/error_couldnt_connect_socket_init.txt")));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->errors.size(), 3u);
  EXPECT_EQ(r->errors[0].kind, "connect");
  EXPECT_EQ(r->errors[0].peer, "192.168.125.211:18515");
  EXPECT_EQ(r->errors[1].message, "Unable to open file descriptor for socket connection");
  EXPECT_EQ(r->errors[2].message, "Unable to init the socket connection");
  EXPECT_TRUE(r->bw_rows.empty());
}

TEST(PerftestTest, QuotedMegabyteTableWithWarningJunkAndCompletionError) {
  const char* text =
      "> WARNING: BW peak won't be measured in this run.\n"
      "> ---------------------------------------------------------------------------------------\n"
      ">                     RDMA_Write Bidirectional BW Test\n"
      ">  Dual-port       : OFF          Device         : mlx5_1\n"
      "> ---------------------------------------------------------------------------------------\n"
      ">  #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
      "> Conflicting CPU frequency values detected: 1200.000000 != 3400.000000. CPU Frequency is "
      "not max.\n"
      ">  2          5000           0.00               0.089888            0.044944\n"
      ">  65536      5000           0.00               11000.00            0.176000\n"
      ">  Completion with error at client\n"
      ">  Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0\n";
  auto r = parse_perftest(text);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->bidirectional);
  EXPECT_EQ(r->device, "mlx5_1");
  EXPECT_EQ(r->bw_unit, "MB/sec");
  EXPECT_FALSE(r->bw_peak_measured);
  ASSERT_EQ(r->bw_rows.size(), 2u);
  EXPECT_DOUBLE_EQ(r->bw_rows[0].bw_average, 0.089888);
  // MB/sec in perftest is 2^20 bytes per second.
  EXPECT_NEAR(r->bw_rows[1].bw_average_gbps, 11000.0 * 1048576 * 8 / 1e9, 1e-9);
  EXPECT_FALSE(r->bw_rows[1].bw_peak.has_value());
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_EQ(r->errors[0].kind, "completion");
  EXPECT_EQ(r->errors[0].wc_status, 12u);
  EXPECT_EQ(r->errors[0].wc_status_name, "IBV_WC_RETRY_EXC_ERR");
  EXPECT_EQ(r->warnings.size(), 2u);
}

TEST(PerftestTest, OldFiveColumnLatencyAndTruncatedOutput) {
  auto r = parse_perftest(
      "                    Send Latency Test\n"
      " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]\n"
      " 2       1000          1.10           5.00         1.20\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->lat_rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*r->lat_rows[0].t_typical_us, 1.20);
  EXPECT_FALSE(r->lat_rows[0].t_avg_us.has_value());
  auto truncated = parse_perftest(
      "----------------------------------------------------------\n"
      "                    RDMA_Write BW Test\n Dual-port       : OF");
  ASSERT_TRUE(truncated.ok());
  EXPECT_TRUE(truncated->bw_rows.empty());
}

TEST(PerftestTest, RejectsOtherText) {
  EXPECT_EQ(parse_perftest("NIC statistics:\n rx: 1\n").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_perftest("").ok());
  EXPECT_FALSE(parse_perftest(std::string("\x01\x02\x03\0\x05", 5)).ok());
}

TEST(NcclTestsTest, NewFormat24RankAllReduce) {
  auto r = parse_nccl_tests(read_text(reference_file("nccl/all_reduce_perf_a800_24rank_k8s.txt")));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->new_format);
  EXPECT_EQ(r->params.at("nThread"), "1");
  EXPECT_EQ(r->params.at("minBytes"), "536870912");
  EXPECT_EQ(r->params.at("warmup iters"), "50");
  ASSERT_EQ(r->ranks.size(), 24u);
  EXPECT_EQ(r->ranks[23].host, "kubeflow-nccl-test-3-worker-10");
  EXPECT_EQ(r->ranks[23].gpu_name, "NVIDIA A800-SXM4-80GB");
  EXPECT_EQ(r->ranks[0].bus_id, "0x10");
  ASSERT_EQ(r->rows.size(), 3u);
  EXPECT_EQ(r->rows[2].size_bytes, 2147483648u);
  EXPECT_EQ(r->rows[0].root, -1);
  EXPECT_DOUBLE_EQ(*r->rows[0].out_of_place.busbw_gbyte_s, 41.26);
  EXPECT_DOUBLE_EQ(*r->rows[2].in_place.busbw_gbyte_s, 42.34);
  EXPECT_EQ(r->rows[1].in_place.wrong, 0u);
  EXPECT_DOUBLE_EQ(*r->avg_bus_bandwidth_gbyte_s, 41.6967);
  EXPECT_EQ(r->out_of_bounds, 0u);
  EXPECT_TRUE(r->failures.empty());
}

TEST(NcclTestsTest, OldFormatWithNetIbLineAndFailure) {
  auto r = parse_nccl_tests(
      "# nThread 1 nGpus 8 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 5 iters: 20 "
      "validation: 1\n#\n# Using devices\n"
      "#   Rank  0 Pid  12345 on     node01 device  0 [0x1a] Tesla V100-SXM2-32GB\n"
      "node01:12345:12345 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/IB/SHARP "
      "[RO]; OOB eth0:10.0.0.1<0>\n"
      "node01:12345:12345 [0] NCCL INFO Using network IB\n"
      "#       size         count      type   redop     time   algbw   busbw  error     time   "
      "algbw   busbw  error\n"
      "           8             2     float     sum    35.12    0.00    0.00  0e+00    34.99    "
      "0.00    0.00  0e+00\n"
      "node01: Test NCCL failure common.cu:393 'unhandled system error / '\n"
      " .. node01 pid 12345: Test failure common.cu:842\n"
      "# Avg bus bandwidth    : 0 \n");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->new_format);
  ASSERT_EQ(r->ranks.size(), 1u);
  EXPECT_EQ(r->ranks[0].host, "node01");
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_FALSE(r->rows[0].root.has_value());
  EXPECT_EQ(r->rows[0].in_place.error, "0e+00");
  ASSERT_EQ(r->ib_devices.size(), 2u);
  EXPECT_EQ(r->ib_devices[0].name, "mlx5_0");
  EXPECT_EQ(r->ib_devices[0].link, "RoCE");
  EXPECT_TRUE(r->ib_devices[1].sharp);
  EXPECT_TRUE(r->relaxed_ordering);
  EXPECT_EQ(r->network, "IB");
  EXPECT_EQ(r->failures.size(), 2u);
  EXPECT_DOUBLE_EQ(*r->avg_bus_bandwidth_gbyte_s, 0.0);
}

TEST(NcclTestsTest, RejectsOtherText) {
  EXPECT_EQ(parse_nccl_tests("Reference ID : 1\n").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_nccl_tests("").ok());
}

}  // namespace
}  // namespace netdoctor::parsers
