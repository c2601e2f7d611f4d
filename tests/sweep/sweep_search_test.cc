// The sweep's search against the fake cluster (sim/fake_cluster.h): the slow entity is named,
// healthy fleets are all-healthy, hosts that hang or are busy are left out, and the rounds stay
// within their bounds.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

#include "sim/fake_cluster.h"
#include "sim/fake_cluster_argv.h"
#include "sweep/render.h"
#include "sweep/sweep.h"

namespace netdoctor::sweep {
namespace {

SweepOptions fast_options() {
  SweepOptions options;
  auto thresholds = load_thresholds();
  EXPECT_TRUE(thresholds.ok());
  options.thresholds = *thresholds;
  options.server_head_start = std::chrono::milliseconds(0);
  return options;
}

sim::FakeClusterSpec small_spec(std::size_t hosts = 16, std::size_t nics = 4) {
  sim::FakeClusterSpec spec;
  spec.hosts = hosts;
  spec.nics_per_host = nics;
  spec.hosts_per_leaf = 4;
  return spec;
}

SweepReport sweep_of(sim::FakeCluster& cluster, const SweepOptions& options) {
  FakeClock clock;
  return run_sweep(cluster.hosts(), options, cluster, clock);
}

std::vector<std::string> entities(const SweepReport& report) {
  std::vector<std::string> out;
  for (const auto& slow : report.slow) {
    out.push_back(slow.entity);
  }
  return out;
}

TEST(SweepSearch, HealthyFleetIsAllHealthy) {
  sim::FakeCluster cluster(small_spec());
  const SweepReport report = sweep_of(cluster, fast_options());
  EXPECT_EQ(report.verdict, Verdict::AllHealthy) << render_text(report);
  EXPECT_EQ(report.nics, 64u);
  EXPECT_EQ(report.tested_nics, 64u);
  EXPECT_TRUE(report.slow.empty());
  // One perftest round (32 pairs), one collective round (all_reduce + alltoall over all).
  EXPECT_EQ(report.rounds, 2);
  EXPECT_EQ(report.runs.size(), 34u);
}

TEST(SweepSearch, OneSlowNicIsNamedInTwoPairRounds) {
  sim::FakeClusterSpec spec = small_spec();
  spec.slow_nics.push_back({"node0006", "mlx5_2", 0.6});
  sim::FakeCluster cluster(spec);
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  const SweepReport report = sweep_of(cluster, options);
  EXPECT_EQ(report.verdict, Verdict::SlowFound) << render_text(report);
  EXPECT_EQ(entities(report), std::vector<std::string>{"nic:node0006/mlx5_2"});
  EXPECT_EQ(report.rounds, 2);
  // Round 1 is one test per NIC pair; round 2 re-tests the two ends with two partners each.
  EXPECT_EQ(report.runs.size(), 32u + 4u);
  ASSERT_EQ(report.slow.size(), 1u);
  EXPECT_NEAR(report.slow[0].measured_gbps / cluster.healthy_gbps(), 0.6, 0.02);
  EXPECT_GE(report.slow[0].evidence.size(), 3u);
}

TEST(SweepSearch, ABadCableIsNamedAsTheLinkToItsLeafPort) {
  sim::FakeClusterSpec spec = small_spec();
  spec.bad_cables.push_back({"node0011", "mlx5_1", 0.7});
  sim::FakeCluster cluster(spec);
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  const SweepReport report = sweep_of(cluster, options);
  ASSERT_EQ(report.verdict, Verdict::SlowFound) << render_text(report);
  ASSERT_EQ(report.slow.size(), 1u);
  const std::string& entity = report.slow[0].entity;
  EXPECT_EQ(entity.rfind("link:", 0), 0u) << entity;
  EXPECT_NE(entity.find("node0011/" + cluster.netdev_of("mlx5_1")), std::string::npos) << entity;
  EXPECT_NE(entity.find(cluster.leaf_of("node0011") + "/"), std::string::npos) << entity;
  EXPECT_NE(report.slow[0].evidence.front().find("symbol_error"), std::string::npos);
}

TEST(SweepSearch, EverySlowNicOfAHostNamesTheHost) {
  sim::FakeClusterSpec spec = small_spec(16, 2);
  spec.slow_nics.push_back({"node0003", "mlx5_0", 0.5});
  spec.slow_nics.push_back({"node0003", "mlx5_1", 0.5});
  sim::FakeCluster cluster(spec);
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  const SweepReport report = sweep_of(cluster, options);
  EXPECT_EQ(entities(report), std::vector<std::string>{"host:node0003"}) << render_text(report);
}

TEST(SweepSearch, AHungHostIsLeftOutAndTheRestIsTested) {
  sim::FakeClusterSpec spec = small_spec();
  spec.hung_hosts.insert("node0004");
  spec.slow_nics.push_back({"node0009", "mlx5_3", 0.6});
  sim::FakeCluster cluster(spec);
  SweepOptions options = fast_options();
  const SweepReport report = sweep_of(cluster, options);
  EXPECT_EQ(entities(report), std::vector<std::string>{"nic:node0009/mlx5_3"})
      << render_text(report);
  ASSERT_EQ(report.left_out.size(), 1u);
  EXPECT_EQ(report.left_out[0].host, "node0004");
  EXPECT_EQ(report.left_out[0].reason, "unreachable");
  EXPECT_EQ(report.nics, 60u);
  // Waited on once, at discovery (20 s), never again.
  EXPECT_LT(report.wall_s, 120.0);
}

TEST(SweepSearch, AHealthyFleetWithAHostLeftOutIsNotCalledHealthy) {
  sim::FakeClusterSpec spec = small_spec(8, 2);
  spec.down_hosts.insert("node0002");
  sim::FakeCluster cluster(spec);
  const SweepReport report = sweep_of(cluster, fast_options());
  EXPECT_EQ(report.verdict, Verdict::Inconclusive) << render_text(report);
  ASSERT_EQ(report.left_out.size(), 1u);
  EXPECT_EQ(report.left_out[0].reason, "unreachable");
  EXPECT_NE(report.left_out[0].detail.find("255"), std::string::npos) << report.left_out[0].detail;
}

TEST(SweepSearch, ABusyHostIsRefusedUnlessForced) {
  sim::FakeClusterSpec spec = small_spec(8, 2);
  spec.busy_hosts.insert("node0005");
  {
    sim::FakeCluster cluster(spec);
    const SweepReport report = sweep_of(cluster, fast_options());
    ASSERT_EQ(report.left_out.size(), 1u);
    EXPECT_EQ(report.left_out[0].host, "node0005");
    EXPECT_EQ(report.left_out[0].reason, "busy");
    for (const auto& run : report.runs) {
      EXPECT_NE(run.client, "node0005");
      EXPECT_NE(run.server, "node0005");
    }
    EXPECT_EQ(cluster.commands_run("ib_write_bw client"), 7u);  // 14 NICs, one test each
  }
  {
    sim::FakeCluster cluster(spec);
    SweepOptions options = fast_options();
    options.force = true;
    const SweepReport report = sweep_of(cluster, options);
    EXPECT_TRUE(report.left_out.empty());
    EXPECT_EQ(report.verdict, Verdict::AllHealthy) << render_text(report);
  }
}

TEST(SweepSearch, AFaultSeenOnlyInAllToAllIsFoundByHalving) {
  sim::FakeClusterSpec spec = small_spec(64, 2);
  spec.hosts_per_leaf = 8;
  spec.alltoall_slow_hosts.insert("node0037");
  sim::FakeCluster cluster(spec);
  const SweepReport report = sweep_of(cluster, fast_options());
  EXPECT_EQ(entities(report), std::vector<std::string>{"host:node0037"}) << render_text(report);
  // Pairs (1), whole-group collectives (1), halving 64 -> 2 (log2(64) - 1 = 5), pair with good.
  EXPECT_LE(report.rounds, 2 + 6 + 1);
  std::size_t alltoall = 0;
  for (const auto& run : report.runs) {
    alltoall += run.test == "alltoall_perf" ? 1 : 0;
  }
  EXPECT_LE(alltoall, 1u + 2u * 5u + 2u);
}

TEST(SweepSearch, NeverTwoTestsOnOneNicAndAtMostTheCapPerLeaf) {
  sim::FakeClusterSpec spec = small_spec(16, 4);
  spec.client_hold_ms = 20;
  sim::FakeCluster cluster(spec);
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  options.per_leaf = 3;
  const SweepReport report = sweep_of(cluster, options);
  EXPECT_EQ(report.verdict, Verdict::AllHealthy);
  EXPECT_EQ(cluster.max_concurrent_per_nic(), 1u);
  EXPECT_LE(cluster.max_concurrent_per_leaf(), 3u);
  EXPECT_GE(cluster.max_concurrent_per_leaf(), 2u);  // the cap, not one at a time
}

TEST(SweepSearch, TheBudgetStopsTheSweepAndSaysSo) {
  sim::FakeCluster cluster(small_spec(16, 4));
  SweepOptions options = fast_options();
  options.per_leaf = 1;
  options.budget = std::chrono::seconds(40);
  const SweepReport report = sweep_of(cluster, options);
  EXPECT_TRUE(report.budget_exhausted);
  EXPECT_EQ(report.verdict, Verdict::Inconclusive);
  EXPECT_LE(report.wall_s, 40.0);
  EXPECT_LT(report.tested_nics, report.nics);
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes.back().find("budget"), std::string::npos);
}

// Sets the stop flag once the first perftest client starts, as Ctrl-C would.
class InterruptingRunner final : public CommandRunner {
 public:
  InterruptingRunner(CommandRunner& inner, std::atomic<bool>& stop)
      : m_inner(inner), m_stop(stop) {}
  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options) override {
    const std::string last = argv.back();
    if (last.find("ib_write_bw") != std::string::npos && last.find("node") != std::string::npos &&
        last.rfind("node") > last.find("-p")) {
      m_stop.store(true);
    }
    return m_inner.run(argv, options);
  }

