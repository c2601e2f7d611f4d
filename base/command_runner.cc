// LiveCommandRunner: posix_spawn (never a shell) in a process group of its own, so that a
// timeout or an output cap can kill the program together with everything it started.
#include "base/command_runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "base/strings.h"

extern char** environ;

namespace netdoctor {
namespace {

using Clock = std::chrono::steady_clock;

// Grace between SIGTERM and SIGKILL at a timeout.
constexpr std::chrono::milliseconds k_term_grace{300};
constexpr std::size_t k_read_chunk = 64 * 1024;

class Pipe {
 public:
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) == 0) {
      m_read = fds[0];
      m_write = fds[1];
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  bool ok() const { return m_read >= 0 && m_write >= 0; }
  int read_end() const { return m_read; }
  int write_end() const { return m_write; }
  void close_read() { close_fd(m_read); }
  int release_read() { return std::exchange(m_read, -1); }
  int release_write() { return std::exchange(m_write, -1); }
  void close_write() { close_fd(m_write); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }
  int m_read = -1;
  int m_write = -1;
};

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Writes to a pipe whose reader may be gone without letting SIGPIPE kill us: the signal is
// blocked on this thread and a pending one consumed.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t pipe_only;
  sigset_t old_mask;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask);
  const ssize_t n = ::write(fd, data, size);
  const int saved = errno;
  if (n < 0 && saved == EPIPE) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe_only, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = saved;
  return n;
}

// The environment for the child: ours with LC_ALL=C, so tools print the formats parsers know.
std::vector<std::string> child_environment() {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (!starts_with(*e, "LC_ALL=")) {
      env.emplace_back(*e);
    }
  }
  env.emplace_back("LC_ALL=C");
  return env;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

