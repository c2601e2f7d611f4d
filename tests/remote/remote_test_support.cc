#include "tests/remote/remote_test_support.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/command_runner.h"
#include "cli/command.h"

namespace netdoctor::testing {
namespace {

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const auto& arg : argv) {
    out.push_back(const_cast<char*>(arg.c_str()));
  }
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv,
                                                  const std::string& log_path) {
  auto args = c_argv(argv);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      dup2(log, 1);
      dup2(log, 2);
    }
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) {
      dup2(null, 0);
    }
    execvp(args[0], args.data());
    _exit(127);
  }
  if (pid < 0) {
    ADD_FAILURE() << "fork failed for " << argv.front();
    return nullptr;
  }
  setpgid(pid, pid);
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid));
}

bool ChildProcess::running() const {
  int status = 0;
  return waitpid(m_pid, &status, WNOHANG) == 0;
}

ChildProcess::~ChildProcess() {
  ::kill(-m_pid, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    int status = 0;
    if (waitpid(m_pid, &status, WNOHANG) != 0) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(-m_pid, SIGKILL);
  int status = 0;
  waitpid(m_pid, &status, 0);
}

CommandResult run_argv(const std::vector<std::string>& argv) {
  CommandResult result;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) {
    return result;
  }
  auto args = c_argv(argv);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], 1);
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) {
    result.output.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

CliResult run_netdoctor(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"netdoctor"};
  full.insert(full.end(), args.begin(), args.end());
  std::ostringstream out;
  std::ostringstream err;
  CliResult result;
  result.exit_code = cli::run_cli(full, out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

bool make_certificate(const std::string& dir) {
  const auto result = run_argv({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                                "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
                                "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem"});
  EXPECT_EQ(result.status, 0) << result.output;
  return result.status == 0;
}

void write_file(const std::string& path, const std::string& content, unsigned mode) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  }
  chmod(path.c_str(), static_cast<mode_t>(mode));
}

std::string wait_for_file(const std::string& path, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(path);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      return text.str();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> read_tree(const std::string& root) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      out.emplace_back(entry.path().string(), text.str());
    }
  }
  return out;
}

bool program_exists(const std::string& name) {
  return !find_program(name).empty();
}

int unused_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace netdoctor::testing