 private:
  CommandRunner& m_inner;
  std::atomic<bool>& m_stop;
};

TEST(SweepSearch, CtrlCStopsSchedulingAndEndsTheRemoteTestsItStarted) {
  sim::FakeCluster cluster(small_spec(16, 4));
  std::atomic<bool> stop{false};
  InterruptingRunner runner(cluster, stop);
  SweepOptions options = fast_options();
  options.stop = &stop;
  options.per_leaf = 2;
  FakeClock clock;
  const SweepReport report = run_sweep(cluster.hosts(), options, runner, clock);
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.verdict, Verdict::Inconclusive);
  const auto pkills = cluster.pkills();
  ASSERT_FALSE(pkills.empty());
  // Every pkill names an exact ib_write_bw command line of the cut wave, on its own host.
  std::size_t first_wave = 0;
  for (const auto& run : report.runs) {
    first_wave += run.round == 1 ? 1 : 0;
  }
  EXPECT_EQ(pkills.size(), 2 * first_wave);
  for (const auto& pkill : pkills) {
    ASSERT_EQ(pkill.words.size(), 5u);
    EXPECT_EQ(pkill.words[3], "-f");
    EXPECT_EQ(pkill.words[4].rfind("timeout -k 5 60 ib_write_bw -d mlx5_", 0), 0u)
        << pkill.words[4];
  }
  // Nothing was started after the cut wave.
  EXPECT_EQ(cluster.commands_run("ib_write_bw client"), first_wave);
}

