// When a cause began (schema 5): kept with the diagnosis's causes, read back as written, and a
// database of schema 4 gains the columns without losing its records.
#include <gtest/gtest.h>

#include "store/database.h"
#include "store/incident_repository.h"
#include "store/migrations.h"
#include "tests/support/test_paths.h"

namespace netdoctor::store {
namespace {

DiagnosisRecord storm(bool with_onset) {
  DiagnosisRecord record;
  record.created_at = 1'764'662'400.0;
  record.symptom = "slowdown";
  record.scope = "bundle long.tar.gz";
  record.verdict = "root-cause-found";
  record.json = "{}";
  CauseRow cause;
  cause.id = "pfc-storm";
  cause.title = "PFC storm";
  cause.confidence = 0.9;
  cause.entities = {"nic:node07/mlx5_2"};
  if (with_onset) {
    cause.onset = "in interval 3 of 5 (2025-12-02T07:01:00Z to 2025-12-02T07:01:30Z)";
    cause.began_from = 1'764'658'860.0;
    cause.began_to = 1'764'658'890.0;
    cause.began_in_capture = true;
  }
  record.causes.push_back(cause);
  return record;
}

TEST(OnsetStore, TheOnsetOfACauseIsReadBackAsWritten) {
  auto db = Database::open(netdoctor::testing::make_temp_dir("onset-store") + "/nd.db");
  ASSERT_TRUE(db.ok());
  IncidentRepository incidents(*db);
  auto stored = incidents.add_diagnosis(storm(true));
  ASSERT_TRUE(stored.ok()) << stored.error().describe();
  auto plain = incidents.add_diagnosis([&] {
    DiagnosisRecord record = storm(false);
    record.incident_id = stored->incident_id;
    return record;
  }());
  ASSERT_TRUE(plain.ok());
  auto back = incidents.diagnoses(stored->incident_id);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 2u);
  const CauseRow& began = back->at(0).causes.at(0);
  EXPECT_EQ(began.onset, "in interval 3 of 5 (2025-12-02T07:01:00Z to 2025-12-02T07:01:30Z)");
  EXPECT_EQ(began.began_from, 1'764'658'860.0);
  EXPECT_EQ(began.began_to, 1'764'658'890.0);
  EXPECT_TRUE(began.began_in_capture);
  const CauseRow& none = back->at(1).causes.at(0);
  EXPECT_TRUE(none.onset.empty());
  EXPECT_FALSE(none.began_from.has_value());
  EXPECT_FALSE(none.began_in_capture);
}

// The database at `path` migrated no further than `version`, as an older netdoctor left it.
Result<Database> at_schema(const std::string& path, int version) {
  DatabaseOptions options;
  options.migrate = false;
  ND_TRY_ASSIGN(Database db, Database::open(path, options));
  ND_TRY(migrate(db, version));
  return db;
}

TEST(OnsetStore, ASchemaFourDatabaseGainsOnsetsAndKeepsItsCauses) {
  const std::string path = netdoctor::testing::make_temp_dir("onset-migrate") + "/nd.db";
  std::int64_t incident = 0;
  {
    auto db = at_schema(path, 4);
    ASSERT_TRUE(db.ok());
    // A schema-4 cause row, written as that netdoctor wrote it.
    ASSERT_TRUE(db->exec("INSERT INTO incidents (id, opened_at, symptom, scope) "
                         "VALUES (1, 1764662400, 'slowdown', 'b.tar.gz')")
                    .ok());
    ASSERT_TRUE(db->exec("INSERT INTO diagnoses (id, incident_id, created_at, origin, symptom, "
                         "scope, verdict, top_cause, top_confidence, json) VALUES (1, 1, "
                         "1764662400, 'diagnose', 'slowdown', 'b.tar.gz', 'root-cause-found', "
                         "'pfc-storm', 0.9, '{}')")
                    .ok());
    ASSERT_TRUE(db->exec("INSERT INTO diagnosis_causes (diagnosis_id, rank, cause_id, title, "
                         "confidence, entities, remediation) VALUES (1, 0, 'pfc-storm', "
                         "'PFC storm', 0.9, '[\"nic:n/m\"]', '[]')")
                    .ok());
    incident = 1;
  }
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().describe();
  EXPECT_EQ(*db->user_version(), latest_schema_version());
  auto back = IncidentRepository(*db).diagnoses(incident);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  ASSERT_EQ(back->size(), 1u);
  const CauseRow& cause = back->front().causes.at(0);
  EXPECT_EQ(cause.id, "pfc-storm");
  EXPECT_EQ(cause.entities, std::vector<std::string>{"nic:n/m"});
  EXPECT_TRUE(cause.onset.empty());
  EXPECT_FALSE(cause.began_from.has_value());
}

}  // namespace
}  // namespace netdoctor::store
