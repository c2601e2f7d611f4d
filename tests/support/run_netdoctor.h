// Runs the built `netdoctor` the way a user would, but without a shell: an argument vector,
// a clean environment, a sandbox for HOME/TMPDIR and the working directory, and a timeout.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace netdoctor::testing {

struct RunOutput {
  int exit_code = -1;  // 128 + signal when killed
  int signal = 0;      // the signal that killed it, 0 when it exited
  std::string out;
  std::string err;
};

struct RunOptions {
  std::string sandbox;  // HOME, TMPDIR and cwd; a fresh temp dir when empty
  // Added to the clean environment; a name already there (HOME, TMPDIR, PATH) is replaced.
  std::vector<std::pair<std::string, std::string>> env;
  std::string stdin_path = "/dev/null";
  int timeout_s = 300;
};

RunOutput run_netdoctor(const std::vector<std::string>& args, const RunOptions& options);

// A netdoctor started and not yet waited for, to be signalled meanwhile (Ctrl-C tests).
struct StartedNetdoctor {
  pid_t pid = -1;  // -1: it could not be started (a test failure was added)
  std::string out_path;
  std::string err_path;
  int timeout_s = 300;
  std::chrono::steady_clock::time_point deadline;  // options.timeout_s after the start
};
// run_netdoctor in two halves: start returns once the process runs; wait reaps it (killing it
// at the deadline, a test failure) and collects its output. Wait exactly once per start.
StartedNetdoctor start_netdoctor(const std::vector<std::string>& args, const RunOptions& options);
RunOutput wait_netdoctor(const StartedNetdoctor& started);

// The common case: everything defaulted but the sandbox.
RunOutput run_netdoctor(const std::vector<std::string>& args, const std::string& sandbox,
                        int timeout_s = 300);

}  // namespace netdoctor::testing
