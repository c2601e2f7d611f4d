// The working method end to end on simulator bundles: diagnose a PFC storm -> an incident
// opens; record a change -> a second is refused until the first is verified; verify against
// a healthy capture -> improved, cause confirmed; export -> a postmortem with the timeline,
// the figures and the change with its verdict.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/store_glue.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "store/incident_repository.h"
#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::make_temp_dir;
using netdoctor::testing::netdoctor_binary;
using netdoctor::testing::read_text;

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

// The real binary, no shell; the store is only ever the one named by --db.
CliRun netdoctor(const std::vector<std::string>& args) {
  const netdoctor::testing::RunOutput run =
      netdoctor::testing::run_netdoctor(args, netdoctor::testing::RunOptions{});
  return CliRun{run.exit_code, run.out, run.err};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A simulator bundle of one fabric shape with `fault` injected (or "healthy"): the storm and
// the verification capture come from the same fabric, as they would on a real cluster.
std::string scenario(const std::string& fault) {
  const std::string path = make_temp_dir("e2e-" + fault) + "/bundle.tar.gz";
  CliRun sim =
      netdoctor({"sim", "--hosts", "8", "--nics", "2", "--hosts-per-leaf", "4", "--vendors",
                 "mlx5,bnxt", "--seed", "17", "--fault", fault, "--out", path});
  EXPECT_EQ(sim.code, 0) << sim.err;
  return path;
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
        "ecn\\_min\\_threshold 150KB -> 50KB", "**improved**", "| figure | before | after |"}) {
    EXPECT_TRUE(has(md, expected)) << expected << "\n" << md;
  }
}

TEST(IncidentEndToEnd, PfcStormRecordedVerifiedOnHealthyAndExported) {
  // The diagnosis is recorded through the same glue `diagnose` uses; the rest runs the binary.
  engine::DiagnoseOptions options;
  options.symptom = "slowdown";
  const std::string storm = scenario("pfc-storm");
  auto diagnosis = engine::diagnose_bundle(storm, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  ASSERT_FALSE(diagnosis->causes.empty());
  ASSERT_EQ(diagnosis->causes.front().id, "pfc-storm");
  std::string db_path = make_temp_dir("e2e") + "/nd.db";
  {
    auto db = store::Database::open(db_path);
    ASSERT_TRUE(db.ok());
    auto incident = record_diagnosis(*db, std::nullopt, *diagnosis, "bundle " + storm,
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
