#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/pipeline.h"
#include "fake_probes.h"
#include "kb/catalog.h"
#include "kb/playbook.h"

namespace netdoctor::engine {
namespace {

using probes::CostClass;
using probes::ProbeStatus;
using testing::FakeProbe;
using testing::finding;

// A small kb over three fake probes: a passive pause probe, a passive clock probe (outside
// the playbook: the sanity sweep) and an active perftest. The causes carry no weights: each
// probe's entry says how its signals weigh.
std::string cause_file(const std::string& id, const std::string& probe) {
  return "id = \"" + id + "\"\ntitle = \"" + id +
         " title\"\nmechanism = \"m\"\n"
         "category = \"congestion\"\nseverity = \"degrade\"\nsource = \"DOMAIN.md\"\n"
         "remediation = [\"fix {netdev} on {host}\", \"check {switch}\"]\n"
         "[next_change]\nvariable = \"v of {entity}\"\nfrom = \"{value}\"\nto = "
         "\"{fleet_normal}\"\n"
         "action = \"change {host}\"\nverify = \"re-run " +
         probe + "\"\n";
}

// One [[signal]] of an entry and its weight on `cause` (`kind` "supports" or "against").
std::string signal_block(const std::string& signal, const std::string& kind,
                         const std::string& cause, double weight, const std::string& extra = "") {
  return "[[signal]]\nid = \"" + signal + "\"\nmeans = \"m\"\nlook_for = \"l\"\n[[signal." + kind +
         "]]\ncause = \"" + cause + "\"\nweight = " + std::to_string(weight) + "\n" + extra;
}

std::string entry_file(const std::string& probe, const std::string& signals) {
  return "probe = \"" + probe +
         "\"\ntitle = \"t\"\nwindow = \"w\"\nhealthy = \"h\"\n"
         "[[command]]\nside = \"host\"\nrun = \"ethtool -S <netdev>\"\nshows = \"s\"\n" +
         signals;
}

const char* k_playbook =
    "symptom = \"slowdown\"\ntitle = \"t\"\nsource = \"DOMAIN.md\"\n"
    "candidates = [\"pfc-storm\", \"baseline-regression\"]\n"
    "[stop]\nmin_score = 3.0\nmin_margin = 2.0\n"
    "[[step]]\nprobe = \"pause\"\n"
    "[[step]]\nprobe = \"live-perftest\"\n";

struct Fixture {
  probes::ProbeRegistry registry;
  kb::Catalog catalog;
  kb::PlaybookSet playbooks;
  model::Fabric fabric;
};

void load_kb(Fixture& fixture) {
  std::vector<kb::DataFile> causes = {
      {"kb/causes/pfc-storm.toml", cause_file("pfc-storm", "pause")},
      {"kb/causes/clock-skew.toml", cause_file("clock-skew", "clock")},
      {"kb/causes/baseline-regression.toml", cause_file("baseline-regression", "live-perftest")},
  };
  std::vector<kb::DataFile> entries = {
      {"kb/probes/pause.toml",
       entry_file("pause",
                  signal_block("origin", "supports", "pfc-storm", 5.0) +
                      signal_block("victim", "supports", "pfc-storm", 1.0, "localizes = false\n") +
                      signal_block("quiet", "against", "pfc-storm", 5.0))},
      {"kb/probes/clock.toml",
       entry_file("clock", signal_block("offset", "supports", "clock-skew", 5.0) +
                               signal_block("clock-ok", "against", "clock-skew", 5.0))},
      {"kb/probes/live-perftest.toml",
       entry_file("live-perftest",
                  signal_block("regression", "supports", "baseline-regression", 3.0) +
                      signal_block("perf-ok", "against", "baseline-regression", 5.0))},
  };
  auto known = known_probes(fixture.registry);
  auto probe_entries = kb::ProbeEntrySet::load(entries, known, false);
  ASSERT_TRUE(probe_entries.ok()) << probe_entries.error().describe();
  auto catalog = kb::Catalog::load(causes, *probe_entries);
  ASSERT_TRUE(catalog.ok()) << catalog.error().describe();
  fixture.catalog = std::move(catalog).value();
  auto playbooks = kb::PlaybookSet::load({{"playbooks/slowdown.toml", k_playbook}}, fixture.catalog,
                                         known, false);
  ASSERT_TRUE(playbooks.ok()) << playbooks.error().describe();
  fixture.playbooks = std::move(playbooks).value();
}

void add_probes(Fixture& fixture, std::vector<probes::Finding> pause,
                std::vector<probes::Finding> clock, std::vector<probes::Finding> perftest,
                int* perftest_runs = nullptr) {
  fixture.registry.add(std::make_unique<FakeProbe>(
      "pause", CostClass::Passive, std::vector<std::string>{"origin", "victim", "quiet"},
      std::move(pause)));
  fixture.registry.add(std::make_unique<FakeProbe>("clock", CostClass::Passive,
                                                   std::vector<std::string>{"offset", "clock-ok"},
                                                   std::move(clock)));
  fixture.registry.add(std::make_unique<FakeProbe>(
      "live-perftest", CostClass::Active, std::vector<std::string>{"regression", "perf-ok"},
      std::move(perftest), perftest_runs));
}

Diagnosis run(Fixture& fixture, bool explain = false) {
  DiagnoseOptions options;
  options.symptom = "slowdown";
  options.explain = explain;
  return diagnose(fixture.fabric, fixture.catalog, fixture.playbooks, fixture.registry, options);
}

const ProbeRun* find_run(const Diagnosis& diagnosis, const std::string& id) {
  for (const auto& run : diagnosis.probes) {
    if (run.id == id) {
      return &run;
    }
  }
  return nullptr;
}

TEST(Engine, StopRuleSkipsTheActiveProbeWhenPassiveEvidenceDecides) {
  Fixture fixture;
  int perftest_runs = 0;
  add_probes(fixture, {finding("origin", {"nic:a/mlx5_0", "port:leaf1/Ethernet0"})},
             {finding("clock-ok", {})}, {finding("regression", {"host:a"})}, &perftest_runs);
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  EXPECT_EQ(perftest_runs, 0);
  const ProbeRun* perftest = find_run(diagnosis, "live-perftest");
  ASSERT_NE(perftest, nullptr);
  EXPECT_EQ(perftest->status, "skipped");
  EXPECT_NE(perftest->reason.find("passive evidence already decides"), std::string::npos);
  EXPECT_EQ(diagnosis.verdict, Verdict::RootCauseFound);
  ASSERT_FALSE(diagnosis.causes.empty());
  EXPECT_EQ(diagnosis.causes.front().id, "pfc-storm");
  EXPECT_EQ(diagnosis.probes.front().id, "pause");  // the playbook's first, cheapest step
}

TEST(Engine, ActiveProbeRunsWhenPassiveEvidenceDoesNotDecide) {
  Fixture fixture;
  int perftest_runs = 0;
  add_probes(fixture, {finding("quiet", {})}, {finding("clock-ok", {})},
             {finding("regression", {"host:b", "nic:b/mlx5_1"}, 1.0)}, &perftest_runs);
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  EXPECT_EQ(perftest_runs, 1);
  EXPECT_EQ(find_run(diagnosis, "live-perftest")->status, "ran");
  ASSERT_FALSE(diagnosis.causes.empty());
  EXPECT_EQ(diagnosis.causes.front().id, "baseline-regression");
  EXPECT_EQ(diagnosis.causes.front().entities.front(), "nic:b/mlx5_1");
}

TEST(Engine, SecondIndependentCauseOnOtherEntitiesIsReportedNotMerged) {
  Fixture fixture;
  add_probes(fixture, {finding("origin", {"nic:a/mlx5_0"})},
             {finding("offset", {"host:c"}, 1.0, "host c is 2.1 s ahead")}, {});
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  ASSERT_EQ(diagnosis.causes.size(), 2u);
  EXPECT_EQ(diagnosis.causes[0].id, "pfc-storm");
  EXPECT_EQ(diagnosis.causes[0].entities, std::vector<std::string>{"nic:a/mlx5_0"});
  EXPECT_EQ(diagnosis.causes[1].id, "clock-skew");
  EXPECT_EQ(diagnosis.causes[1].entities, std::vector<std::string>{"host:c"});
  EXPECT_GE(diagnosis.causes[0].confidence, diagnosis.causes[1].confidence);
  EXPECT_GT(diagnosis.causes[1].confidence, 0.0);
}

TEST(Engine, CleanProbesGiveHealthyWithNoCauses) {
  Fixture fixture;
  add_probes(fixture, {finding("quiet", {})}, {finding("clock-ok", {})}, {finding("perf-ok", {})});
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  EXPECT_EQ(diagnosis.verdict, Verdict::Healthy);
  EXPECT_TRUE(diagnosis.causes.empty());
  EXPECT_EQ(diagnosis.probes.size(), 3u);
  EXPECT_FALSE(diagnosis.ruled_out.empty());
}

TEST(Engine, MissingDataGivesInconclusiveNotHealthy) {
  Fixture fixture;
  fixture.registry.add(std::make_unique<FakeProbe>(
      "pause", CostClass::Passive, std::vector<std::string>{"origin", "victim", "quiet"},
      std::vector<probes::Finding>{}, nullptr, ProbeStatus::Skipped, "no data for ethtool -S"));
  fixture.registry.add(std::make_unique<FakeProbe>(
      "clock", CostClass::Passive, std::vector<std::string>{"offset", "clock-ok"},
      std::vector<probes::Finding>{}, nullptr, ProbeStatus::Skipped, "no chronyc tracking"));
  fixture.registry.add(std::make_unique<FakeProbe>(
      "live-perftest", CostClass::Active, std::vector<std::string>{"regression", "perf-ok"},
      std::vector<probes::Finding>{}, nullptr, ProbeStatus::Failed, "no traffic allowed"));
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  EXPECT_EQ(diagnosis.verdict, Verdict::Inconclusive);
  EXPECT_TRUE(diagnosis.causes.empty());
  const ProbeRun* pause = find_run(diagnosis, "pause");
  ASSERT_NE(pause, nullptr);
  EXPECT_EQ(pause->status, "skipped");
  EXPECT_EQ(pause->reason, "no data for ethtool -S");
  EXPECT_EQ(find_run(diagnosis, "live-perftest")->status, "failed");
}

TEST(Engine, WeakSupportIsInconclusiveWithTheLeadListed) {
  Fixture fixture;
  add_probes(fixture, {finding("origin", {"nic:a/mlx5_0"}, 0.3)}, {finding("clock-ok", {})},
             {finding("perf-ok", {})});
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  EXPECT_EQ(diagnosis.verdict, Verdict::Inconclusive);
  ASSERT_EQ(diagnosis.causes.size(), 1u);
  EXPECT_EQ(diagnosis.causes.front().id, "pfc-storm");
  EXPECT_LT(diagnosis.causes.front().confidence, 0.6);
}

TEST(Engine, LocalizationPutsNicAndPortBeforeHostBeforeSwitchAndIgnoresVictims) {
  Fixture fixture;
  add_probes(fixture,
             {finding("origin", {"switch:leaf1", "host:a", "port:leaf1/Ethernet0", "nic:a/mlx5_0"}),
              finding("victim", {"nic:b/mlx5_0", "port:leaf1/Ethernet4"})},
             {finding("clock-ok", {})}, {});
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  ASSERT_FALSE(diagnosis.causes.empty());
  const auto& entities = diagnosis.causes.front().entities;
  EXPECT_EQ(entities, (std::vector<std::string>{"port:leaf1/Ethernet0", "nic:a/mlx5_0", "host:a",
                                                "switch:leaf1"}));
}

TEST(Engine, ExplainRecordsEveryScoreMovement) {
  Fixture fixture;
  add_probes(fixture, {finding("origin", {"nic:a/mlx5_0"}, 0.8)}, {finding("clock-ok", {})}, {});
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture, true);