// posix_spawn rather than fork + exec: glibc spawns with CLONE_VM|CLONE_VFORK, so the parent's
// page tables and memory map are never copied. A fork costs in proportion to the parent's
// mappings and threads: `collect --hosts` at --parallel 1024 (1,024 thread stacks, a merge
// heap) spent most of its CPU in fork's copy_page_range and the exec's unmap, and starved its
// own launchers into timeouts. The child gets a process group of its own, an empty signal mask,
// SIGPIPE at its default, stdin from `stdin_fd` or /dev/null. Returns the spawn's errno (an exec
// failure included), 0 on success.
class SpawnSetup {
 public:
  SpawnSetup() {
    m_ok = ::posix_spawn_file_actions_init(&m_actions) == 0;
    m_ok = ::posix_spawnattr_init(&m_attr) == 0 && m_ok;
  }
  ~SpawnSetup() {
    ::posix_spawn_file_actions_destroy(&m_actions);
    ::posix_spawnattr_destroy(&m_attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  int spawn(pid_t& pid, const char* program, char** argv, char** envp, int stdin_fd, int stdout_fd,
            int stderr_fd) {
    if (!m_ok) {
      return ENOMEM;
    }
    sigset_t none;
    sigemptyset(&none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    int rc = ::posix_spawnattr_setflags(
        &m_attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    rc = rc != 0 ? rc : ::posix_spawnattr_setpgroup(&m_attr, 0);
    rc = rc != 0 ? rc : ::posix_spawnattr_setsigmask(&m_attr, &none);
    rc = rc != 0 ? rc : ::posix_spawnattr_setsigdefault(&m_attr, &defaults);
    rc = rc != 0         ? rc
         : stdin_fd >= 0 ? ::posix_spawn_file_actions_adddup2(&m_actions, stdin_fd, STDIN_FILENO)
                         : ::posix_spawn_file_actions_addopen(&m_actions, STDIN_FILENO, "/dev/null",
                                                              O_RDONLY, 0);
    rc = rc != 0 ? rc : ::posix_spawn_file_actions_adddup2(&m_actions, stdout_fd, STDOUT_FILENO);
    rc = rc != 0 ? rc : ::posix_spawn_file_actions_adddup2(&m_actions, stderr_fd, STDERR_FILENO);
    return rc != 0 ? rc : ::posix_spawn(&pid, program, &m_actions, &m_attr, argv, envp);
  }

 private:
  posix_spawn_file_actions_t m_actions{};
  posix_spawnattr_t m_attr{};
  bool m_ok = false;
};

// Drains the child's output, feeds its input, enforces the timeout and the cap.
class ChildSession {
 public:
  ChildSession(pid_t pid, const CommandOptions& options, Clock::time_point start)
      : m_pid(pid), m_options(options), m_deadline(start + options.timeout) {}

  void run(int out_fd, int err_fd, int in_fd, CommandOutput& output) {
    set_nonblocking(out_fd);
    set_nonblocking(err_fd);
    if (in_fd >= 0) {
      set_nonblocking(in_fd);
    }
    std::size_t written = 0;
    while (out_fd >= 0 || err_fd >= 0) {
      if (Clock::now() >= m_deadline && !m_killed) {
        timeout(output);
      }
      if (cancelled() && !m_killed) {
        output.cancelled = true;
        kill_group(SIGTERM);
      }
      pollfd fds[3];
      nfds_t count = 0;
      if (out_fd >= 0) {
        fds[count++] = {out_fd, POLLIN, 0};
      }
      if (err_fd >= 0) {
        fds[count++] = {err_fd, POLLIN, 0};
      }
      if (in_fd >= 0) {
        fds[count++] = {in_fd, POLLOUT, 0};
      }
      const int rc = ::poll(fds, count, poll_timeout_ms());
      if (rc < 0 && errno != EINTR) {
        break;
      }
      for (nfds_t i = 0; i < count && rc > 0; ++i) {
        if (fds[i].revents == 0) {
          continue;
        }
        if (fds[i].fd == in_fd) {
          feed(in_fd, written);
        } else if (fds[i].fd == out_fd) {
          drain(out_fd, output.out, output);
        } else {
          drain(err_fd, output.err, output);
        }
      }
    }
    if (in_fd >= 0) {
      ::close(in_fd);
    }
    reap(output);
  }

 private:
  int poll_timeout_ms() const {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        (m_killed ? m_kill_at : m_deadline) - Clock::now());
    const std::int64_t most = m_options.cancel != nullptr ? 100 : 1000;
    return static_cast<int>(std::clamp<std::int64_t>(left.count() + 1, 0, most));
  }

  bool cancelled() const { return m_options.cancel != nullptr && m_options.cancel->load(); }

  void feed(int& in_fd, std::size_t& written) {
    const std::string& data = m_options.stdin_data;
    const ssize_t n = write_without_sigpipe(in_fd, data.data() + written, data.size() - written);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
    }
    if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == data.size()) {
      ::close(in_fd);  // EOF for the child, or it stopped reading
      in_fd = -1;
    }
  }

  void drain(int& fd, std::string& into, CommandOutput& output) {
    char buffer[k_read_chunk];
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      return;
    }
    if (n <= 0) {
      ::close(fd);
      fd = -1;
      return;
    }
    const auto cap = static_cast<std::size_t>(m_options.max_output_bytes);
    const std::size_t room = cap > into.size() ? cap - into.size() : 0;
    into.append(buffer, std::min(room, static_cast<std::size_t>(n)));
    if (static_cast<std::size_t>(n) > room && !output.truncated) {
      output.truncated = true;
      kill_group(SIGKILL);
    }
  }

  void timeout(CommandOutput& output) {
    output.timed_out = true;
    kill_group(SIGTERM);
    m_kill_at = Clock::now() + k_term_grace;
  }

  void kill_group(int sig) {
    ::kill(-m_pid, sig);
    if (sig == SIGKILL) {
      m_hard_killed = true;
    }
    m_killed = true;
    m_kill_at = Clock::now() + k_term_grace;
  }

