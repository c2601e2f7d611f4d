#include "plan/traffic_budget.h"

#include <gtest/gtest.h>

namespace netdoctor::plan {
namespace {

const CollectiveTraffic* find(const TrafficBudget& b, const std::string& name_part) {
  for (const CollectiveTraffic& c : b.collectives) {
    if (c.name.find(name_part) != std::string::npos) {
      return &c;
    }
  }
  return nullptr;
}

TrafficInputs seventy_b() {
  TrafficInputs in;
  in.params = 70e9;
  in.dtype = "bf16";
  in.parallelism = {32, 1, 1, 0};
  in.step_seconds = 10;
  in.nic_gbps = 200;
  in.gpus_per_node = 8;
  return in;
}

TEST(TrafficBudget, PlainDataParallelRingAllReduceOf70BInBf16) {
  auto b = budget_traffic(seventy_b());
  ASSERT_TRUE(b.ok()) << b.error().describe();
  // 70e9 parameters x 2 bytes = 140 GB, all of it on every GPU (tp = pp = 1).
  EXPECT_DOUBLE_EQ(b->model_bytes, 140e9);
  EXPECT_DOUBLE_EQ(b->shard_bytes, 140e9);
  const CollectiveTraffic* dp = find(*b, "data-parallel");
  ASSERT_NE(dp, nullptr);
  // Ring all-reduce over 32: 2 x 31/32 x 140 GB = 271.25 GB per GPU per step.
  EXPECT_DOUBLE_EQ(dp->bytes_per_gpu, 2.0 * 31.0 / 32.0 * 140e9);
  EXPECT_TRUE(dp->crosses_network);  // 32 ranks 1 GPU apart span 32 > 8 GPUs
  EXPECT_NE(dp->formula.find("31/32"), std::string::npos);
  // One NIC per GPU: 271.25 GB x 8 bit / 10 s = 217 Gb/s per NIC, above a 200G NIC.
  EXPECT_NEAR(b->needed_gbps_per_nic, 2.0 * 31.0 / 32.0 * 140e9 * 8 / 1e9 / 10, 1e-6);
  EXPECT_NEAR(b->headroom, 200.0 / 217.0, 1e-9);
  EXPECT_FALSE(b->warnings.empty());
  // All 256 GPUs' NICs together: 217 Gb/s x 32 GPUs (4 nodes x 8 NICs).
  EXPECT_NEAR(b->needed_gbps_fabric, 217.0 * 32, 1e-6);
}

TEST(TrafficBudget, ZeroThreeMovesThreeHalvesOfAnAllReduce) {
  TrafficInputs in = seventy_b();
  in.zero = 3;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok());
  const CollectiveTraffic* z = find(*b, "ZeRO-3");
  ASSERT_NE(z, nullptr);
  // all-gather forward + all-gather backward + reduce-scatter: 3 x 31/32 x 140 GB = 406.875 GB.
  EXPECT_DOUBLE_EQ(z->bytes_per_gpu, 3.0 * 31.0 / 32.0 * 140e9);
  EXPECT_NEAR(b->needed_gbps_per_nic, 406.875 * 8 / 10, 1e-6);  // 325.5 Gb/s
}

TEST(TrafficBudget, ZeroOneAndTwoCostTheSameAsAnAllReduce) {
  TrafficInputs in = seventy_b();
  in.zero = 2;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok());
  const CollectiveTraffic* z = find(*b, "ZeRO-2");
  ASSERT_NE(z, nullptr);
  // reduce-scatter 31/32 x S + all-gather 31/32 x S.
  EXPECT_DOUBLE_EQ(z->bytes_per_gpu, 31.0 / 32.0 * 140e9 + 31.0 / 32.0 * 140e9);
}

TEST(TrafficBudget, TensorParallelInsideTheNodeStaysOffTheNics) {
  TrafficInputs in = seventy_b();
  in.parallelism = {32, 8, 1, 0};
  in.tokens = 4096 * 4;  // 4 sequences of 4096 per replica per step
  in.hidden = 8192;
  in.layers = 80;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok()) << b.error().describe();
  // Each GPU holds 140 GB / 8 = 17.5 GB.
  EXPECT_DOUBLE_EQ(b->shard_bytes, 140e9 / 8);
  const CollectiveTraffic* dp = find(*b, "data-parallel");
  ASSERT_NE(dp, nullptr);
  EXPECT_DOUBLE_EQ(dp->bytes_per_gpu, 2.0 * 31.0 / 32.0 * 17.5e9);
  EXPECT_TRUE(dp->crosses_network);  // 32 ranks 8 GPUs apart
  const CollectiveTraffic* tp = find(*b, "tensor-parallel");
  ASSERT_NE(tp, nullptr);
  // 80 layers x 4 all-reduces x 2 x 7/8 x 16384 tokens x 8192 hidden x 2 bytes.
  EXPECT_DOUBLE_EQ(tp->bytes_per_gpu, 80.0 * 4 * 2 * 7.0 / 8.0 * 16384 * 8192 * 2);
  EXPECT_FALSE(tp->crosses_network);  // tp = 8 = GPUs per node: NVLink
  EXPECT_DOUBLE_EQ(b->nvlink_bytes_per_gpu, tp->bytes_per_gpu);
  EXPECT_DOUBLE_EQ(b->network_bytes_per_gpu, dp->bytes_per_gpu);
}

