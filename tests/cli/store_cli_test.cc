// Drives the real `netdoctor` binary against a database in a temp dir: the change log, the
// one-open-change rule, rollback, export, baselines, and where the database lives.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/store_glue.h"
#include "store/change_repository.h"
#include "store/database.h"
#include "store/incident_repository.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::make_temp_dir;
using netdoctor::testing::read_text;

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

// The real binary, no shell, in a clean environment (no NETDOCTOR_DB or XDG_DATA_HOME, HOME a
// fresh sandbox) plus `env`, which may replace HOME.
CliRun netdoctor(const std::vector<std::string>& args,
                 const std::vector<std::pair<std::string, std::string>>& env = {}) {
  netdoctor::testing::RunOptions options;
  options.env = env;
  const netdoctor::testing::RunOutput run = netdoctor::testing::run_netdoctor(args, options);
  return CliRun{run.exit_code, run.out, run.err};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// An incident as `diagnose` would leave it, written through the store.
std::int64_t seed_incident(const std::string& db_path) {
  auto db = store::Database::open(db_path);
  EXPECT_TRUE(db.ok());
  store::DiagnosisRecord record;
  record.created_at = 1'764'662'400.0;
  record.symptom = "slowdown";
  record.scope = "bundle pfc-storm.tar.gz";
  record.verdict = "root-cause-found";
  record.json = "{}";
  store::CauseRow cause;
  cause.id = "pfc-storm";
  cause.title = "PFC storm";
  cause.confidence = 0.9;
  cause.entities = {"nic:node07/mlx5_2"};
  cause.evidence.push_back(
      {"pfc-pause", "pause-storm", "node07/mlx5_2 sends 41k pause/s", 0.8, 41000.0, 200.0, "/s"});
  record.causes.push_back(cause);
  store::IncidentRepository incidents(*db);
  auto stored = incidents.add_diagnosis(record);
  EXPECT_TRUE(stored.ok());
  return stored.ok() ? stored->incident_id : 0;
}

class StoreCli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = make_temp_dir("store-cli");
    m_db = m_dir + "/nd.db";
    m_incident = std::to_string(seed_incident(m_db));
  }

  CliRun record(const std::string& var, const std::string& from, const std::string& to,
                bool force = false) {
    std::vector<std::string> args = {"change",     "record",   "--db",     m_db,
                                     "--incident", m_incident, "--entity", "nic:node07/mlx5_2",
                                     "--var",      var,        "--from",   from,
                                     "--to",       to,         "--why",    "pause storm"};
    if (force) {
      args.push_back("--force");
    }
    return netdoctor(args);
  }

  std::string m_dir;
  std::string m_db;
  std::string m_incident;
};

TEST_F(StoreCli, RecordRefuseRollbackThenRecordAgain) {
  CliRun first = record("ecn_min_threshold", "150KB", "50KB");
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_TRUE(has(first.out, "change #1 recorded")) << first.out;
  EXPECT_TRUE(has(first.out, "netdoctor change verify 1 --bundle")) << first.out;

  CliRun second = record("pfc_priorities", "3,4", "3");
  EXPECT_EQ(second.code, 1);
  EXPECT_TRUE(has(second.err, "refused")) << second.err;
  EXPECT_TRUE(has(second.err, "#1 nic:node07/mlx5_2 ecn_min_threshold 150KB -> 50KB"))
      << second.err;
  EXPECT_TRUE(has(second.err, "unreadable")) << second.err;

  CliRun listed = netdoctor({"change", "list", "--db", m_db, "--incident", m_incident});
  ASSERT_EQ(listed.code, 0) << listed.err;
  EXPECT_TRUE(has(listed.out, "[open]")) << listed.out;
  EXPECT_FALSE(has(listed.out, "pfc_priorities")) << listed.out;

  CliRun rollback = netdoctor({"change", "rollback", "1", "--db", m_db});
  ASSERT_EQ(rollback.code, 0) << rollback.err;
  EXPECT_TRUE(has(rollback.out,
                  "--entity nic:node07/mlx5_2 --var ecn_min_threshold --from 50KB --to 150KB"))
      << rollback.out;

  CliRun again = record("pfc_priorities", "3,4", "3");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_TRUE(has(again.out, "change #2 recorded")) << again.out;

  CliRun twice = netdoctor({"change", "rollback", "1", "--db", m_db});
  EXPECT_EQ(twice.code, 1);
  EXPECT_TRUE(has(twice.err, "already rolled back")) << twice.err;
}

