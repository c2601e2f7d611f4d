// Sweeps kept in an incident: the repository, the migration that added its tables, and the
// postmortem's active tests (Markdown that lists only what matters, escapes host text, and the
// JSON that carries every run).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "store/baseline_repository.h"
#include "store/database.h"
#include "store/incident_repository.h"
#include "store/migrations.h"
#include "store/postmortem.h"
#include "store/sweep_repository.h"
#include "tests/store/store_fixture.h"
#include "tests/support/test_paths.h"

namespace netdoctor::store {
namespace {

constexpr double k_at = 1'764'662'400.0;  // 2025-12-02T08:00:00Z

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every occurrence of `part` in `text` follows a backslash.
bool always_escaped(const std::string& text, const std::string& part) {
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    if (at == 0 || text[at - 1] != '\\') {
      return false;
    }
  }
  return true;
}

SweepRun pair_run(const std::string& client, const std::string& server, double gbps,
                  const std::string& result) {
  SweepRun run;
  run.round = 1;
  run.test = "ib_write_bw";
  run.client = client;
  run.server = server;
  run.device = "mlx5_0";
  run.server_device = "mlx5_0";
  run.gbps = gbps;
  run.expected_gbps = 360.0;
  run.expected_from = "line-rate";
  run.result = result;
  run.seconds = 7.0;
  run.measured_at = k_at + 10.0;
  return run;
}

// A slow-found sweep: node0042/mlx5_0 slow in its pair and in the split, `ok_pairs` others ok,
// one failed pair, and an nccl-tests group.
SweepRecord slow_sweep(std::int64_t incident, int ok_pairs) {
  SweepRecord sweep;
  sweep.incident_id = incident;
  sweep.created_at = k_at;
  sweep.hosts_spec = "node[0001-1024]";
  sweep.verdict = "slow-found";
  sweep.summary = "nic:node0042/mlx5_0 is slow: 231.4 Gb/s against 360.0";
  sweep.slow_entities = {"nic:node0042/mlx5_0"};
  sweep.runs.push_back(pair_run("node0042", "node0514", 231.4, "slow"));
  for (int i = 0; i < ok_pairs; ++i) {
    sweep.runs.push_back(pair_run(fmt::format("node{:04}", 100 + 2 * i),
                                  fmt::format("node{:04}", 101 + 2 * i), 355.0, "ok"));
  }
  SweepRun split = pair_run("node0042", "node0100", 228.0, "slow");
  split.round = 2;
  sweep.runs.push_back(split);
  SweepRun good_partner = pair_run("node0514", "node0101", 356.0, "ok");  // the other end
  good_partner.round = 2;
  sweep.runs.push_back(good_partner);
  SweepRun failed = pair_run("node0007", "node0008", 0.0, "failed");
  failed.gbps.reset();
  failed.detail = "timeout after 60 s";
  sweep.runs.push_back(failed);
  SweepRun group = pair_run("node0001", "", 180.0, "ok");
  group.test = "all_reduce_perf";
  group.device.clear();
  group.server_device.clear();
  group.hosts = {"node0001", "node0002", "node0003", "node0004"};
  group.busbw_gbyte_s = 22.5;
  group.expected_gbps = 160.0;
  sweep.runs.push_back(group);
  sweep.json = R"({"format":"netdoctor-sweep","version":1,"verdict":"slow-found",
    "slow":[{"entity":"nic:node0042/mlx5_0","measured_gbps":231.4,"expected_gbps":360.0,
             "evidence":[]}]})";
  return sweep;
}

std::int64_t open_incident(Database& db) {
  IncidentRepository incidents(db);
  auto id = incidents.open("slowdown", "hosts node[0001-1024]", k_at - 60.0);
  EXPECT_TRUE(id.ok());
  return id.ok() ? *id : 0;
}

using StoreSweep = StoreTest;

