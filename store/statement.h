// Statement: RAII owner of one prepared SQLite statement. Bind errors are remembered and
// reported by the next step()/run(), so call sites stay a straight line of binds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace netdoctor::store {

// The error every SQLite failure becomes. SQLITE_BUSY/LOCKED become the Busy error (see
// is_busy); a file that is not a database becomes Parse; a refused constraint InvalidArgument.
Error sqlite_error(sqlite3* db, int rc, std::string context);

// Another process holds the write lock longer than we were willing to wait.
Error busy_error(std::string context);
// True iff `error` is the Busy error: the caller may simply retry.
bool is_busy(const Error& error);

class Statement {
 public:
  Statement(sqlite3* db, sqlite3_stmt* stmt, std::string sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, as in SQLite.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::optional<double>& value);
  Statement& bind(int index, const std::optional<std::int64_t>& value);
  Statement& bind_null(int index);

  // Returns true iff a row is available; false when the statement is done.
  Result<bool> step();
  // Steps to completion, ignoring rows.
  Status run();

  // Columns are 0-based, as in SQLite. NULL reads as 0 / "" / nullopt.
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::optional<double> optional_real(int column) const;
  std::optional<std::int64_t> optional_int64(int column) const;

 private:
  void note_bind(int rc, int index);

  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
  std::string m_sql;
  std::optional<Error> m_bind_error;
};

}  // namespace netdoctor::store
