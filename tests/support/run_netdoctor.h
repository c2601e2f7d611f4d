// Runs the built `netdoctor` the way a user would, but without a shell: an argument vector,
// a clean environment, a sandbox for HOME/TMPDIR and the working directory, and a timeout.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace netdoctor::testing {

struct RunOutput {
  int exit_code = -1;  // 128 + signal when killed
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

// The common case: everything defaulted but the sandbox.
RunOutput run_netdoctor(const std::vector<std::string>& args, const std::string& sandbox,
                        int timeout_s = 300);

}  // namespace netdoctor::testing
