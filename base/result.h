// Error and Result<T>: how library code reports failure. Exceptions are used only at the
// CLI boundary; everything below returns Result.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace netdoctor {

// A small, closed set of error kinds, in the spirit of LevelDB's Status.
enum class ErrorCode {
  NotFound,          // the file, command output or entity is absent
  PermissionDenied,  // present but not readable by us
  Io,                // the read itself failed
  Parse,             // read fine, content is not what we expected
  Timeout,           // a command or server did not answer in time
  Unsupported,       // a format or feature we do not handle
  InvalidArgument,   // the caller's request is wrong
  Refused,           // deliberately not done (symlink leaving a bundle, tar member escaping)
  Internal,          // a bug of ours
};

const char* to_string(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;  // what went wrong, for a person
  std::string context;  // the file path, command line or URL it concerns

  // "context: message" (or just message), the form every user-facing report uses.
  std::string describe() const;
};

Error make_error(ErrorCode code, std::string message, std::string context = {});

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_state(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : m_state(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(m_state); }
  explicit operator bool() const { return ok(); }

  // REQUIRES: ok()
  T& value() & {
    assert(ok());
    return std::get<T>(m_state);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(m_state);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(m_state));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // REQUIRES: !ok()
  const Error& error() const {
    assert(!ok());
    return std::get<Error>(m_state);
  }

  T value_or(T fallback) const { return ok() ? value() : std::move(fallback); }

 private:
  std::variant<T, Error> m_state;
};

// Result<void>: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : m_error(std::move(error)), m_ok(false) {}  // NOLINT
  bool ok() const { return m_ok; }
  explicit operator bool() const { return m_ok; }
  const Error& error() const {
    assert(!m_ok);
    return m_error;
  }

 private:
  Error m_error;
  bool m_ok = true;
};

}  // namespace netdoctor

// The only control-flow macros: propagate an error to the caller.
#define ND_TRY(expr)                 \
  do {                               \
    auto nd_try_status_ = (expr);    \
    if (!nd_try_status_.ok()) {      \
      return nd_try_status_.error(); \
    }                                \
  } while (false)

#define ND_CONCAT_INNER(a, b) a##b
#define ND_CONCAT(a, b) ND_CONCAT_INNER(a, b)
#define ND_TRY_ASSIGN(lhs, expr)                        \
  auto ND_CONCAT(nd_try_result_, __LINE__) = (expr);    \
  if (!ND_CONCAT(nd_try_result_, __LINE__).ok()) {      \
    return ND_CONCAT(nd_try_result_, __LINE__).error(); \
  }                                                     \
  lhs = std::move(ND_CONCAT(nd_try_result_, __LINE__)).value()
