// FakeCommandRunner: canned outputs for tests, keyed by the command line.
#include <fmt/format.h>

#include "base/command_runner.h"
#include "base/strings.h"

namespace netdoctor {

void FakeCommandRunner::set(const std::string& command_line, CommandOutput output) {
  m_outputs.insert_or_assign(command_line, Result<CommandOutput>(std::move(output)));
}

void FakeCommandRunner::set_error(const std::string& command_line, Error error) {
  m_outputs.insert_or_assign(command_line, Result<CommandOutput>(std::move(error)));
}

Result<CommandOutput> FakeCommandRunner::run(const std::vector<std::string>& argv,
                                             const CommandOptions& /*options*/) {
  const std::string command_line = join(argv, " ");
  m_ran.push_back(command_line);
  const auto it = m_outputs.find(command_line);
  if (it == m_outputs.end()) {
    return make_error(ErrorCode::NotFound,
                      fmt::format("{}: program not found (no canned output)",
                                  argv.empty() ? std::string{} : argv[0]),
                      command_line);
  }
  return it->second;
}

}  // namespace netdoctor