  // Waits for the child; past the deadline (its output closed but it lives on) it is killed.
  void reap(CommandOutput& output) {
    int status = 0;
    for (;;) {
      const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
      if (done == m_pid || (done < 0 && errno != EINTR)) {
        break;
      }
      const auto now = Clock::now();
      if (!m_killed && now >= m_deadline) {
        timeout(output);
      } else if (!m_killed && cancelled()) {
        output.cancelled = true;
        kill_group(SIGTERM);
      } else if (m_killed && !m_hard_killed && now >= m_kill_at) {
        kill_group(SIGKILL);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (m_killed) {
      ::kill(-m_pid, SIGKILL);  // whatever of the group outlived its leader
    }
    if (WIFEXITED(status)) {
      output.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      output.signal = WTERMSIG(status);
      output.exit_code = -1;
    }
  }

  pid_t m_pid;
  const CommandOptions& m_options;
  Clock::time_point m_deadline;
  Clock::time_point m_kill_at{};
  bool m_killed = false;
  bool m_hard_killed = false;
};

}  // namespace

std::string find_program(const std::string& name) {
  if (name.empty()) {
    return {};
  }
  if (name.find('/') != std::string::npos) {
    return ::access(name.c_str(), X_OK) == 0 ? name : std::string{};
  }
  const char* path_env = std::getenv("PATH");
  const std::string search = path_env != nullptr
                                 ? path_env
                                 : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  for (std::string_view dir : split(search, ':')) {
    const std::string candidate =
        dir.empty() ? name : fmt::format("{}/{}", dir, name);  // empty entry = current dir
    if (::access(candidate.c_str(), X_OK) == 0) {
      struct stat st {};
      if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        return candidate;
      }
    }
  }
  return {};
}

Result<CommandOutput> LiveCommandRunner::run(const std::vector<std::string>& argv,
                                             const CommandOptions& options) {
  const std::string command_line = join(argv, " ");
  if (argv.empty()) {
    return make_error(ErrorCode::InvalidArgument, "empty command", "");
  }
  const std::string program = find_program(argv[0]);
  if (program.empty()) {
    return make_error(ErrorCode::NotFound, fmt::format("{}: program not found", argv[0]),
                      command_line);
  }
  std::vector<std::string> args = argv;
  std::vector<std::string> env = child_environment();
  std::vector<char*> arg_ptrs = pointers_to(args);
  std::vector<char*> env_ptrs = pointers_to(env);

  Pipe out;
  Pipe err;
  Pipe in;
  const bool with_stdin = !options.stdin_data.empty();
  if (!out.ok() || !err.ok() || (with_stdin && !in.ok())) {
    return make_error(ErrorCode::Io, fmt::format("pipe: {}", std::strerror(errno)), command_line);
  }
  const auto start = Clock::now();
  pid_t pid = -1;
  SpawnSetup setup;
  const int spawn_errno =
      setup.spawn(pid, program.c_str(), arg_ptrs.data(), env_ptrs.data(),
                  with_stdin ? in.read_end() : -1, out.write_end(), err.write_end());
  if (spawn_errno != 0) {
    const ErrorCode code = spawn_errno == ENOENT   ? ErrorCode::NotFound
                           : spawn_errno == EACCES ? ErrorCode::PermissionDenied
                                                   : ErrorCode::Io;
    return make_error(code, fmt::format("cannot run {}: {}", argv[0], std::strerror(spawn_errno)),
                      command_line);
  }
  out.close_write();
  err.close_write();
  in.close_read();

  CommandOutput output;
  ChildSession session(pid, options, start);
  // The session owns and closes these from here on.
  session.run(out.release_read(), err.release_read(), with_stdin ? in.release_write() : -1, output);
  output.duration_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (output.timed_out) {
    return make_error(ErrorCode::Timeout,
                      fmt::format("{} did not finish within {} ms and was killed", command_line,
                                  options.timeout.count()),
                      output.out);
  }
  return output;
}

}  // namespace netdoctor
