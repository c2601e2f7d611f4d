#include "base/result.h"

namespace netdoctor {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::NotFound:
      return "not found";
    case ErrorCode::PermissionDenied:
      return "permission denied";
    case ErrorCode::Io:
      return "I/O error";
    case ErrorCode::Parse:
      return "parse error";
    case ErrorCode::Timeout:
      return "timeout";
    case ErrorCode::Unsupported:
      return "unsupported";
    case ErrorCode::InvalidArgument:
      return "invalid argument";
    case ErrorCode::Refused:
      return "refused";
    case ErrorCode::Internal:
      return "internal error";
  }
  return "unknown error";
}

std::string Error::describe() const {
  if (context.empty()) {
    return message;
  }
  return context + ": " + message;
}

Error make_error(ErrorCode code, std::string message, std::string context) {
  return Error{code, std::move(message), std::move(context)};
}

}  // namespace netdoctor
