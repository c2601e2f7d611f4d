#include "store/database.h"

#include <gtest/gtest.h>

#include <fstream>

#include "store/change_repository.h"
#include "store/incident_repository.h"
#include "store/migrations.h"
#include "store/time_format.h"
#include "tests/support/test_paths.h"

namespace netdoctor::store {
namespace {

std::string temp_db(const std::string& tag) {
  return netdoctor::testing::make_temp_dir(tag) + "/netdoctor.db";
}

Database open_or_fail(const std::string& path, const DatabaseOptions& options = {}) {
  auto db = Database::open(path, options);
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error().describe());
  return std::move(db).value();
}

std::string pragma_text(Database& db, const std::string& pragma) {
  auto stmt = db.prepare("PRAGMA " + pragma);
  EXPECT_TRUE(stmt.ok());
  auto row = stmt->step();
  EXPECT_TRUE(row.ok() && *row);
  return stmt->text(0);
}

TEST(StoreDatabase, NewFileIsMigratedFromVersionZeroToLatest) {
  std::string path = temp_db("migrate0");
  {
    DatabaseOptions stage;
    stage.migrate = false;
    Database empty = open_or_fail(path, stage);
    EXPECT_EQ(*empty.user_version(), 0);
  }
  Database db = open_or_fail(path);
  EXPECT_EQ(*db.user_version(), latest_schema_version());
  EXPECT_GE(latest_schema_version(), 2);
  // Every table of every migration exists.
  for (const char* table : {"incidents", "diagnoses", "changes", "change_figures", "baselines",
                            "sweeps", "sweep_runs"}) {
    auto stmt = db.prepare("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?");
    ASSERT_TRUE(stmt.ok());
    stmt->bind(1, std::string_view(table));
    ASSERT_TRUE(*stmt->step());
    EXPECT_EQ(stmt->int64(0), 1) << table;
  }
}

TEST(StoreDatabase, PragmasAreWalForeignKeysAndFullSync) {
  Database db = open_or_fail(temp_db("pragmas"));
  EXPECT_EQ(pragma_text(db, "journal_mode"), "wal");
  EXPECT_EQ(pragma_text(db, "foreign_keys"), "1");
  EXPECT_EQ(pragma_text(db, "synchronous"), "2");
}

TEST(StoreDatabase, OlderSchemaIsMigratedAndKeepsItsRecords) {
  std::string path = temp_db("migrate1");
  {
    DatabaseOptions stage;
    stage.migrate = false;
    Database db = open_or_fail(path, stage);
    ASSERT_TRUE(migrate(db, 1).ok());
    ASSERT_EQ(*db.user_version(), 1);
    IncidentRepository incidents(db);
    ASSERT_TRUE(incidents.open("slowdown", "bundle a.tar.gz", 1'700'000'000.0).ok());
    // The version-2 table is not there yet.
    EXPECT_FALSE(db.prepare("SELECT * FROM baselines").ok());
  }
  Database db = open_or_fail(path);
  EXPECT_EQ(*db.user_version(), latest_schema_version());
  IncidentRepository incidents(db);
  auto all = incidents.list();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ(all->front().scope, "bundle a.tar.gz");
  EXPECT_TRUE(db.prepare("SELECT * FROM baselines").ok());
}

TEST(StoreDatabase, NewerSchemaIsRefusedWithAClearMessage) {
  std::string path = temp_db("newer");
  {
    Database db = open_or_fail(path);
    ASSERT_TRUE(db.exec("PRAGMA user_version = 99").ok());
  }
  auto db = Database::open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().code, ErrorCode::Unsupported);
  EXPECT_NE(db.error().message.find("schema version 99"), std::string::npos);
  EXPECT_NE(db.error().message.find("newer"), std::string::npos);
  EXPECT_EQ(db.error().context, path);
}

TEST(StoreDatabase, FileThatIsNotADatabaseIsReportedNotOverwritten) {
  std::string path = temp_db("garbage");
  {
    std::ofstream out(path);
    out << "this is a text file, not SQLite, and it is long enough to have a header........\n";
  }
  auto db = Database::open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().code, ErrorCode::Parse);
  EXPECT_EQ(netdoctor::testing::read_text(path).substr(0, 9), "this is a");
}

TEST(StoreDatabase, WriteRollsBackWhenTheBodyFails) {
  Database db = open_or_fail(":memory:");
  IncidentRepository incidents(db);
  Status status = db.write([&]() -> Status {
    auto id = incidents.open("slowdown", "hosts node01", 1.0);
    EXPECT_TRUE(id.ok());
    return make_error(ErrorCode::Internal, "abandon");
  });
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(incidents.list()->empty());
}

TEST(StoreDatabase, WriterHeldElsewhereGivesBusyErrorAfterRetries) {
  std::string path = temp_db("busy");
  Database holder = open_or_fail(path);
  DatabaseOptions impatient;
  impatient.busy_timeout = std::chrono::milliseconds(20);
  impatient.write_attempts = 2;
  Database waiter = open_or_fail(path, impatient);
  ASSERT_TRUE(holder.exec("BEGIN IMMEDIATE").ok());
  IncidentRepository incidents(waiter);
  auto id = incidents.open("slowdown", "x", 1.0);
  ASSERT_FALSE(id.ok());
  EXPECT_TRUE(is_busy(id.error())) << id.error().describe();
  EXPECT_NE(id.error().message.find("retry"), std::string::npos);
  ASSERT_TRUE(holder.exec("COMMIT").ok());
  EXPECT_TRUE(incidents.open("slowdown", "x", 1.0).ok());
}

TEST(StoreDatabase, TimesRenderAsIso8601Utc) {
  EXPECT_EQ(iso8601_utc(1764662400.75), "2025-12-02T08:00:00Z");
  EXPECT_EQ(iso8601_utc(0.0), "1970-01-01T00:00:00Z");
}

}  // namespace
}  // namespace netdoctor::store
