// CommandRunner: runs a program by argument vector (never a shell) with a timeout and an
// output cap. The live runner spawns (posix_spawn); tests use FakeCommandRunner.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor {

struct CommandOutput {
  int exit_code = -1;  // the program's exit status; -1 when killed by a signal
  int signal = 0;      // the signal that ended it, 0 if none
  std::string out;     // standard output (cut at the cap)
  std::string err;     // standard error (cut at the cap)
  double duration_s = 0.0;
  bool timed_out = false;  // killed (with its process group) at the timeout
  bool truncated = false;  // output exceeded the cap and was cut
  bool cancelled = false;  // killed (with its process group) because `cancel` was set
};

struct CommandOptions {
  std::chrono::milliseconds timeout{10'000};
  std::uint64_t max_output_bytes = 64ull << 20;
  std::string stdin_data;  // written to the child's stdin, then closed
  // When set and it becomes true (Ctrl-C), the program's process group is ended within a tenth
  // of a second, as at a timeout. Owned by the caller; outlives the run.
  const std::atomic<bool>* cancel = nullptr;
};

class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  // NotFound when the program does not exist; Timeout when it was killed at the timeout
  // (the partial output is in the error message context); otherwise the output, whatever the
  // exit status.
  virtual Result<CommandOutput> run(const std::vector<std::string>& argv,
                                    const CommandOptions& options = {}) = 0;
};

// posix_spawn (PATH looked up by find_program first; no shell) in its own process group, with
// LC_ALL=C so tools print the formats parsers expect; stdin from `stdin_data` or /dev/null;
// kills the whole group on timeout (SIGTERM, then SIGKILL) or when output passes the cap.
// Always reaps its child. Thread-safe.
class LiveCommandRunner final : public CommandRunner {
 public:
  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options = {}) override;
};

// For tests: canned outputs keyed by the argument vector joined with spaces.
class FakeCommandRunner final : public CommandRunner {
 public:
  void set(const std::string& command_line, CommandOutput output);
  void set_error(const std::string& command_line, Error error);
  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options = {}) override;
  const std::vector<std::string>& commands_ran() const { return m_ran; }

 private:
  std::map<std::string, Result<CommandOutput>> m_outputs;
  std::vector<std::string> m_ran;
};

// Looks a program up on PATH (or returns it if it contains '/'); empty when not found.
std::string find_program(const std::string& name);

}  // namespace netdoctor
