// Sweeps through the real `netdoctor`: `baseline import --sweep` (only an all-healthy sweep's
// perftest pairs measured ok become baselines; every refusal names the file) and `incident
// export`/`show` of an incident holding a sweep.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "store/database.h"
#include "store/incident_repository.h"
#include "store/sweep_repository.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::RunOutput;

RunOutput netdoctor(const std::vector<std::string>& args) {
  return netdoctor::testing::run_netdoctor(args, netdoctor::testing::RunOptions{});
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

nlohmann::json pair_run(const std::string& client, const std::string& server,
                        const nlohmann::json& gbps, const std::string& result) {
  return {{"round", 1},
          {"test", "ib_write_bw"},
          {"client", client},
          {"server", server},
          {"device", "mlx5_0"},
          {"server_device", "mlx5_0"},
          {"hosts", nlohmann::json::array()},
          {"gbps", gbps},
          {"lat_us", nullptr},
          {"busbw_gbyte_s", nullptr},
          {"expected_gbps", 360.0},
          {"expected_from", "line-rate"},
          {"result", result},
          {"detail", ""},
          {"seconds", 7.0}};
}

// docs/sweep.md's JSON: three healthy pairs (one with its own measured_at), a failed pair and
// an nccl-tests group, which are not pairs measured ok.
nlohmann::json healthy_sweep() {
  nlohmann::json runs = nlohmann::json::array();
  runs.push_back(pair_run("node01", "node02", 355.5, "ok"));
  runs.push_back(pair_run("node03", "node04", 351.0, "ok"));
  runs.push_back(pair_run("node05", "node06", 349.0, "ok"));
  runs.back()["measured_at"] = 1'764'662'500.0;
  runs.push_back(pair_run("node07", "node08", nullptr, "failed"));
  nlohmann::json group = pair_run("node01", "", 180.0, "ok");
  group["test"] = "all_reduce_perf";
  group["device"] = "";
  group["server_device"] = "";
  group["hosts"] = {"node01", "node02", "node03", "node04"};
  runs.push_back(group);
  return {{"format", "netdoctor-sweep"},
          {"version", 1},
          {"verdict", "all-healthy"},
          {"summary", "every NIC measured within 5 % of its expected rate"},
          {"created_at", 1'764'662'400.0},
          {"hosts", 8},
          {"slow", nlohmann::json::array()},
          {"runs", runs}};
}

class SweepBaselineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = netdoctor::testing::make_temp_dir("sweep-baseline-cli");
    m_db = m_dir + "/nd.db";
  }

  std::string write(const std::string& name, const std::string& text) {
    const std::string path = m_dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  RunOutput import(const std::string& path) {
    return netdoctor({"baseline", "import", "--sweep", path, "--db", m_db});
  }

  nlohmann::json stored() {
    RunOutput list = netdoctor({"baseline", "list", "--format", "json", "--db", m_db});
    EXPECT_EQ(list.exit_code, 0) << list.err;
    return nlohmann::json::parse(list.out, nullptr, false);
  }

  // The refusal of `text` as a sweep: exit 1, the file named, `why` said, nothing stored.
  void expect_refused(const std::string& name, const std::string& text, const std::string& why) {
    const std::string path = write(name, text);
    RunOutput refused = import(path);
    EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
    EXPECT_TRUE(has(refused.err, path)) << refused.err;
    EXPECT_TRUE(has(refused.err, why)) << refused.err;
    EXPECT_TRUE(stored().empty());
  }

  std::string m_dir;
  std::string m_db;
};

TEST_F(SweepBaselineCli, HealthySweepsPairsMeasuredOkBecomeBaselines) {
  const std::string path = write("healthy.json", healthy_sweep().dump(2));
  RunOutput imported = import(path);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_TRUE(has(imported.out, "imported 3 baseline runs from " + path)) << imported.out;
  EXPECT_TRUE(has(imported.out, "node01__node02")) << imported.out;

  nlohmann::json runs = stored();
  ASSERT_EQ(runs.size(), 3u) << runs.dump(2);
  EXPECT_EQ(runs[0]["pair"], "node01__node02");
  EXPECT_EQ(runs[0]["device"], "mlx5_0");
  EXPECT_EQ(runs[0]["test"], "ib_write_bw");
  EXPECT_EQ(runs[0]["bw_gbps"], 355.5);
  EXPECT_EQ(runs[0]["source"], path);
  EXPECT_EQ(runs[0]["measured_at"], "2025-12-02T08:00:00Z");  // the sweep's created_at
  EXPECT_EQ(runs[2]["measured_at"], "2025-12-02T08:01:40Z");  // the run's own
  for (const auto& run : runs) {
    EXPECT_NE(run["pair"], "node07__node08");  // failed
    EXPECT_NE(run["pair"], "node01__");        // the nccl-tests group
  }
}

TEST_F(SweepBaselineCli, SweepThatIsNotAllHealthyIsRefusedWithItsVerdict) {
  nlohmann::json slow = healthy_sweep();
  slow["verdict"] = "slow-found";
  expect_refused("slow.json", slow.dump(), "verdict is 'slow-found', not all-healthy");
  nlohmann::json inconclusive = healthy_sweep();
  inconclusive["verdict"] = "inconclusive";
  expect_refused("inconclusive.json", inconclusive.dump(), "'inconclusive'");
}

TEST_F(SweepBaselineCli, GarbageOrTruncatedJsonNamesTheFile) {
  expect_refused("garbage.json", "this is not json {", "garbage or truncated");
  const std::string whole = healthy_sweep().dump();
  expect_refused("truncated.json", whole.substr(0, whole.size() / 2), "garbage or truncated");
  expect_refused("array.json", "[1, 2]", "garbage or truncated");
  RunOutput missing = import(m_dir + "/absent.json");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(has(missing.err, m_dir + "/absent.json")) << missing.err;
}

TEST_F(SweepBaselineCli, WrongFormatOrVersionIsRefused) {
  nlohmann::json diagnosis = healthy_sweep();
  diagnosis["format"] = "netdoctor-diagnosis";
  expect_refused("diagnosis.json", diagnosis.dump(), "format is 'netdoctor-diagnosis'");
  nlohmann::json unformatted = healthy_sweep();
  unformatted.erase("format");
  expect_refused("unformatted.json", unformatted.dump(), "not 'netdoctor-sweep'");
  nlohmann::json newer = healthy_sweep();
  newer["version"] = 2;
  expect_refused("v2.json", newer.dump(), "netdoctor-sweep version 2");
  nlohmann::json no_pairs = healthy_sweep();
  no_pairs["runs"] = nlohmann::json::array();
  expect_refused("empty.json", no_pairs.dump(), "no perftest pair run");
}

TEST_F(SweepBaselineCli, SweepAndBundleExcludeEachOtherAndOneIsNeeded) {
  const std::string path = write("healthy.json", healthy_sweep().dump());
  RunOutput both =
      netdoctor({"baseline", "import", "--sweep", path, "--bundle", m_dir, "--db", m_db});
  EXPECT_EQ(both.exit_code, 2) << both.out << both.err;
  RunOutput neither = netdoctor({"baseline", "import", "--db", m_db});
  EXPECT_EQ(neither.exit_code, 2) << neither.out << neither.err;
  EXPECT_TRUE(has(neither.err, "--sweep")) << neither.err;
  EXPECT_TRUE(stored().empty());
}

TEST(SweepIncidentCli, ExportAndShowCarryTheSweepsConclusionAndRuns) {
  const std::string db_path = netdoctor::testing::make_temp_dir("sweep-incident-cli") + "/nd.db";
  std::int64_t incident = 0;
  {
    auto db = store::Database::open(db_path);
    ASSERT_TRUE(db.ok());
    auto opened = store::IncidentRepository(*db).open("slowdown", "hosts node[01-08]", 1.0e9);
    ASSERT_TRUE(opened.ok());
    incident = *opened;
    store::SweepRecord sweep;
    sweep.incident_id = incident;
    sweep.created_at = 1'764'662'400.0;
    sweep.hosts_spec = "node[01-08]";
    sweep.verdict = "slow-found";
    sweep.summary = "nic:node03/mlx5_0 is slow";
    sweep.slow_entities = {"nic:node03/mlx5_0"};
    for (const auto& [client, gbps, result] :
         {std::tuple{"node03", 200.0, "slow"}, std::tuple{"node01", 355.0, "ok"}}) {
      store::SweepRun run;
      run.test = "ib_write_bw";
      run.client = client;
      run.server = "node05";
      run.device = "mlx5_0";
      run.server_device = "mlx5_0";
      run.gbps = gbps;
      run.expected_gbps = 360.0;
      run.expected_from = "baseline";
      run.result = result;
      sweep.runs.push_back(run);
    }
    sweep.json = "{}";
    ASSERT_TRUE(store::SweepRepository(*db).add(sweep).ok());
  }
  const std::string id = std::to_string(incident);
  RunOutput md = netdoctor({"incident", "export", id, "--db", db_path, "--format", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  for (const char* expected :
       {"## Active tests", "- Verdict: **slow-found**: nic:node03/mlx5\\_0 is slow",
        "| nic:node03/mlx5\\_0 |", "node03/mlx5\\_0 -> node05/mlx5\\_0 | slow | 200.0 Gb/s",
        "1 other run was ok"}) {
    EXPECT_TRUE(has(md.out, expected)) << expected << "\n" << md.out;
  }
  RunOutput json = netdoctor({"incident", "export", id, "--db", db_path, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto postmortem = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_EQ(postmortem["sweeps"].size(), 1u) << json.out;
  EXPECT_EQ(postmortem["sweeps"][0]["verdict"], "slow-found");
  EXPECT_EQ(postmortem["sweeps"][0]["runs"].size(), 2u);
  RunOutput shown = netdoctor({"incident", "show", id, "--db", db_path});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(has(shown.out, "on node[01-08]: slow-found, 2 runs; nic:node03/mlx5_0 is slow"))
      << shown.out;
  EXPECT_TRUE(has(shown.out, "- slow: nic:node03/mlx5_0")) << shown.out;
}

}  // namespace
}  // namespace netdoctor::cli
