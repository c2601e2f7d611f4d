// The file name `sos report` gives a command's output (sos/report/plugins/__init__.py,
// _mangle_command), which is how bundles name every captured command.
#include <string>

#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

// sos cuts names at the file system's name limit.
constexpr std::size_t k_name_max = 255;

bool kept_as_is(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == '/';
}

bool stripped(char c) {
  return c == ' ' || c == '.' || c == '_' || c == '-';
}

}  // namespace

std::string mangle_command_line(std::string_view command_line) {
  for (std::string_view prefix : {"/usr/bin/", "/usr/sbin/", "/bin/", "/sbin/"}) {
    if (starts_with(command_line, prefix)) {
      command_line.remove_prefix(prefix.size());
      break;
    }
  }
  std::string out;
  out.reserve(command_line.size());
  bool in_run = false;
  for (char c : command_line) {
    if (kept_as_is(c)) {
      out += c == '/' ? '.' : c;
      in_run = false;
    } else if (!in_run) {
      out += '_';
      in_run = true;
    }
  }
  std::size_t begin = 0;
  std::size_t end = out.size();
  while (begin < end && stripped(out[begin])) {
    ++begin;
  }
  while (end > begin && stripped(out[end - 1])) {
    --end;
  }
  out = out.substr(begin, std::min(end - begin, k_name_max));
  return out;
}

std::string mangle_command(const std::vector<std::string>& argv) {
  return mangle_command_line(join(argv, " "));
}

}  // namespace netdoctor