  auto has_move = [&](const std::string& cause, const std::string& signal, double delta) {
    return std::any_of(diagnosis.explain.begin(), diagnosis.explain.end(), [&](const ScoreMove& m) {
      return m.cause == cause && m.signal == signal && std::abs(m.delta - delta) < 1e-9;
    });
  };
  EXPECT_TRUE(has_move("pfc-storm", "origin", 0.8 * 5.0 * 1.0));
  EXPECT_TRUE(has_move("clock-skew", "clock-ok", -5.0));
  EXPECT_TRUE(run(fixture, false).explain.empty());
}

TEST(Engine, NextChangeIsFilledFromTheCulprit) {
  Fixture fixture;
  probes::Finding origin = finding("origin", {"nic:a/mlx5_0"});
  origin.value = 41000.0;
  origin.fleet_normal = 200.0;
  origin.unit = "frames/s";
  add_probes(fixture, {origin}, {finding("clock-ok", {})}, {});
  model::Host host;
  host.name = "a";
  model::Nic nic;
  nic.host = "a";
  nic.device = "mlx5_0";
  nic.netdev = "ens1f0np0";
  nic.switch_name = "leaf1";
  nic.switch_port = "Ethernet0";
  host.nics.push_back(nic);
  fixture.fabric.hosts.push_back(host);
  load_kb(fixture);
  Diagnosis diagnosis = run(fixture);

  ASSERT_FALSE(diagnosis.causes.empty());
  const RankedCause& top = diagnosis.causes.front();
  ASSERT_TRUE(top.next_change.has_value());
  EXPECT_EQ(top.next_change->entity, "nic:a/mlx5_0");
  EXPECT_EQ(top.next_change->variable, "v of nic:a/mlx5_0");
  EXPECT_EQ(top.next_change->from, "41000");
  EXPECT_EQ(top.next_change->to, "200");
  EXPECT_EQ(top.remediation.front(), "fix ens1f0np0 on a");
  EXPECT_EQ(top.remediation.back(), "check leaf1");
}

}  // namespace
}  // namespace netdoctor::engine