TEST_F(StoreCli, ForcedSecondChangeIsRecordedAndSaysSo) {
  ASSERT_EQ(record("ecn_min_threshold", "150KB", "50KB").code, 0);
  CliRun forced = record("pfc_priorities", "3,4", "3", /*force=*/true);
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_TRUE(has(forced.out, "--force while change #1")) << forced.out;
  CliRun listed = netdoctor({"change", "list", "--db", m_db, "--format", "json"});
  ASSERT_EQ(listed.code, 0);
  auto rows = nlohmann::json::parse(listed.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0]["forced_note"].get<std::string>().empty());
  EXPECT_TRUE(has(rows[1]["forced_note"].get<std::string>(), "#1"));
}

TEST_F(StoreCli, ExportMarkdownHasTheChangeItsVerdictAndTheRollback) {
  ASSERT_EQ(record("pfc_priorities", "3,4", "3").code, 0);
  ASSERT_EQ(netdoctor({"change", "rollback", "1", "--db", m_db}).code, 0);
  ASSERT_EQ(record("ecn_min_threshold", "150KB", "50KB").code, 0);
  {
    // The verification itself needs the engine (incident_e2e_test); store its outcome directly.
    auto db = store::Database::open(m_db);
    ASSERT_TRUE(db.ok());
    store::ChangeRepository changes(*db);
    ASSERT_TRUE(changes
                    .verify({2,
                             1'764'663'000.0,
                             store::ChangeVerdict::Improved,
                             "healthy.tar.gz",
                             {{"pfc-pause/pause-storm", "/s", 41000.0, 150.0, true}}})
                    .ok());
  }
  ASSERT_EQ(netdoctor({"incident", "close", m_incident, "--db", m_db, "--cause", "pfc-storm",
                       "--summary", "ECN threshold lowered on leaf2"})
                .code,
            0);
  std::string file = m_dir + "/postmortem.md";
  CliRun exported = netdoctor(
      {"incident", "export", m_incident, "--format", "md", "--db", m_db, "--output", file});
  ASSERT_EQ(exported.code, 0) << exported.err;
  std::string md = read_text(file);
  for (const char* expected :
       {"# Postmortem: incident 1 (slowdown)", "ECN threshold lowered on leaf2",
        "ecn\\_min\\_threshold 150KB -> 50KB", "**improved**", "41000 /s", "150 /s",
        "## Rolled back", "--var pfc_priorities --from 3 --to 3,4", "## Timeline",
        "## Follow-ups"}) {
    EXPECT_TRUE(has(md, expected)) << expected << "\n" << md;
  }
  CliRun json = netdoctor({"incident", "export", m_incident, "--format", "json", "--db", m_db});
  ASSERT_EQ(json.code, 0) << json.err;
  auto parsed = nlohmann::json::parse(json.out);
  EXPECT_EQ(parsed["changes"][1]["verdict"], "improved");
  EXPECT_EQ(parsed["incident"]["status"], "closed");
}

TEST_F(StoreCli, IncidentListAndShow) {
  ASSERT_EQ(record("ecn_min_threshold", "150KB", "50KB").code, 0);
  CliRun list = netdoctor({"incident", "list", "--db", m_db});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_TRUE(has(list.out, "slowdown")) << list.out;
  EXPECT_TRUE(has(list.out, "pfc-storm")) << list.out;
  CliRun show = netdoctor({"incident", "show", m_incident, "--db", m_db});
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_TRUE(has(show.out, "41k pause/s")) << show.out;
  EXPECT_TRUE(has(show.out, "ecn_min_threshold 150KB -> 50KB [open]")) << show.out;
  CliRun missing = netdoctor({"incident", "show", "99", "--db", m_db});
  EXPECT_EQ(missing.code, 1);
  EXPECT_TRUE(has(missing.err, "no incident 99")) << missing.err;
}

TEST(StoreCliDbPath, EnvironmentAndXdgDecideWhereTheDatabaseIs) {
  std::string dir = make_temp_dir("dbpath");
  CliRun via_env = netdoctor({"incident", "list"}, {{"NETDOCTOR_DB", dir + "/env.db"}});
  ASSERT_EQ(via_env.code, 0) << via_env.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/env.db"));
  CliRun via_xdg = netdoctor({"change", "list"}, {{"XDG_DATA_HOME", dir + "/xdg"}});
  ASSERT_EQ(via_xdg.code, 0) << via_xdg.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/xdg/netdoctor/netdoctor.db"));
  CliRun via_home = netdoctor({"baseline", "list"}, {{"HOME", dir + "/home"}});
  ASSERT_EQ(via_home.code, 0) << via_home.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/home/.local/share/netdoctor/netdoctor.db"));
  // --db wins over the environment.
  CliRun flag = netdoctor({"incident", "list", "--db", dir + "/flag.db"},
                          {{"NETDOCTOR_DB", dir + "/other.db"}});
  ASSERT_EQ(flag.code, 0) << flag.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/flag.db"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/other.db"));
}