TEST(SweepSearch, ASavedBaselineIsTheExpectation) {
  sim::FakeCluster cluster(small_spec(4, 1));
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  // A baseline day that measured 10 % more than today on every pair.
  FakeClock clock;
  const SweepReport first = run_sweep(cluster.hosts(), options, cluster, clock);
  ASSERT_EQ(first.verdict, Verdict::AllHealthy);
  for (const auto& run : first.runs) {
    options.baselines.push_back({run.client, run.server, run.device, run.test, *run.gbps * 1.1});
  }
  sim::FakeCluster again(small_spec(4, 1));
  const SweepReport report = run_sweep(again.hosts(), options, again, clock);
  for (const auto& run : report.runs) {
    if (run.round == 1) {
      EXPECT_EQ(run.expected_from, "baseline");
      EXPECT_EQ(run.result, SweepRun::Result::Slow);
    }
  }
}

TEST(SweepSearch, InfiniBandHostsTakeTheirLeavesFromTheLeafMap) {
  sim::FakeClusterSpec spec = small_spec(16, 4);
  spec.infiniband = true;
  spec.bad_cables.push_back({"node0002", "mlx5_3", 0.7});
  sim::FakeCluster cluster(spec);
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  for (const auto& host : cluster.hosts()) {
    options.leaf_of[host] = cluster.leaf_of(host);
  }
  const SweepReport report = sweep_of(cluster, options);
  ASSERT_EQ(report.slow.size(), 1u) << render_text(report);
  EXPECT_EQ(report.slow[0].entity.rfind("link:", 0), 0u);
  EXPECT_NE(report.slow[0].entity.find(cluster.leaf_of("node0002")), std::string::npos);
  // Every round-1 pair crosses leaves.
  for (const auto& run : report.runs) {
    if (run.round == 1) {
      EXPECT_NE(cluster.leaf_of(run.client), cluster.leaf_of(run.server));
    }
  }
}

