#include "tests/support/run_netdoctor.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace fs = std::filesystem;

namespace {

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

// Replaces rather than appends: getenv() returns the first match, so a second HOME= after
// the sandbox one would be silently ignored.
void set_variable(std::vector<std::string>& env, const std::string& name,
                  const std::string& value) {
  const std::string prefix = name + "=";
  for (std::string& entry : env) {
    if (entry.rfind(prefix, 0) == 0) {
      entry = prefix + value;
      return;
    }
  }
  env.push_back(prefix + value);
}

}  // namespace

StartedNetdoctor start_netdoctor(const std::vector<std::string>& args, const RunOptions& options) {
  StartedNetdoctor started;
  const std::string sandbox =
      options.sandbox.empty() ? make_temp_dir("run-netdoctor") : options.sandbox;
  started.out_path = sandbox + "/.run-stdout";
  started.err_path = sandbox + "/.run-stderr";
  started.timeout_s = options.timeout_s;
  std::vector<std::string> argv_s = {netdoctor_binary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  // A clean environment: the user's NETDOCTOR_DB or XDG_DATA_HOME must never leak into a test.
  std::vector<std::string> env_s = {"HOME=" + sandbox, "TMPDIR=" + sandbox, "LC_ALL=C",
                                    "PATH=/usr/bin:/bin:/usr/sbin:/sbin"};
  for (const auto& [name, value] : options.env) {
    set_variable(env_s, name, value);
  }
  std::vector<char*> argv = c_strings(argv_s);
  std::vector<char*> env = c_strings(env_s);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, options.stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, started.out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, started.err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, sandbox.c_str());
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "cannot run " << argv_s[0] << " with stdin " << options.stdin_path << ": "
                  << std::strerror(spawned);
    return started;
  }
  started.pid = pid;
  started.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_s);
  return started;
}

RunOutput wait_netdoctor(const StartedNetdoctor& started) {
  RunOutput result;
  if (started.pid < 0) {
    return result;
  }
  int status = 0;
  while (::waitpid(started.pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > started.deadline) {
      ::kill(started.pid, SIGKILL);
      ::waitpid(started.pid, &status, 0);
      ADD_FAILURE() << "netdoctor did not finish within " << started.timeout_s << " s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + result.signal;
  result.out = read_text(started.out_path);
  result.err = read_text(started.err_path);
  fs::remove(started.out_path);
  fs::remove(started.err_path);
  return result;
}

RunOutput run_netdoctor(const std::vector<std::string>& args, const RunOptions& options) {
  return wait_netdoctor(start_netdoctor(args, options));
}

RunOutput run_netdoctor(const std::vector<std::string>& args, const std::string& sandbox,
                        int timeout_s) {
  RunOptions options;
  options.sandbox = sandbox;
  options.timeout_s = timeout_s;
  return run_netdoctor(args, options);
}

}  // namespace netdoctor::testing
