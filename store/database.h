// Database: one SQLite file holding incidents, changes and baselines. Opening applies the
// pragmas (WAL, foreign keys, busy timeout, full sync) and the numbered migrations; every
// write goes through write(), a BEGIN IMMEDIATE transaction, so two processes serialize
// instead of failing half-way.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "store/statement.h"

struct sqlite3;

namespace netdoctor::store {

struct DatabaseOptions {
  // How long SQLite itself waits for another writer, per attempt.
  std::chrono::milliseconds busy_timeout{5'000};
  // How many times write() tries to take the write lock before giving up with Busy.
  int write_attempts = 3;
  // Bring the schema to the latest version on open (tests turn it off to stage old ones).
  bool migrate = true;
};

class Database {
 public:
  // `path` is a file name or ":memory:". Fails with Unsupported when the file's schema is
  // newer than this build knows, Parse when it is not a database, Io/PermissionDenied when
  // it cannot be opened.
  static Result<Database> open(const std::string& path, const DatabaseOptions& options = {});

  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Result<Statement> prepare(std::string_view sql);
  // Runs one or more statements without results (schema, pragmas).
  Status exec(const std::string& sql);

  // Runs `body` inside BEGIN IMMEDIATE ... COMMIT; rolls back when body fails. Retries
  // taking the lock `write_attempts` times, then fails with the Busy error. Nested calls
  // join the outer transaction.
  Status write(const std::function<Status()>& body);
  // A consistent snapshot for several reads.
  Status read(const std::function<Status()>& body);

  std::int64_t last_insert_id() const;
  Result<int> user_version();
  // "ok" when PRAGMA integrity_check finds nothing, otherwise its report.
  Result<std::string> integrity_check();
  const std::string& path() const { return m_path; }

 private:
  Database(sqlite3* handle, std::string path, DatabaseOptions options);
  Status begin(const char* sql);

  sqlite3* m_handle = nullptr;
  std::string m_path;
  DatabaseOptions m_options;
};

}  // namespace netdoctor::store