TEST(TrafficBudget, TensorParallelWiderThanANodeIsWarnedAbout) {
  TrafficInputs in = seventy_b();
  in.parallelism = {4, 16, 1, 0};
  in.tokens = 8192;
  in.hidden = 8192;
  in.layers = 80;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok());
  const CollectiveTraffic* tp = find(*b, "tensor-parallel");
  ASSERT_NE(tp, nullptr);
  EXPECT_TRUE(tp->crosses_network);
  bool warned = false;
  for (const auto& w : b->warnings) {
    warned = warned || w.find("tp=16") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

TEST(TrafficBudget, TensorParallelWithoutActivationShapeIsSkippedNotGuessed) {
  TrafficInputs in = seventy_b();
  in.parallelism = {32, 8, 1, 0};
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(find(*b, "tensor-parallel"), nullptr);
  ASSERT_FALSE(b->skipped.empty());
  EXPECT_NE(b->skipped.front().find("--hidden"), std::string::npos);
}

TEST(TrafficBudget, PipelineShipsActivationsForwardAndGradientsBack) {
  TrafficInputs in = seventy_b();
  in.parallelism = {4, 8, 4, 0};
  in.tokens = 16384;
  in.hidden = 8192;
  in.layers = 80;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok());
  const CollectiveTraffic* pp = find(*b, "pipeline");
  ASSERT_NE(pp, nullptr);
  // 2 x 16384 tokens x 8192 hidden x 2 bytes = 536,870,912 bytes.
  EXPECT_DOUBLE_EQ(pp->bytes_per_gpu, 2.0 * 16384 * 8192 * 2);
  EXPECT_TRUE(pp->crosses_network);  // stages 32 GPUs apart
  EXPECT_EQ(b->gpus, 4 * 8 * 4);
  EXPECT_EQ(b->nodes, 128 / 8);
}

TEST(TrafficBudget, MoeAllToAllPerLayerDispatchAndCombine) {
  TrafficInputs in = seventy_b();
  in.params = 47e9;
  in.parallelism = {16, 1, 1, 16};
  in.moe_experts = 8;
  in.moe_topk = 2;
  in.tokens = 8192;
  in.hidden = 4096;
  in.moe_layers = 32;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok()) << b.error().describe();
  const CollectiveTraffic* moe = find(*b, "MoE");
  ASSERT_NE(moe, nullptr);
  // 32 layers x 2 (dispatch + combine) x 2 (forward + backward) x 8192 tokens x top-2 x
  // 4096 hidden x 2 bytes x 15/16.
  EXPECT_DOUBLE_EQ(moe->bytes_per_gpu, 32.0 * 2 * 2 * 8192 * 2 * 4096 * 2 * 15.0 / 16.0);
  EXPECT_TRUE(moe->crosses_network);
  EXPECT_EQ(moe->group_size, 16);
}

TEST(TrafficBudget, FewerNicsThanGpusShareTheLoad) {
  TrafficInputs in = seventy_b();
  in.nics_per_node = 4;
  auto b = budget_traffic(in);
  ASSERT_TRUE(b.ok());
  // 8 GPUs' traffic over 4 NICs: each NIC carries two GPUs' worth.
  EXPECT_DOUBLE_EQ(b->bytes_per_nic, 2 * b->network_bytes_per_gpu);
}

TEST(TrafficBudget, BadInputsAreInvalidArguments) {
  TrafficInputs in = seventy_b();
  in.dtype = "int3";
  EXPECT_EQ(budget_traffic(in).error().code, ErrorCode::InvalidArgument);
  in = seventy_b();
  in.zero = 4;
  EXPECT_EQ(budget_traffic(in).error().code, ErrorCode::InvalidArgument);
  EXPECT_FALSE(parse_parallelism("dp=0").ok());
  EXPECT_FALSE(parse_parallelism("xp=2").ok());
  EXPECT_FALSE(parse_parallelism("dp32").ok());
  auto p = parse_parallelism("tp=8, dp=32");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->dp, 32);
  EXPECT_EQ(p->tp, 8);
  EXPECT_EQ(p->pp, 1);
}

TEST(TrafficBudget, FormatsBytesInDecimalUnits) {
  EXPECT_EQ(format_bytes(140e9), "140 GB");
  EXPECT_EQ(format_bytes(17.5e9), "17.5 GB");
  EXPECT_EQ(format_bytes(512), "512 B");
}

}  // namespace
}  // namespace netdoctor::plan
