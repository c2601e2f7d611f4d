// The active step of a live diagnosis: run only when the passive probes left the case open,
// its sweep written into the capture, then weighed by the active-sweep probe like any evidence.
#include "cli/active_step.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "engine/pipeline.h"
#include "sim/fake_cluster.h"
#include "tests/fabrics/sim_bundle.h"

namespace netdoctor::cli {
namespace {

sweep::SweepOptions fast_options() {
  sweep::SweepOptions options;
  options.thresholds = *sweep::load_thresholds();
  options.server_head_start = std::chrono::milliseconds(0);
  return options;
}

// A live capture (collect --hosts) has no perftest runs: the simulator's pairs are dropped.
netdoctor::testing::SimBundle live_like(const std::string& tag, const std::string& flags) {
  auto bundle = netdoctor::testing::simulate(tag, flags);
  std::filesystem::remove_all(bundle.path + "/perftest");
  std::filesystem::remove_all(bundle.path + "/perftest-baseline");
  return bundle;
}

engine::Diagnosis diagnose(const std::string& bundle) {
  engine::DiagnoseOptions options;
  options.symptom = "slowdown";
  auto diagnosis = engine::diagnose_bundles({bundle}, options);
  EXPECT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  return diagnosis.ok() ? std::move(*diagnosis) : engine::Diagnosis{};
}

const engine::ProbeRun* run_of(const engine::Diagnosis& diagnosis, const std::string& id) {
  for (const auto& probe : diagnosis.probes) {
    if (probe.id == id) {
      return &probe;
    }
  }
  return nullptr;
}

TEST(ActiveStep, AnUnsettledDiagnosisTakesTheSweepsSlowNicAsEvidence) {
  const auto bundle = live_like("active-healthy", "--hosts 8 --nics 2");
  const engine::Diagnosis passive = diagnose(bundle.path);
  ASSERT_FALSE(passive_settled(passive)) << engine::to_string(passive.verdict);

  sim::FakeClusterSpec spec;
  spec.hosts = 8;
  spec.nics_per_host = 2;
  spec.hosts_per_leaf = 4;
  spec.slow_nics.push_back({"node0003", "mlx5_1", 0.6});
  sim::FakeCluster cluster(spec);
  FakeClock clock;
  auto step = run_active_step(cluster.hosts(), fast_options(), bundle.path, cluster, clock, {});
  ASSERT_TRUE(step.ok()) << step.error().describe();
  EXPECT_EQ(step->file, bundle.path + "/sweep/active-1.json");
  EXPECT_TRUE(std::filesystem::exists(step->file));
  EXPECT_EQ(step->report.verdict, sweep::Verdict::SlowFound);

  const engine::Diagnosis active = diagnose(bundle.path);
  EXPECT_EQ(active.verdict, engine::Verdict::RootCauseFound);
  ASSERT_FALSE(active.causes.empty());
  EXPECT_EQ(active.causes.front().id, "baseline-regression");
  const auto& culprits = active.causes.front().entities;
  EXPECT_NE(std::find(culprits.begin(), culprits.end(), "nic:node0003/mlx5_1"), culprits.end());
  const engine::ProbeRun* probe = run_of(active, "active-sweep");
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->status, "ran");
  ASSERT_FALSE(active.causes.front().evidence.empty());
  EXPECT_EQ(active.causes.front().evidence.front().probe, "active-sweep");
  EXPECT_EQ(active.causes.front().evidence.front().signal, "sweep-slow-nic");

  // A second active step keeps the first one's file.
  auto again = run_active_step(cluster.hosts(), fast_options(), bundle.path, cluster, clock, {});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->file, bundle.path + "/sweep/active-2.json");
}

TEST(ActiveStep, ABadCableFoundActivelyIsLinkErrorsAtThatLink) {
  const auto bundle = live_like("active-cable", "--hosts 8 --nics 2");
  sim::FakeClusterSpec spec;
  spec.hosts = 8;
  spec.nics_per_host = 2;
  spec.hosts_per_leaf = 4;
  spec.bad_cables.push_back({"node0006", "mlx5_0", 0.7});
  sim::FakeCluster cluster(spec);
  FakeClock clock;
  ASSERT_TRUE(
      run_active_step(cluster.hosts(), fast_options(), bundle.path, cluster, clock, {}).ok());
  const engine::Diagnosis active = diagnose(bundle.path);
  ASSERT_FALSE(active.causes.empty());
  EXPECT_EQ(active.causes.front().id, "link-errors");
  const auto& culprits = active.causes.front().entities;
  ASSERT_FALSE(culprits.empty());
  EXPECT_EQ(culprits.front().rfind("link:", 0), 0u) << culprits.front();
  EXPECT_NE(culprits.front().find("node0006/"), std::string::npos) << culprits.front();
}

TEST(ActiveStep, ARootCauseFoundPassivelySettlesIt) {
  const auto bundle = live_like("active-storm", "--hosts 8 --nics 2 --fault pfc-storm");
  EXPECT_TRUE(passive_settled(diagnose(bundle.path)));
}

TEST(ActiveStep, AHealthySweepClearsAndKeepsTheVerdictHealthy) {
  const auto bundle = live_like("active-clear", "--hosts 8 --nics 2");
  sim::FakeClusterSpec spec;
  spec.hosts = 8;
  spec.nics_per_host = 2;
  spec.hosts_per_leaf = 4;
  sim::FakeCluster cluster(spec);
  FakeClock clock;
  ASSERT_TRUE(
      run_active_step(cluster.hosts(), fast_options(), bundle.path, cluster, clock, {}).ok());
  const engine::Diagnosis active = diagnose(bundle.path);
  EXPECT_EQ(active.verdict, engine::Verdict::Healthy);
  const engine::ProbeRun* probe = run_of(active, "active-sweep");
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->status, "ran") << probe->reason;
}

}  // namespace
}  // namespace netdoctor::cli
