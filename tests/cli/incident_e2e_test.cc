// The working method end to end on the example bundles: diagnose a PFC storm -> an incident
// opens; record a change -> a second is refused until the first is verified; verify against
// a healthy capture -> improved, cause confirmed; export -> a postmortem with the timeline,
// the figures and the change with its verdict.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include "cli/store_glue.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "kb/store/incident_repository.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::make_temp_dir;
using netdoctor::testing::netdoctor_binary;
using netdoctor::testing::read_text;
using netdoctor::testing::shared_dir;

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

std::string quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

CliRun netdoctor(const std::vector<std::string>& args) {
  static int counter = 0;
  std::string dir = make_temp_dir("e2e-run" + std::to_string(counter++));
  std::string command = "env -u NETDOCTOR_DB -u XDG_DATA_HOME " + quote(netdoctor_binary());
  for (const std::string& arg : args) {
    command += " " + quote(arg);
  }
  command += " >" + dir + "/out 2>" + dir + "/err";
  int status = std::system(command.c_str());
  CliRun run;
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_text(dir + "/out");
  run.err = read_text(dir + "/err");
  return run;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string scenario(const std::string& name) {
  return shared_dir() + "/scenarios/" + name + ".tar.gz";
}

// From an open incident: record, refuse, verify on healthy data, record again, export.
void change_verify_export(const std::string& db, const std::string& incident) {
  CliRun first =
      netdoctor({"change", "record", "--db", db, "--incident", incident, "--entity",
                 "port:leaf2/Ethernet28", "--var", "ecn_min_threshold", "--from", "150KB", "--to",
                 "50KB", "--why", "senders should back off before PFC"});
  ASSERT_EQ(first.code, 0) << first.err;
  ASSERT_TRUE(has(first.out, "change #1 recorded")) << first.out;

  CliRun second =
      netdoctor({"change", "record", "--db", db, "--incident", incident, "--entity",
                 "nic:node07/mlx5_2", "--var", "pfc_priorities", "--from", "3,4", "--to", "3"});
  EXPECT_EQ(second.code, 1);
  EXPECT_TRUE(has(second.err, "#1")) << second.err;
  EXPECT_TRUE(has(second.err, "neither verified nor rolled back")) << second.err;

  CliRun verify = netdoctor({"change", "verify", "1", "--db", db, "--bundle", scenario("healthy")});
  ASSERT_EQ(verify.code, 0) << verify.err;
  EXPECT_TRUE(has(verify.out, "improved")) << verify.out;
  EXPECT_TRUE(has(verify.out, "confirmed by change #1")) << verify.out;

  CliRun third =
      netdoctor({"change", "record", "--db", db, "--incident", incident, "--entity",
                 "nic:node07/mlx5_2", "--var", "pfc_priorities", "--from", "3,4", "--to", "3"});
  EXPECT_EQ(third.code, 0) << third.err;  // the verified change no longer blocks

  CliRun exported = netdoctor({"incident", "export", incident, "--db", db, "--format", "md"});
  ASSERT_EQ(exported.code, 0) << exported.err;
  const std::string& md = exported.out;
  for (const char* expected :
       {"## Timeline", "diagnosis #", "change #1 recorded", "change #1 verified on",
        "verification run", "**pfc-storm**", "confirmed by change #1", "## Changes",
        "ecn_min_threshold 150KB -> 50KB", "**improved**", "| figure | before | after |"}) {
    EXPECT_TRUE(has(md, expected)) << expected << "\n" << md;
  }
}

TEST(IncidentEndToEnd, PfcStormRecordedVerifiedOnHealthyAndExported) {
  // The diagnosis is recorded through the same glue `diagnose` uses; the rest runs the binary.
  engine::DiagnoseOptions options;
  options.symptom = "slowdown";
  auto diagnosis = engine::diagnose_bundle(scenario("pfc-storm"), options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  ASSERT_FALSE(diagnosis->causes.empty());
  ASSERT_EQ(diagnosis->causes.front().id, "pfc-storm");
  std::string db_path = make_temp_dir("e2e") + "/nd.db";
  {
    auto db = kb::store::Database::open(db_path);
    ASSERT_TRUE(db.ok());
    auto incident =
        record_diagnosis(*db, std::nullopt, *diagnosis, "bundle " + scenario("pfc-storm"),
                         engine::render_json(*diagnosis));
    ASSERT_TRUE(incident.ok()) << incident.error().describe();
    ASSERT_EQ(*incident, 1);
  }
  change_verify_export(db_path, "1");
}

TEST(IncidentEndToEnd, DiagnoseCommandOpensTheIncident) {
  std::string db_path = make_temp_dir("e2e-diagnose") + "/nd.db";
  CliRun diagnose = netdoctor(
      {"diagnose", "--bundle", scenario("pfc-storm"), "--symptom", "slowdown", "--db", db_path});
  if (diagnose.code == 2 && has(diagnose.err, "--db")) {
    GTEST_SKIP() << "diagnose does not take --db yet (the lead wires it to record_diagnosis)";
  }
  ASSERT_EQ(diagnose.code, 0) << diagnose.err;
  CliRun list = netdoctor({"incident", "list", "--db", db_path, "--format", "json"});
  ASSERT_EQ(list.code, 0) << list.err;
  auto incidents = nlohmann::json::parse(list.out);
  ASSERT_EQ(incidents.size(), 1u) << list.out;
  EXPECT_EQ(incidents[0]["symptom"], "slowdown");
  change_verify_export(db_path, std::to_string(incidents[0]["id"].get<std::int64_t>()));
}

}  // namespace
}  // namespace netdoctor::cli
