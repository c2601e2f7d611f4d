// Helpers of the remote suite: child processes the tests start and always stop (Prometheus,
// the HTTPS fixture server), self-signed certificates made with the openssl CLI, files with
// chosen modes, and the in-process CLI.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace netdoctor::testing {

// A process started with argv (no shell) in its own process group, stdout and stderr to
// `log_path`; stopped (SIGTERM, then SIGKILL) when destroyed.
class ChildProcess {
 public:
  static std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv,
                                             const std::string& log_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  bool running() const;
  pid_t pid() const { return m_pid; }

 private:
  explicit ChildProcess(pid_t pid) : m_pid(pid) {}
  pid_t m_pid;
};

struct CommandResult {
  int status = -1;     // exit status, -1 when it did not exit normally
  std::string output;  // stdout and stderr
};
// Runs argv (no shell), waits, returns its exit status and output.
CommandResult run_argv(const std::vector<std::string>& argv);

// `netdoctor ARGS...` in-process.
struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
CliResult run_netdoctor(const std::vector<std::string>& args);

// A self-signed EC certificate for 127.0.0.1 (SAN IP:127.0.0.1) in `dir`: cert.pem, key.pem.
// Returns false (with a test failure) when openssl fails.
bool make_certificate(const std::string& dir);

void write_file(const std::string& path, const std::string& content, unsigned mode = 0644);

// Waits for a file to appear (a server's port file); empty on timeout.
std::string wait_for_file(const std::string& path, std::chrono::milliseconds timeout);

// Every regular file under `root` (recursively), path -> content.
std::vector<std::pair<std::string, std::string>> read_tree(const std::string& root);

bool program_exists(const std::string& name);

// A loopback TCP port nothing listens on (bound, then closed again): for a server to start on,
// or for a connection that must be refused.
int unused_loopback_port();

}  // namespace netdoctor::testing
