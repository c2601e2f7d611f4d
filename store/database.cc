#include "store/database.h"

#include <sqlite3.h>

#include <utility>

#include "store/migrations.h"

namespace netdoctor::store {

Database::Database(sqlite3* handle, std::string path, DatabaseOptions options)
    : m_handle(handle), m_path(std::move(path)), m_options(options) {}

Database::~Database() {
  sqlite3_close_v2(m_handle);
}

Database::Database(Database&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr)),
      m_path(std::move(other.m_path)),
      m_options(other.m_options) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(m_handle);
    m_handle = std::exchange(other.m_handle, nullptr);
    m_path = std::move(other.m_path);
    m_options = other.m_options;
  }
  return *this;
}

Result<Database> Database::open(const std::string& path, const DatabaseOptions& options) {
  sqlite3* handle = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    Error error = sqlite_error(handle, rc, path);
    sqlite3_close_v2(handle);
    return error;
  }
  Database db(handle, path, options);
  sqlite3_extended_result_codes(handle, 1);
  sqlite3_busy_timeout(handle, static_cast<int>(options.busy_timeout.count()));
  // A file that is not a database only shows itself on the first read, so check the
  // version before changing anything in it.
  ND_TRY_ASSIGN(int version, db.user_version());
  if (version > latest_schema_version()) {
    return newer_schema_error(version, path);
  }
  // WAL lets readers proceed while one process writes, and keeps committed transactions
  // intact when a writer is killed; FULL sync makes each commit durable before returning.
  ND_TRY(db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"));
  if (options.migrate) {
    ND_TRY(migrate(db, latest_schema_version()));
  }
  return db;
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(m_handle, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return sqlite_error(m_handle, rc, m_path + ": " + std::string(sql));
  }
  return Statement(m_handle, stmt, std::string(sql));
}

Status Database::exec(const std::string& sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(m_handle, sql.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);
  if (rc != SQLITE_OK) {
    return sqlite_error(m_handle, rc, m_path);
  }
  return {};
}

Status Database::begin(const char* sql) {
  Status last;
  int attempts = m_options.write_attempts < 1 ? 1 : m_options.write_attempts;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    last = exec(sql);  // each attempt waits up to busy_timeout inside SQLite
    if (last.ok() || !is_busy(last.error())) {
      return last;
    }
  }
  return last;
}

Status Database::write(const std::function<Status()>& body) {
  if (sqlite3_get_autocommit(m_handle) == 0) {
    return body();  // already inside a transaction: join it
  }
  ND_TRY(begin("BEGIN IMMEDIATE"));
  Status status = body();
  if (status.ok()) {
    status = exec("COMMIT");
    if (status.ok()) {
      return status;
    }
  }
  (void)exec("ROLLBACK");  // the body's error is the one worth reporting
  return status;
}

Status Database::read(const std::function<Status()>& body) {
  if (sqlite3_get_autocommit(m_handle) == 0) {
    return body();
  }
  ND_TRY(begin("BEGIN DEFERRED"));
  Status status = body();
  (void)exec(status.ok() ? "COMMIT" : "ROLLBACK");
  return status;
}

std::int64_t Database::last_insert_id() const {
  return sqlite3_last_insert_rowid(m_handle);
}

Result<int> Database::user_version() {
  ND_TRY_ASSIGN(Statement stmt, prepare("PRAGMA user_version"));
  ND_TRY_ASSIGN(bool row, stmt.step());
  return row ? static_cast<int>(stmt.int64(0)) : 0;
}

Result<std::string> Database::integrity_check() {
  ND_TRY_ASSIGN(Statement stmt, prepare("PRAGMA integrity_check"));
  std::string report;
  while (true) {
    ND_TRY_ASSIGN(bool row, stmt.step());
    if (!row) {
      break;
    }
    if (!report.empty()) {
      report += "\n";
    }
    report += stmt.text(0);
  }
  return report;
}

}  // namespace netdoctor::store
