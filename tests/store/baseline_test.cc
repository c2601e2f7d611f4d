#include <gtest/gtest.h>

#include "store/baseline_check.h"
#include "store/baseline_repository.h"
#include "store/database.h"
#include "tests/store/store_fixture.h"

namespace netdoctor::store {
namespace {

PerfRun bw_run(const std::string& client, const std::string& server, const std::string& device,
               double gbps, double at = 1'764'000'000.0) {
  PerfRun run;
  run.client = client;
  run.server = server;
  run.device = device;
  run.test = "ib_write_bw";
  run.msg_bytes = 65536;
  run.bw_gbps = gbps;
  run.measured_at = at;
  run.source = "baseline.tar.gz";
  return run;
}

PerfRun lat_run(const std::string& client, const std::string& server, double us) {
  PerfRun run = bw_run(client, server, "mlx5_0", 0.0);
  run.test = "ib_read_lat";
  run.msg_bytes = 2;
  run.bw_gbps.reset();
  run.lat_us = us;
  return run;
}

using StoreBaseline = StoreTest;

TEST_F(StoreBaseline, PairSixPercentBelowIsFlaggedFourPercentIsNot) {
  BaselineRepository baselines(*m_db);
  ASSERT_TRUE(baselines
                  .add({bw_run("node01", "node02", "mlx5_0", 100.0),
                        bw_run("node03", "node04", "mlx5_0", 100.0)})
                  .ok());
  auto result = check_against_baselines(
      baselines,
      {bw_run("node01", "node02", "mlx5_0", 94.0), bw_run("node03", "node04", "mlx5_0", 96.0)},
      0.05);
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->size(), 2u);
  EXPECT_TRUE((*result)[0].deviates);
  EXPECT_NEAR(*(*result)[0].change, -0.06, 1e-9);
  EXPECT_FALSE((*result)[1].deviates);
  EXPECT_NEAR(*(*result)[1].change, -0.04, 1e-9);
}

TEST_F(StoreBaseline, ThresholdIsConfigurable) {
  BaselineRepository baselines(*m_db);
  ASSERT_TRUE(baselines.add({bw_run("node01", "node02", "mlx5_0", 100.0)}).ok());
  auto loose =
      check_against_baselines(baselines, {bw_run("node01", "node02", "mlx5_0", 94.0)}, 0.10);
  ASSERT_TRUE(loose.ok());
  EXPECT_FALSE(loose->front().deviates);
  auto strict =
      check_against_baselines(baselines, {bw_run("node01", "node02", "mlx5_0", 97.0)}, 0.02);
  ASSERT_TRUE(strict.ok());
  EXPECT_TRUE(strict->front().deviates);
}

TEST_F(StoreBaseline, LatencyUpIsFlaggedLatencyDownIsNot) {
  BaselineRepository baselines(*m_db);
  ASSERT_TRUE(baselines.add({lat_run("node01", "node02", 2.0)}).ok());
  auto up = check_against_baselines(baselines, {lat_run("node01", "node02", 2.2)}, 0.05);
  ASSERT_TRUE(up.ok());
  EXPECT_TRUE(up->front().deviates);
  EXPECT_EQ(up->front().metric, "latency");
  auto down = check_against_baselines(baselines, {lat_run("node01", "node02", 1.5)}, 0.05);
  ASSERT_TRUE(down.ok());
  EXPECT_FALSE(down->front().deviates);
}

TEST_F(StoreBaseline, AnotherDeviceOrPairIsNeverCompared) {
  BaselineRepository baselines(*m_db);
  ASSERT_TRUE(baselines.add({bw_run("node01", "node02", "mlx5_0", 400.0)}).ok());
  // Far below node01->node02's mlx5_0 figure, but they are other devices / pairs / directions.
  std::vector<PerfRun> current = {bw_run("node01", "node02", "mlx5_1", 100.0),
                                  bw_run("node01", "node03", "mlx5_0", 100.0),
                                  bw_run("node02", "node01", "mlx5_0", 100.0)};
  auto result = check_against_baselines(baselines, current, 0.05);
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->size(), 3u);
  for (const auto& comparison : *result) {
    EXPECT_FALSE(comparison.baseline.has_value()) << comparison.current.pair();
    EXPECT_FALSE(comparison.deviates);
  }
  EXPECT_FALSE(
      compare_with_baseline(current[0], bw_run("node01", "node02", "mlx5_0", 400.0), 0.05));
  PerfRun other_size = bw_run("node01", "node02", "mlx5_0", 100.0);
  other_size.msg_bytes = 4096;
  EXPECT_FALSE(
      compare_with_baseline(other_size, bw_run("node01", "node02", "mlx5_0", 400.0), 0.05));
}

TEST_F(StoreBaseline, TheLatestBaselineOfThePairIsTheReference) {
  BaselineRepository baselines(*m_db);
  ASSERT_TRUE(baselines
                  .add({bw_run("node01", "node02", "mlx5_0", 200.0, 1000.0),
                        bw_run("node01", "node02", "mlx5_0", 100.0, 2000.0)})
                  .ok());
  auto result =
      check_against_baselines(baselines, {bw_run("node01", "node02", "mlx5_0", 99.0)}, 0.05);
  ASSERT_TRUE(result.ok());
  ASSERT_TRUE(result->front().baseline.has_value());
  EXPECT_EQ(result->front().baseline->bw_gbps, 100.0);
  EXPECT_FALSE(result->front().deviates);
  auto pair = baselines.for_pair("node01", "node02");
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(pair->size(), 2u);
  EXPECT_TRUE(baselines.for_pair("node02", "node01")->empty());
}

TEST(BaselineThreshold, PercentAndFractionFormsParse) {
  EXPECT_DOUBLE_EQ(*parse_threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_threshold("5"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_threshold("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_threshold(" 2.5 % "), 0.025);
  EXPECT_FALSE(parse_threshold("abc"));
  EXPECT_FALSE(parse_threshold("0"));
  EXPECT_FALSE(parse_threshold("150%"));
}

TEST(BaselineFigure, BandwidthElseLatencyElseADash) {
  EXPECT_EQ(figure_text(bw_run("a", "b", "mlx5_0", 97.125)), "97.12 Gb/s");
  EXPECT_EQ(figure_text(bw_run("a", "b", "mlx5_0", 390.0)), "390.00 Gb/s");
  EXPECT_EQ(figure_text(lat_run("a", "b", 1.849)), "1.85 us");
  PerfRun both = bw_run("a", "b", "mlx5_0", 10.0);
  both.lat_us = 3.0;
  EXPECT_EQ(figure_text(both), "10.00 Gb/s");  // a bandwidth test's latency is not its figure
  PerfRun none = lat_run("a", "b", 1.0);
  none.lat_us.reset();
  EXPECT_EQ(figure_text(none), "-");
}

TEST(BaselinePair, ClientServerNamesSplitOnDoubleUnderscore) {
  auto pair = parse_pair("node01__node02");
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->first, "node01");
  EXPECT_EQ(pair->second, "node02");
  EXPECT_FALSE(parse_pair("node01"));
  EXPECT_FALSE(parse_pair("__node02"));
  EXPECT_FALSE(parse_pair("node01__"));
}

}  // namespace
}  // namespace netdoctor::store