TEST_F(StoreSweep, AddThenForIncidentGivesBackEveryFieldOldestFirst) {
  std::int64_t incident = open_incident(*m_db);
  SweepRepository sweeps(*m_db);
  SweepRecord later = slow_sweep(incident, 2);
  later.created_at = k_at + 3600.0;
  later.verdict = "all-healthy";
  later.slow_entities.clear();
  for (SweepRun& run : later.runs) {
    run.result = "ok";
  }
  auto later_id = sweeps.add(later);
  auto first_id = sweeps.add(slow_sweep(incident, 2));
  ASSERT_TRUE(later_id.ok() && first_id.ok());

  auto stored = sweeps.for_incident(incident);
  ASSERT_TRUE(stored.ok()) << stored.error().describe();
  ASSERT_EQ(stored->size(), 2u);
  const SweepRecord& first = stored->front();
  EXPECT_EQ(first.id, *first_id);
  EXPECT_EQ(stored->back().id, *later_id);
  EXPECT_EQ(first.incident_id, incident);
  EXPECT_EQ(first.hosts_spec, "node[0001-1024]");
  EXPECT_EQ(first.verdict, "slow-found");
  EXPECT_EQ(first.slow_entities, std::vector<std::string>{"nic:node0042/mlx5_0"});
  EXPECT_EQ(first.json, slow_sweep(incident, 2).json);
  ASSERT_EQ(first.runs.size(), 7u);
  const SweepRun& slow = first.runs.front();
  EXPECT_EQ(slow.client, "node0042");
  EXPECT_EQ(slow.server_device, "mlx5_0");
  EXPECT_EQ(slow.gbps, 231.4);
  EXPECT_FALSE(slow.lat_us.has_value());
  EXPECT_EQ(slow.expected_from, "line-rate");
  EXPECT_EQ(slow.measured_at, k_at + 10.0);
  const SweepRun& failed = first.runs[5];
  EXPECT_EQ(failed.result, "failed");
  EXPECT_FALSE(failed.gbps.has_value());
  EXPECT_EQ(failed.detail, "timeout after 60 s");
  const SweepRun& group = first.runs.back();
  EXPECT_EQ(group.hosts.size(), 4u);
  EXPECT_EQ(group.busbw_gbyte_s, 22.5);
  EXPECT_EQ(stored->back().runs.size(), 7u);
}

TEST_F(StoreSweep, RunsAreQueryableAsTheIncidentsPerftestRuns) {
  std::int64_t incident = open_incident(*m_db);
  std::int64_t other = open_incident(*m_db);
  SweepRepository sweeps(*m_db);
  ASSERT_TRUE(sweeps.add(slow_sweep(incident, 3)).ok());
  ASSERT_TRUE(sweeps.add(slow_sweep(other, 1)).ok());
  auto stmt = m_db->prepare(
      "SELECT count(*) FROM sweep_runs WHERE incident_id = ? AND test = 'ib_write_bw' AND "
      "client = 'node0042' AND result = 'slow'");
  ASSERT_TRUE(stmt.ok());
  stmt->bind(1, incident);
  ASSERT_TRUE(*stmt->step());
  EXPECT_EQ(stmt->int64(0), 2);
}

TEST_F(StoreSweep, UnknownIncidentIsNotFoundAndNothingIsStored) {
  SweepRepository sweeps(*m_db);
  auto added = sweeps.add(slow_sweep(42, 1));
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code, ErrorCode::NotFound);
  auto stmt = m_db->prepare(
      "SELECT (SELECT count(*) FROM sweeps) + (SELECT count(*) FROM "
      "sweep_runs)");
  ASSERT_TRUE(stmt.ok() && *stmt->step());
  EXPECT_EQ(stmt->int64(0), 0);
}

TEST_F(StoreSweep, VerdictOrResultOutsideTheContractIsRefused) {
  std::int64_t incident = open_incident(*m_db);
  SweepRepository sweeps(*m_db);
  SweepRecord bad_verdict = slow_sweep(incident, 1);
  bad_verdict.verdict = "<b>fine</b>";
  EXPECT_EQ(sweeps.add(bad_verdict).error().code, ErrorCode::InvalidArgument);
  SweepRecord bad_result = slow_sweep(incident, 1);
  bad_result.runs[1].result = "meh";
  auto refused = sweeps.add(bad_result);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(has(refused.error().message, "run 2")) << refused.error().message;
  EXPECT_TRUE(sweeps.for_incident(incident)->empty());
}