TEST(StoreCliDbPath, DatabaseFromANewerNetdoctorIsRefused) {
  std::string path = make_temp_dir("newer-cli") + "/nd.db";
  {
    auto db = store::Database::open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("PRAGMA user_version = 50").ok());
  }
  CliRun run = netdoctor({"incident", "list", "--db", path});
  EXPECT_EQ(run.code, 1);
  EXPECT_TRUE(has(run.err, "newer than this netdoctor")) << run.err;
}

// A perftest client output with one bandwidth row.
std::string bw_output(const std::string& device, double gbps) {
  return "---------------------------------------------------------------------------------------\n"
         "                    RDMA_Write BW Test\n"
         " Dual-port       : OFF\t\tDevice         : " +
         device +
         "\n"
         " Number of qps   : 1\t\tTransport type : IB\n"
         " Connection type : RC\t\tUsing SRQ      : OFF\n"
         " Link type       : Ethernet\n"
         "---------------------------------------------------------------------------------------\n"
         " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
         " 65536      5000             " +
         std::to_string(gbps + 0.5) + "             " + std::to_string(gbps) +
         " \t\t   0.364584\n"
         "---------------------------------------------------------------------------------------"
         "\n";
}

void write_run(const std::string& bundle, const std::string& kind, const std::string& client,
               const std::string& server, const std::string& device, double gbps) {
  std::string dir = bundle + "/" + kind + "/" + client + "__" + server;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/ib_write_bw_-d_" + device + "_--report_gbits_" + server)
      << bw_output(device, gbps);
}

TEST(StoreCliBaseline, ImportThenCheckFlagsSixPercentNotFourAndNeverCrossesDevices) {
  std::string dir = make_temp_dir("baseline-cli");
  std::string bundle = dir + "/bundle";
  std::filesystem::create_directories(bundle + "/hosts");
  write_run(bundle, "perftest-baseline", "node01", "node02", "mlx5_0", 100.0);
  write_run(bundle, "perftest-baseline", "node03", "node04", "mlx5_0", 100.0);
  write_run(bundle, "perftest-baseline", "node05", "node06", "mlx5_0", 400.0);
  write_run(bundle, "perftest", "node01", "node02", "mlx5_0", 94.0);
  write_run(bundle, "perftest", "node03", "node04", "mlx5_0", 96.0);
  write_run(bundle, "perftest", "node05", "node06", "mlx5_1", 100.0);  // another device
  std::string db = dir + "/nd.db";

  CliRun imported = netdoctor({"baseline", "import", "--bundle", bundle, "--db", db});
  ASSERT_EQ(imported.code, 0) << imported.err;
  EXPECT_TRUE(has(imported.out, "imported 3 baseline runs")) << imported.out;

  CliRun shown = netdoctor({"baseline", "show", "node01__node02", "--db", db});
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_TRUE(has(shown.out, "100.00 Gb/s")) << shown.out;

  CliRun checked =
      netdoctor({"baseline", "check", "--bundle", bundle, "--db", db, "--format", "json"});
  ASSERT_EQ(checked.code, 0) << checked.err;
  auto report = nlohmann::json::parse(checked.out);
  ASSERT_EQ(report["comparisons"].size(), 3u);
  std::map<std::string, nlohmann::json> by_pair;
  for (const auto& item : report["comparisons"]) {
    by_pair[item["current"]["pair"].get<std::string>()] = item;
  }
  EXPECT_TRUE(by_pair["node01__node02"]["deviates"].get<bool>());
  EXPECT_FALSE(by_pair["node03__node04"]["deviates"].get<bool>());
  EXPECT_TRUE(by_pair["node05__node06"]["baseline"].is_null());
  EXPECT_FALSE(by_pair["node05__node06"]["deviates"].get<bool>());
  EXPECT_EQ(report["deviating"], 1);

  CliRun loose =
      netdoctor({"baseline", "check", "--bundle", bundle, "--db", db, "--threshold", "7%"});
  ASSERT_EQ(loose.code, 0) << loose.err;
  EXPECT_TRUE(has(loose.out, "0 of 3 runs deviate")) << loose.out;
  CliRun text = netdoctor({"baseline", "check", "--bundle", bundle, "--db", db});
  EXPECT_TRUE(has(text.out, "DEVIATION")) << text.out;
  EXPECT_TRUE(has(text.out, "no baseline for this pair/device/test")) << text.out;
}

// Thread-safe canned runner: the server side runs on its own thread during capture.
class PerftestRunner final : public CommandRunner {
 public:
  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options) override {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::string line;
    for (const auto& arg : argv) {
      line += (line.empty() ? "" : " ") + arg;
    }
    m_ran.push_back(line);
    m_timeouts.push_back(options.timeout);
    CommandOutput output;
    output.exit_code = 0;
    bool client = argv.back() == "node02" || argv.back() == "node04";
    if (client && line.find("ib_write_bw") != std::string::npos) {
      if (line.find("node03") != std::string::npos) {
        output.timed_out = true;  // this pair's client never finishes
        output.exit_code = -1;
      }
      output.out = bw_output("mlx5_0", 94.0);
    }
    return output;
  }
  std::vector<std::string> ran() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_ran;
  }
  std::vector<std::chrono::milliseconds> m_timeouts;

 private:
  std::mutex m_mutex;
  std::vector<std::string> m_ran;
};

