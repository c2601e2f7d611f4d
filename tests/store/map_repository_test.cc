// The fabric maps kept with diagnoses (schema 4): the latest diagnosis of an incident that has a
// map gives it, saving again replaces, deleting the incident takes its maps, and a schema 3
// database gains the table and keeps its records.
#include "store/map_repository.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "store/database.h"
#include "store/incident_repository.h"
#include "store/migrations.h"
#include "tests/store/store_fixture.h"
#include "tests/support/test_paths.h"

namespace netdoctor::store {
namespace {

constexpr double k_at = 1'764'662'400.0;

std::int64_t add_diagnosis(Database& db, std::int64_t incident, double at,
                           const std::string& origin = k_origin_diagnose) {
  DiagnosisRecord record;
  record.incident_id = incident;
  record.created_at = at;
  record.origin = origin;
  record.symptom = "slowdown";
  record.scope = "bundle b.tar.gz";
  record.verdict = "root-cause-found";
  record.json = "{}";
  auto added = IncidentRepository(db).add_diagnosis(record);
  EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().describe());
  return added.ok() ? added->id : 0;
}

std::int64_t open_incident(Database& db) {
  auto id = IncidentRepository(db).open("slowdown", "bundle b.tar.gz", k_at);
  EXPECT_TRUE(id.ok());
  return id.ok() ? *id : 0;
}

std::int64_t count_rows(Database& db, const char* table) {
  auto stmt = db.prepare(fmt::format("SELECT COUNT(*) FROM {}", table));
  EXPECT_TRUE(stmt.ok());
  auto row = stmt->step();
  EXPECT_TRUE(row.ok() && *row);
  return stmt->int64(0);
}

using StoreMaps = StoreTest;

TEST_F(StoreMaps, AnIncidentWithoutAMapHasNone) {
  MapRepository maps(*m_db);
  auto none = maps.latest_for_incident(42);
  ASSERT_TRUE(none.ok()) << none.error().describe();
  EXPECT_FALSE(none->has_value());
  const std::int64_t incident = open_incident(*m_db);
  add_diagnosis(*m_db, incident, k_at + 1.0);
  auto still = maps.latest_for_incident(incident);
  ASSERT_TRUE(still.ok());
  EXPECT_FALSE(still->has_value());
}

TEST_F(StoreMaps, TheLatestDiagnosisWithAMapByCreationTimeWins) {
  MapRepository maps(*m_db);
  const std::int64_t incident = open_incident(*m_db);
  const std::int64_t other = open_incident(*m_db);
  // Inserted out of time order: the later one first.
  const std::int64_t later = add_diagnosis(*m_db, incident, k_at + 3600.0);
  const std::int64_t earlier = add_diagnosis(*m_db, incident, k_at + 60.0);
  const std::int64_t newest_without_map = add_diagnosis(*m_db, incident, k_at + 7200.0);
  const std::int64_t elsewhere = add_diagnosis(*m_db, other, k_at + 9000.0);
  ASSERT_TRUE(maps.save(earlier, R"({"map":"earlier"})").ok());
  ASSERT_TRUE(maps.save(later, R"({"map":"later"})").ok());
  ASSERT_TRUE(maps.save(elsewhere, R"({"map":"other incident"})").ok());
  (void)newest_without_map;

  auto found = maps.latest_for_incident(incident);
  ASSERT_TRUE(found.ok()) << found.error().describe();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->diagnosis_id, later);
  EXPECT_EQ((*found)->json, R"({"map":"later"})");

  auto theirs = maps.latest_for_incident(other);
  ASSERT_TRUE(theirs.ok() && theirs->has_value());
  EXPECT_EQ((*theirs)->diagnosis_id, elsewhere);
}

TEST_F(StoreMaps, SavingAgainReplacesTheMap) {
  MapRepository maps(*m_db);
  const std::int64_t incident = open_incident(*m_db);
  const std::int64_t diagnosis = add_diagnosis(*m_db, incident, k_at + 1.0);
  ASSERT_TRUE(maps.save(diagnosis, "first").ok());
  ASSERT_TRUE(maps.save(diagnosis, "second, and \xe2\x80\x94 not ASCII").ok());
  auto found = maps.latest_for_incident(incident);
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->json, "second, and \xe2\x80\x94 not ASCII");
  EXPECT_EQ(count_rows(*m_db, "diagnosis_maps"), 1);
}

TEST_F(StoreMaps, AMapOfAnUnknownDiagnosisIsRefused) {
  EXPECT_FALSE(MapRepository(*m_db).save(999, "{}").ok());
  EXPECT_EQ(count_rows(*m_db, "diagnosis_maps"), 0);
}

TEST_F(StoreMaps, DeletingTheIncidentDeletesItsMaps) {
  MapRepository maps(*m_db);
  const std::int64_t incident = open_incident(*m_db);
  const std::int64_t kept = open_incident(*m_db);
  ASSERT_TRUE(maps.save(add_diagnosis(*m_db, incident, k_at + 1.0), "gone").ok());
  ASSERT_TRUE(maps.save(add_diagnosis(*m_db, kept, k_at + 2.0), "kept").ok());
  ASSERT_EQ(count_rows(*m_db, "diagnosis_maps"), 2);
  ASSERT_TRUE(m_db->exec(fmt::format("DELETE FROM incidents WHERE id = {}", incident)).ok());
  EXPECT_EQ(count_rows(*m_db, "diagnosis_maps"), 1);
  auto gone = maps.latest_for_incident(incident);
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(gone->has_value());
  auto still = maps.latest_for_incident(kept);
  ASSERT_TRUE(still.ok() && still->has_value());
  EXPECT_EQ((*still)->json, "kept");
}

TEST(StoreMapMigration, ASchemaThreeDatabaseGainsMapsAndKeepsItsRecords) {
  const std::string path = netdoctor::testing::make_temp_dir("map-migrate") + "/nd.db";
  ASSERT_GE(latest_schema_version(), 4);
  std::int64_t incident = 0;
  std::int64_t diagnosis = 0;
  {
    DatabaseOptions stage;
    stage.migrate = false;
    auto db = Database::open(path, stage);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(migrate(*db, 3).ok());
    ASSERT_EQ(*db->user_version(), 3);
    incident = open_incident(*db);
    diagnosis = add_diagnosis(*db, incident, k_at + 5.0);
    EXPECT_FALSE(db->prepare("SELECT * FROM diagnosis_maps").ok());
  }
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().describe();
  EXPECT_EQ(*db->user_version(), latest_schema_version());
  EXPECT_EQ(IncidentRepository(*db).get(incident)->scope, "bundle b.tar.gz");
  auto diagnoses = IncidentRepository(*db).diagnoses(incident);
  ASSERT_TRUE(diagnoses.ok());
  ASSERT_EQ(diagnoses->size(), 1u);
  EXPECT_EQ(diagnoses->front().id, diagnosis);
  MapRepository maps(*db);
  auto none = maps.latest_for_incident(incident);
  ASSERT_TRUE(none.ok()) << none.error().describe();
  EXPECT_FALSE(none->has_value());
  ASSERT_TRUE(maps.save(diagnosis, "{}").ok());
  EXPECT_TRUE(maps.latest_for_incident(incident)->has_value());
  EXPECT_EQ(db->integrity_check().value(), "ok");
}

}  // namespace
}  // namespace netdoctor::store