TEST(StoreSweepMigration, ADatabaseOfThePreviousSchemaGainsSweepsAndKeepsItsRecords) {
  const std::string path = netdoctor::testing::make_temp_dir("sweep-migrate") + "/nd.db";
  const int previous = 2;  // sweeps came with schema 3
  ASSERT_GT(latest_schema_version(), previous);
  std::int64_t incident = 0;
  {
    DatabaseOptions stage;
    stage.migrate = false;
    auto db = Database::open(path, stage);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(migrate(*db, previous).ok());
    incident = open_incident(*db);
    PerfRun baseline;
    baseline.client = "node01";
    baseline.server = "node02";
    baseline.device = "mlx5_0";
    baseline.test = "ib_write_bw";
    baseline.bw_gbps = 97.0;
    baseline.measured_at = k_at;
    baseline.source = "bundle b";
    ASSERT_TRUE(BaselineRepository(*db).add({baseline}).ok());
    EXPECT_FALSE(db->prepare("SELECT * FROM sweeps").ok());
  }
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().describe();
  EXPECT_EQ(*db->user_version(), latest_schema_version());
  EXPECT_EQ(IncidentRepository(*db).get(incident)->scope, "hosts node[0001-1024]");
  EXPECT_EQ(BaselineRepository(*db).list()->size(), 1u);
  SweepRepository sweeps(*db);
  ASSERT_TRUE(sweeps.add(slow_sweep(incident, 1)).ok());
  EXPECT_EQ(sweeps.for_incident(incident)->size(), 1u);
}