TEST(BaselineCapture, ServerStartsFirstClientSecondBothWithTimeoutsFailuresReported) {
  auto pairs = parse_pairs("# client server device\nnode01 node02 mlx5_0\nnode03 node04\n");
  ASSERT_TRUE(pairs.ok());
  ASSERT_EQ(pairs->size(), 2u);
  PerftestRunner runner;
  SystemClock clock;
  CaptureOptions options;
  options.device = "mlx5_1";
  options.timeout = std::chrono::milliseconds(5'000);
  options.server_head_start = std::chrono::milliseconds(100);
  options.tests = {"ib_write_bw"};
  std::ostringstream progress;
  auto runs = capture_baselines(runner, clock, *pairs, options, progress);
  auto ran = runner.ran();
  ASSERT_EQ(ran.size(), 4u);
  EXPECT_EQ(ran[0], "ssh -o BatchMode=yes node02 ib_write_bw -d mlx5_0 --report_gbits");
  EXPECT_EQ(ran[1], "ssh -o BatchMode=yes node01 ib_write_bw -d mlx5_0 --report_gbits node02");
  EXPECT_EQ(ran[2], "ssh -o BatchMode=yes node04 ib_write_bw -d mlx5_1 --report_gbits");
  EXPECT_EQ(ran[3], "ssh -o BatchMode=yes node03 ib_write_bw -d mlx5_1 --report_gbits node04");
  for (auto timeout : runner.m_timeouts) {
    EXPECT_EQ(timeout, std::chrono::milliseconds(5'000));
  }
  ASSERT_EQ(runs.size(), 1u);  // the timed-out pair is reported, not stored
  EXPECT_EQ(runs[0].pair(), "node01__node02");
  EXPECT_EQ(runs[0].device, "mlx5_0");
  EXPECT_NEAR(runs[0].bw_gbps.value_or(0.0), 94.0, 1e-6);
  EXPECT_EQ(runs[0].source, "live");
  EXPECT_TRUE(has(progress.str(), "[1/2] node01 -> node02 mlx5_0 ib_write_bw: 94.00 Gb/s"))
      << progress.str();
  EXPECT_TRUE(has(progress.str(),
                  "[2/2] node03 -> node04 mlx5_1 ib_write_bw: failed: client "
                  "timed out"))
      << progress.str();
}

TEST(BaselineCapture, MalformedPairsLineIsNamed) {
  auto pairs = parse_pairs("node01 node02\nnode03\n");
  ASSERT_FALSE(pairs.ok());
  EXPECT_TRUE(has(pairs.error().message, "line 2")) << pairs.error().message;
}

TEST(StoreGlueDbPath, FlagThenEnvThenXdgThenHome) {
  EXPECT_EQ(*resolve_db_path({"/a.db", "/b.db", "", "/x", "/h"}), "/a.db");
  EXPECT_EQ(*resolve_db_path({"", "/b.db", "", "/x", "/h"}), "/b.db");
  EXPECT_EQ(*resolve_db_path({"", "", "", "/x", "/h"}), "/x/netdoctor/netdoctor.db");
  EXPECT_EQ(*resolve_db_path({"", "", "", "relative", "/h"}),
            "/h/.local/share/netdoctor/netdoctor.db");
  EXPECT_FALSE(resolve_db_path({"", "", "", "", ""}).ok());
}

TEST(StoreGlueDbPath, TheConfiguredDatabaseComesAfterTheEnvironmentBeforeXdg) {
  EXPECT_EQ(*resolve_db_path({"", "", "/site.db", "/x", "/h"}), "/site.db");
  EXPECT_EQ(*resolve_db_path({"", "", "/site.db", "", ""}), "/site.db");
  EXPECT_EQ(*resolve_db_path({"", "/b.db", "/site.db", "/x", "/h"}), "/b.db");
  EXPECT_EQ(*resolve_db_path({"/a.db", "/b.db", "/site.db", "/x", "/h"}), "/a.db");
  const DbPathSources sources = DbPathSources::from_environment("/a.db", "/site.db");
  EXPECT_EQ(sources.flag, "/a.db");
  EXPECT_EQ(sources.configured, "/site.db");
  EXPECT_EQ(sources.env_db, env_or_empty("NETDOCTOR_DB"));
}

}  // namespace
}  // namespace netdoctor::cli
