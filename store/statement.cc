#include "store/statement.h"

#include <sqlite3.h>

#include <utility>

namespace netdoctor::store {
namespace {

constexpr const char* k_busy_message =
    "database busy: another netdoctor process is writing it; retry in a moment";

}  // namespace

Error busy_error(std::string context) {
  return make_error(ErrorCode::Timeout, k_busy_message, std::move(context));
}

bool is_busy(const Error& error) {
  return error.code == ErrorCode::Timeout && error.message == k_busy_message;
}

Error sqlite_error(sqlite3* db, int rc, std::string context) {
  int primary = rc & 0xff;
  std::string detail = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (primary) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return busy_error(std::move(context));
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return make_error(ErrorCode::Parse, "not a readable netdoctor database: " + detail,
                        std::move(context));
    case SQLITE_CANTOPEN:
      return make_error(ErrorCode::Io, "cannot open the database: " + detail, std::move(context));
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_AUTH:
      return make_error(ErrorCode::PermissionDenied, detail, std::move(context));
    case SQLITE_CONSTRAINT:
      return make_error(ErrorCode::InvalidArgument, detail, std::move(context));
    default:
      return make_error(ErrorCode::Io, detail, std::move(context));
  }
}

Statement::Statement(sqlite3* db, sqlite3_stmt* stmt, std::string sql)
    : m_db(db), m_stmt(stmt), m_sql(std::move(sql)) {}

Statement::~Statement() {
  sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)),
      m_stmt(std::exchange(other.m_stmt, nullptr)),
      m_sql(std::move(other.m_sql)),
      m_bind_error(std::move(other.m_bind_error)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(m_stmt);
    m_db = std::exchange(other.m_db, nullptr);
    m_stmt = std::exchange(other.m_stmt, nullptr);
    m_sql = std::move(other.m_sql);
    m_bind_error = std::move(other.m_bind_error);
  }
  return *this;
}

void Statement::note_bind(int rc, int index) {
  if (rc != SQLITE_OK && !m_bind_error) {
    m_bind_error = sqlite_error(m_db, rc, m_sql + " (parameter " + std::to_string(index) + ")");
  }
}

Statement& Statement::bind(int index, std::int64_t value) {
  note_bind(sqlite3_bind_int64(m_stmt, index, value), index);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  note_bind(sqlite3_bind_double(m_stmt, index, value), index);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  note_bind(
      sqlite3_bind_text64(m_stmt, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      index);
  return *this;
}

Statement& Statement::bind(int index, const std::optional<double>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind(int index, const std::optional<std::int64_t>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
  note_bind(sqlite3_bind_null(m_stmt, index), index);
  return *this;
}

Result<bool> Statement::step() {
  if (m_bind_error) {
    return *m_bind_error;
  }
  int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc == SQLITE_DONE) {
    return false;
  }
  Error error = sqlite_error(m_db, rc, m_sql);
  sqlite3_reset(m_stmt);
  return error;
}

Status Statement::run() {
  while (true) {
    ND_TRY_ASSIGN(bool row, step());
    if (!row) {
      return {};
    }
  }
}

std::int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(m_stmt, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(m_stmt, column);
}

std::string Statement::text(int column) const {
  const unsigned char* data = sqlite3_column_text(m_stmt, column);
  if (data == nullptr) {
    return {};
  }
  auto size = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column));
  return std::string(reinterpret_cast<const char*>(data), size);
}

std::optional<double> Statement::optional_real(int column) const {
  if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL) {
    return std::nullopt;
  }
  return real(column);
}

std::optional<std::int64_t> Statement::optional_int64(int column) const {
  if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL) {
    return std::nullopt;
  }
  return int64(column);
}

}  // namespace netdoctor::store
