#include <gtest/gtest.h>

#include "store/change_repository.h"
#include "store/database.h"
#include "store/incident_repository.h"
#include "store/postmortem.h"
#include "tests/store/store_fixture.h"

namespace netdoctor::store {
namespace {

DiagnosisRecord pfc_storm_diagnosis(double at) {
  DiagnosisRecord record;
  record.created_at = at;
  record.symptom = "slowdown";
  record.scope = "bundle pfc-storm.tar.gz";
  record.verdict = "root-cause-found";
  record.json = R"({"format":"netdoctor-diagnosis","version":1})";
  CauseRow cause;
  cause.id = "pfc-storm";
  cause.title = "PFC storm";
  cause.confidence = 0.94;
  cause.entities = {"nic:node07/mlx5_2", "port:leaf2/Ethernet28"};
  cause.remediation = {"lower the ECN threshold on priority 3"};
  cause.evidence.push_back({"pfc-pause", "pause-storm",
                            "node07/mlx5_2 sends 41k pause frames/s on priority 3", 0.8, 41000.0,
                            200.0, "frames/s"});
  record.causes.push_back(cause);
  CauseRow second;
  second.id = "buffer-exhaustion";
  second.title = "Buffer exhaustion";
  second.confidence = 0.2;
  record.causes.push_back(second);
  record.probes = {{"pfc-pause", "ran", "", 12.5},
                   {"perftest-baseline", "skipped", "no perftest runs in bundle", 0.0}};
  return record;
}

using StoreIncident = StoreTest;

TEST_F(StoreIncident, DiagnosisWithoutIncidentOpensOneAndStoresQueryableRows) {
  IncidentRepository incidents(*m_db);
  auto stored = incidents.add_diagnosis(pfc_storm_diagnosis(1'764'662'400.0));
  ASSERT_TRUE(stored.ok()) << stored.error().describe();
  EXPECT_GT(stored->incident_id, 0);
  auto incident = incidents.get(stored->incident_id);
  ASSERT_TRUE(incident.ok());
  EXPECT_EQ(incident->symptom, "slowdown");
  EXPECT_EQ(incident->scope, "bundle pfc-storm.tar.gz");
  EXPECT_FALSE(incident->closed());
  // Queryable columns: find incidents by their top cause without parsing JSON.
  auto stmt =
      m_db->prepare("SELECT incident_id, top_confidence FROM diagnoses WHERE top_cause = ?");
  ASSERT_TRUE(stmt.ok());
  stmt->bind(1, std::string_view("pfc-storm"));
  ASSERT_TRUE(*stmt->step());
  EXPECT_EQ(stmt->int64(0), stored->incident_id);
  EXPECT_DOUBLE_EQ(stmt->real(1), 0.94);

  auto records = incidents.diagnoses(stored->incident_id);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 1u);
  const DiagnosisRecord& back = records->front();
  EXPECT_EQ(back.json, R"({"format":"netdoctor-diagnosis","version":1})");
  ASSERT_EQ(back.causes.size(), 2u);
  EXPECT_EQ(back.causes[0].entities.size(), 2u);
  EXPECT_EQ(back.causes[0].remediation.front(), "lower the ECN threshold on priority 3");
  ASSERT_EQ(back.causes[0].evidence.size(), 1u);
  EXPECT_EQ(back.causes[0].evidence[0].value, 41000.0);
  EXPECT_EQ(back.causes[0].evidence[0].fleet_normal, 200.0);
  ASSERT_EQ(back.probes.size(), 2u);
  EXPECT_EQ(back.probes[1].status, "skipped");
  EXPECT_EQ(back.probes[1].reason, "no perftest runs in bundle");
}

TEST_F(StoreIncident, DiagnosisGivenAnIncidentAppendsToIt) {
  IncidentRepository incidents(*m_db);
  auto first = incidents.add_diagnosis(pfc_storm_diagnosis(100.0));
  ASSERT_TRUE(first.ok());
  DiagnosisRecord again = pfc_storm_diagnosis(200.0);
  again.incident_id = first->incident_id;
  ASSERT_TRUE(incidents.add_diagnosis(again).ok());
  EXPECT_EQ(incidents.list()->size(), 1u);
  EXPECT_EQ(incidents.diagnoses(first->incident_id)->size(), 2u);
  DiagnosisRecord unknown = pfc_storm_diagnosis(300.0);
  unknown.incident_id = 777;
  auto refused = incidents.add_diagnosis(unknown);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::NotFound);
}

TEST_F(StoreIncident, CloseRecordsCauseAndSummaryOnce) {
  IncidentRepository incidents(*m_db);
  auto id = incidents.open("timeouts", "hosts node01,node02", 10.0);
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(incidents.close(*id, "clock-skew", "chrony was stopped on node02", 20.0).ok());
  auto incident = incidents.get(*id);
  ASSERT_TRUE(incident.ok());
  EXPECT_TRUE(incident->closed());
  EXPECT_EQ(incident->cause_id, "clock-skew");
  EXPECT_EQ(incident->summary, "chrony was stopped on node02");
  Status again = incidents.close(*id, "x", "y", 30.0);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::Refused);
}

TEST_F(StoreIncident, PostmortemHasTimelineFiguresVerdictsAndRollbacks) {
  IncidentRepository incidents(*m_db);
  ChangeRepository changes(*m_db);
  auto diag = incidents.add_diagnosis(pfc_storm_diagnosis(1'764'662'400.0));
  ASSERT_TRUE(diag.ok());
  std::int64_t incident = diag->incident_id;

  NewChange first{incident, "nic:node07/mlx5_2", "pfc_priorities", "3,4",
                  "3",      "storage on 4",      1'764'662'500.0,  false};
  auto rolled = changes.record(first);
  ASSERT_TRUE(rolled.ok());
  ASSERT_TRUE(changes.rollback(rolled->id, 1'764'662'600.0).ok());
  NewChange second{incident, "port:leaf2/Ethernet28",    "ecn_min_threshold", "150KB",
                   "50KB",   "senders back off earlier", 1'764'662'700.0,     false};
  auto kept = changes.record(second);
  ASSERT_TRUE(kept.ok());
  ChangeVerification verification{
      kept->id,
      1'764'663'000.0,
      ChangeVerdict::Improved,
      "healthy.tar.gz",
      {{"pfc-pause/pause-storm", "frames/s", 41000.0, std::nullopt, true}}};
  ASSERT_TRUE(changes.verify(verification).ok());
  ASSERT_TRUE(incidents.confirm_cause(incident, "pfc-storm", kept->id).ok());
  ASSERT_TRUE(
      incidents.close(incident, "pfc-storm", "ECN threshold lowered", 1'764'663'100.0).ok());

  auto data = load_postmortem(*m_db, incident);
  ASSERT_TRUE(data.ok());
  std::string md = render_postmortem_markdown(*data);
  for (const char* expected :
       {"## Summary", "ECN threshold lowered", "## Impact", "41000 frames/s", "## Timeline",
        "2025-12-02T08:00:00Z", "## Root cause", "**pfc-storm**", "confirmed by change #",
        "## Changes", "ecn\\_min\\_threshold 150KB -> 50KB", "**improved**", "no longer found",
        "## Rolled back", "--var pfc_priorities --from 3 --to 3,4", "## Follow-ups"}) {
    EXPECT_NE(md.find(expected), std::string::npos) << expected << "\n" << md;
  }
  // The timeline is in time order: the rollback precedes the second change.
  EXPECT_LT(md.find("change #" + std::to_string(rolled->id) + " rolled back"),
            md.find("change #" + std::to_string(kept->id) + " recorded"));

  nlohmann::json json = render_postmortem_json(*data);
  EXPECT_EQ(json["format"], "netdoctor-postmortem");
  EXPECT_EQ(json["root_cause"]["id"], "pfc-storm");
  ASSERT_EQ(json["changes"].size(), 2u);
  EXPECT_EQ(json["changes"][1]["verdict"], "improved");
  EXPECT_EQ(json["changes"][1]["figures"][0]["before"], 41000.0);
  EXPECT_TRUE(json["changes"][1]["figures"][0]["after"].is_null());
  ASSERT_EQ(json["rolled_back"].size(), 1u);
  EXPECT_GE(json["timeline"].size(), 6u);
}

// Issue 19: the export names what the bundle named. A host with HTML, a Markdown link, a pipe,
// a backtick and terminal escapes reads as text in every section that shows it.
TEST_F(StoreIncident, PostmortemShowsHostileNamesAsText) {
  const std::string evil = "n<img src=x onerror=alert(1)>|a](javascript:alert(1))`\x1b[31m\xc2\x9b";
  IncidentRepository incidents(*m_db);
  ChangeRepository changes(*m_db);
  DiagnosisRecord record = pfc_storm_diagnosis(1'764'662'400.0);
  record.causes.front().entities = {"nic:" + evil + "/mlx5_2"};
  record.causes.front().evidence.front().summary = evil + "/mlx5_2 sends 41k pause frames/s";
  record.causes.front().remediation = {"Drain " + evil + " (`ethtool -S " + evil + "`)"};
  auto diag = incidents.add_diagnosis(record);
  ASSERT_TRUE(diag.ok());
  NewChange change{diag->incident_id,
                   "nic:" + evil + "/mlx5_2",
                   "pfc_priorities",
                   "3,4",
                   "3",
                   "storage on 4",
                   1'764'662'500.0,
                   false};
  auto stored = changes.record(change);
  ASSERT_TRUE(stored.ok());
  ASSERT_TRUE(changes.rollback(stored->id, 1'764'662'600.0).ok());
  auto data = load_postmortem(*m_db, diag->incident_id);
  ASSERT_TRUE(data.ok());
  const std::string md = render_postmortem_markdown(*data);
  EXPECT_EQ(md.find('\x1b'), std::string::npos) << md;
  EXPECT_EQ(md.find("\xc2\x9b"), std::string::npos) << md;
  // Outside code spans every '<' and "](" of the name is escaped; the rest is in code spans,
  // whose fences are longer than the name's backtick ("``" here).
  for (std::size_t at = md.find("<img"); at != std::string::npos; at = md.find("<img", at + 1)) {
    const bool escaped = at > 0 && md[at - 1] == '\\';
    const std::size_t line = md.rfind('\n', at);
    const bool in_code = md.find("``", line == std::string::npos ? 0 : line) < at;
    EXPECT_TRUE(escaped || in_code) << md.substr(line, md.find('\n', at) - line);
  }
  EXPECT_NE(md.find("\\<img src=x onerror=alert(1)>\\|a\\](javascript:alert(1))\\`\\x1b\\[31m"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Where: ``nic:n<img src=x onerror=alert(1)>|a](javascript:alert(1))`"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("undone with: ``netdoctor change record"), std::string::npos) << md;
}

TEST(ReverseChange, SwapsFromAndToQuotingOnlyWhatTheShellNeeds) {
  Change change;
  change.entity = "nic:node07/mlx5_2";
  change.variable = "pfc priorities";
  change.from = "3,4";
  change.to = "it's@50%+1";
  EXPECT_EQ(reverse_change_arguments(change),
            "--entity nic:node07/mlx5_2 --var 'pfc priorities' --from 'it'\\''s@50%+1' --to 3,4");
  change.to = "user@host+50%";  // bare: a shell takes '@', '%' and '+' as they are
  EXPECT_EQ(reverse_change_arguments(change),
            "--entity nic:node07/mlx5_2 --var 'pfc priorities' --from user@host+50% --to 3,4");
}

}  // namespace
}  // namespace netdoctor::store