TEST(SweepSearch, PdshAndSrunFindTheSameSlowNic) {
  for (auto launcher : {collect::Launcher::Pdsh, collect::Launcher::Srun}) {
    sim::FakeClusterSpec spec = small_spec(8, 2);
    spec.slow_nics.push_back({"node0007", "mlx5_0", 0.6});
    sim::FakeCluster cluster(spec);
    SweepOptions options = fast_options();
    options.launcher = launcher;
    const SweepReport report = sweep_of(cluster, options);
    EXPECT_EQ(entities(report), std::vector<std::string>{"nic:node0007/mlx5_0"})
        << collect::launcher_program(launcher) << "\n"
        << render_text(report);
    EXPECT_EQ(cluster.commands_run("all_reduce_perf"), 1u);
  }
}

TEST(SweepSearch, TheRingSpendsTwiceTheRunsOfTheMatching) {
  sim::FakeClusterSpec spec = small_spec(16, 4);
  spec.slow_nics.push_back({"node0012", "mlx5_0", 0.6});
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  sim::FakeCluster matched(spec);
  const SweepReport matching = sweep_of(matched, options);
  options.pairing = Pairing::Ring;
  sim::FakeCluster ringed(spec);
  const SweepReport ring = sweep_of(ringed, options);
  EXPECT_EQ(entities(matching), entities(ring));
  EXPECT_EQ(ring.runs.size() - 2, 2 * (matching.runs.size() - 4));
}

TEST(SweepSearch, CtrlCDuringTheLastWaveIsAnInterruptedSweep) {
  sim::FakeCluster cluster(small_spec(4, 2));
  std::atomic<bool> stop{false};
  InterruptingRunner runner(cluster, stop);
  SweepOptions options = fast_options();
  options.tests = Tests::Perftest;
  options.stop = &stop;
  FakeClock clock;
  const SweepReport report = run_sweep(cluster.hosts(), options, runner, clock);
  // Round 1 was the only wave to run: no later step saw the flag, the report still must.
  EXPECT_TRUE(report.interrupted) << render_text(report);
  EXPECT_EQ(report.verdict, Verdict::Inconclusive);
  EXPECT_EQ(report.rounds, 1);
  EXPECT_EQ(cluster.pkills().size(), 8u);  // both sides of the 4 pairs
}

}  // namespace
}  // namespace netdoctor::sweep