TEST_F(StoreSweep, PostmortemMarkdownListsWhatMattersAndCountsTheRest) {
  std::int64_t incident = open_incident(*m_db);
  ASSERT_TRUE(SweepRepository(*m_db).add(slow_sweep(incident, 500)).ok());
  auto data = load_postmortem(*m_db, incident);
  ASSERT_TRUE(data.ok()) << data.error().describe();
  ASSERT_EQ(data->sweeps.size(), 1u);
  const std::string md = render_postmortem_markdown(*data);

  EXPECT_TRUE(has(md, "## Active tests")) << md;
  EXPECT_TRUE(has(md, "### Sweep #1, 2025-12-02T08:00:00Z: slow-found")) << md;
  EXPECT_TRUE(has(md, "- Hosts: node\\[0001-1024\\]")) << md;
  EXPECT_TRUE(has(md, "- Verdict: **slow-found**: nic:node0042/mlx5\\_0 is slow")) << md;
  EXPECT_TRUE(has(md, "- Runs: 505 runs (2 slow, 1 failed)")) << md;
  EXPECT_TRUE(has(md, "| nic:node0042/mlx5\\_0 | 231.4 Gb/s | 360.0 Gb/s | 35.7 % |")) << md;
  // Slow and failed runs, and the runs touching the slow NIC (none other here).
  EXPECT_TRUE(has(md, "| 1 | ib\\_write\\_bw | node0042/mlx5\\_0 -> node0514/mlx5\\_0 | slow |"))
      << md;
  EXPECT_TRUE(has(md, "| 2 | ib\\_write\\_bw | node0042/mlx5\\_0 -> node0100/mlx5\\_0 | slow |"))
      << md;
  EXPECT_TRUE(has(md, "| failed | - | 360.0 Gb/s (line-rate) | timeout after 60 s |")) << md;
  EXPECT_FALSE(has(md, "node0514/mlx5\\_0 -> node0101")) << md;
  EXPECT_FALSE(has(md, "all\\_reduce\\_perf")) << md;
  EXPECT_TRUE(has(md, fmt::format("502 other runs were ok (every run: `netdoctor incident export "
                                  "{} --format json`)",
                                  incident)))
      << md;
  EXPECT_TRUE(has(md, "| sweep #1: slow-found, 505 runs (2 slow, 1 failed) |")) << md;
  EXPECT_LT(md.size(), 4'000u) << "the 500 ok runs must not be printed";
}

TEST_F(StoreSweep, PostmortemMarkdownShowsRunsTouchingASlowHostOfAnyKind) {
  std::int64_t incident = open_incident(*m_db);
  SweepRecord sweep = slow_sweep(incident, 3);
  sweep.slow_entities = {"host:node0003"};  // in the nccl-tests group only
  ASSERT_TRUE(SweepRepository(*m_db).add(sweep).ok());
  const std::string md = render_postmortem_markdown(*load_postmortem(*m_db, incident));
  EXPECT_TRUE(has(md, "| host:node0003 | - | - | - |")) << md;
  EXPECT_TRUE(has(md,
                  "| 1 | all\\_reduce\\_perf | 4 hosts: node0001, node0002, node0003, "
                  "node0004 | ok | 180.0 Gb/s |"))
      << md;
  EXPECT_TRUE(has(md, "4 other runs were ok")) << md;
}

TEST_F(StoreSweep, HostileHostNamesCannotInjectMarkdownOrHtml) {
  const std::string hostile = "node<script>|x";
  auto incident = IncidentRepository(*m_db).open("slowdown", "hosts " + hostile, k_at - 60.0);
  ASSERT_TRUE(incident.ok());
  SweepRecord sweep = slow_sweep(*incident, 1);
  sweep.hosts_spec = hostile + ",[a](javascript:b)";
  sweep.summary = "nic:" + hostile + "/mlx5_0 is slow\n# heading";
  sweep.slow_entities = {"nic:" + hostile + "/mlx5_0"};
  sweep.runs.front().client = hostile;
  sweep.runs.front().detail = "**bold** `code` &amp;";
  ASSERT_TRUE(SweepRepository(*m_db).add(sweep).ok());
  const std::string md = render_postmortem_markdown(*load_postmortem(*m_db, *incident));

  EXPECT_TRUE(has(md, "- Scope: hosts node\\<script>\\|x\n")) << md;
  // A raw '<' would open HTML, a raw '|' split the table cell.
  EXPECT_TRUE(always_escaped(md, "<")) << md;
  EXPECT_TRUE(always_escaped(md, "|x")) << md;
  EXPECT_TRUE(has(md, "node\\<script>\\|x")) << md;
  EXPECT_TRUE(has(md, "- Hosts: node\\<script>\\|x,\\[a\\](javascript:b)")) << md;
  EXPECT_FALSE(has(md, "\n# heading")) << md;
  EXPECT_TRUE(has(md, "\\*\\*bold\\*\\* \\`code\\` \\&amp;")) << md;
  // The escaped name is still a run touching the slow NIC: the row is there.
  EXPECT_TRUE(has(md, "| 1 | ib\\_write\\_bw | node\\<script>\\|x/mlx5\\_0 -> ")) << md;
}

TEST_F(StoreSweep, PostmortemJsonCarriesEverySweepRunAndTheConclusion) {
  std::int64_t incident = open_incident(*m_db);
  ASSERT_TRUE(SweepRepository(*m_db).add(slow_sweep(incident, 500)).ok());
  const nlohmann::json json = render_postmortem_json(*load_postmortem(*m_db, incident));
  ASSERT_EQ(json["sweeps"].size(), 1u);
  const nlohmann::json& sweep = json["sweeps"][0];
  EXPECT_EQ(sweep["verdict"], "slow-found");
  EXPECT_EQ(sweep["hosts"], "node[0001-1024]");
  EXPECT_EQ(sweep["created_at"], "2025-12-02T08:00:00Z");
  EXPECT_EQ(sweep["slow"][0]["entity"], "nic:node0042/mlx5_0");
  EXPECT_EQ(sweep["slow"][0]["measured_gbps"], 231.4);
  EXPECT_EQ(sweep["slow"][0]["expected_gbps"], 360.0);
  ASSERT_EQ(sweep["runs"].size(), 505u);
  EXPECT_EQ(sweep["runs"][0]["result"], "slow");
  EXPECT_TRUE(sweep["runs"][503]["gbps"].is_null());
  EXPECT_EQ(sweep["runs"][504]["hosts"].size(), 4u);
  EXPECT_EQ(sweep["runs"][504]["busbw_gbyte_s"], 22.5);
}

TEST_F(StoreSweep, PostmortemWithoutSweepsSaysSo) {
  std::int64_t incident = open_incident(*m_db);
  auto data = load_postmortem(*m_db, incident);
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(has(render_postmortem_markdown(*data), "## Active tests\n\nNo sweep was run.\n"));
  EXPECT_TRUE(render_postmortem_json(*data)["sweeps"].empty());
}

}  // namespace
}  // namespace netdoctor::store
