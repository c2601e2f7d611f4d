#include "tests/support/ibsim_fabric.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "parsers/ibnetdiscover.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace fs = std::filesystem;
using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

namespace {

const char* const k_umad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
const char* const k_path = "/usr/sbin:/usr/bin:/sbin:/bin";
// Between SIGTERM and SIGKILL when stopping ibsim and opensm (opensm takes about a second).
constexpr milliseconds k_term_grace{1500};
constexpr milliseconds k_poll{20};

std::string find_tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin", "/usr/bin", "/sbin", "/bin"}) {
    const std::string path = std::string(dir) + "/" + name;
    if (::access(path.c_str(), X_OK) == 0) {
      return path;
    }
  }
  return {};
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

// Starts `argv` in a process group of its own with exactly `env`, stdin from `stdin_fd` (or
// /dev/null when negative), stdout and stderr to `out_path` and `err_path`, in `cwd`.
pid_t spawn(std::vector<std::string> argv, std::vector<std::string> env, int stdin_fd,
            const std::string& out_path, const std::string& err_path, const std::string& cwd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdin_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0644);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  auto args = c_strings(argv);
  auto vars = c_strings(env);
  pid_t pid = -1;
  const int rc =
      posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), vars.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << argv[0] << ": " << std::strerror(rc);
    return -1;
  }
  return pid;
}

// Waits for `pid` until `deadline`; true (and *status set) if it ended.
bool wait_until(pid_t pid, SteadyClock::time_point deadline, int* status) {
  for (;;) {
    const pid_t done = ::waitpid(pid, status, WNOHANG);
    if (done == pid || (done < 0 && errno == ECHILD)) {
      return true;
    }
    if (SteadyClock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(milliseconds(5));
  }
}

// SIGTERM to the group, SIGKILL after the grace, always reaped.
void stop_group(pid_t pid) {
  if (pid <= 0) {
    return;
  }
  int status = 0;
  ::kill(-pid, SIGTERM);
  if (!wait_until(pid, SteadyClock::now() + k_term_grace, &status)) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  ::kill(-pid, SIGKILL);  // whatever of the group outlived its leader
}

std::string make_scratch_dir(bool& ours) {
  std::error_code error;
  if (fs::is_directory("/dev/shm", error) && ::access("/dev/shm", W_OK) == 0) {
    std::string pattern = "/dev/shm/netdoctor-ibsim-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) {
      ours = true;
      return pattern;
    }
  }
  ours = false;
  return make_temp_dir("ibsim");
}

std::string two_digits(int n) {
  return fmt::format("{:02d}", n);
}

}  // namespace

std::string spine_description(int spine) {
  return "MF0;spine-" + two_digits(spine) + ":MQM8700/U1";
}
std::string leaf_description(int leaf) {
  return "MF0;leaf-" + two_digits(leaf) + ":MQM8700/U1";
}
std::string host_name(int host) {
  return "node" + two_digits(host);
}
std::string host_description(int host) {
  return host_name(host) + " mlx5_0";
}

int fat_tree_nodes(const FatTree& shape) {
  return shape.spines + shape.leaves + shape.leaves * shape.hosts_per_leaf;
}

std::string fat_tree_netfile(const FatTree& shape) {
  // The "# lid 0 4xHDR" comment is ibnetdiscover's form, which ibsim reads the link's width
  // and speed from (an HCA line carries its own "lid 0 lmc 0" first).
  const std::string link = "\t# lid 0 4x" + shape.speed + "\n";
  std::string text = fmt::format("# fat tree: {} spines, {} leaves, {} hosts per leaf\n\n",
                                 shape.spines, shape.leaves, shape.hosts_per_leaf);
  for (int s = 1; s <= shape.spines; ++s) {
    text += fmt::format("Switch\t{} \"{}\"\n", shape.switch_ports, spine_description(s));
    for (int l = 1; l <= shape.leaves; ++l) {
      text +=
          fmt::format("[{}]\t\"{}\"[{}]{}", l, leaf_description(l), shape.hosts_per_leaf + s, link);
    }
    text += "\n";
  }
  for (int l = 1; l <= shape.leaves; ++l) {
    text += fmt::format("Switch\t{} \"{}\"\n", shape.switch_ports, leaf_description(l));
    for (int h = 1; h <= shape.hosts_per_leaf; ++h) {
      const int host = (l - 1) * shape.hosts_per_leaf + h;
      text += fmt::format("[{}]\t\"{}\"[1]{}", h, host_description(host), link);
    }
    for (int s = 1; s <= shape.spines; ++s) {
      text += fmt::format("[{}]\t\"{}\"[{}]{}", shape.hosts_per_leaf + s, spine_description(s), l,
                          link);
    }
    text += "\n";
  }
  for (int l = 1; l <= shape.leaves; ++l) {
    for (int h = 1; h <= shape.hosts_per_leaf; ++h) {
      const int host = (l - 1) * shape.hosts_per_leaf + h;
      text += fmt::format("Hca\t1 \"{}\"\n[1]\t\"{}\"[{}]\t# lid 0 lmc 0 \"{}\" lid 0 4x{}\n\n",
                          host_description(host), leaf_description(l), h, leaf_description(l),
                          shape.speed);
    }
  }
  return text;
}

std::string IbsimFabric::missing() {
  std::vector<std::string> absent;
  for (const char* tool : {"ibsim", "opensm", "ibnetdiscover", "iblinkinfo", "perfquery", "sminfo",
                           "ibqueryerrors", "ibportstate"}) {
    if (find_tool(tool).empty()) {
      absent.emplace_back(tool);
    }
  }
  if (::access(k_umad2sim, R_OK) != 0) {
    absent.emplace_back(k_umad2sim);
  }
  if (absent.empty()) {
    return {};
  }
  std::string why = "ibsim test skipped: not installed:";
  for (const auto& name : absent) {
    why += " " + name;
  }
  return why + " (apt-get install ibsim-utils opensm infiniband-diags; scripts/setup does)";
}

IbsimFabric::IbsimFabric(const std::string& netfile, std::string attach_to)
    : m_attach_to(std::move(attach_to)) {
  m_dir = make_scratch_dir(m_dir_is_ours);
  // One socket name per fabric: ibsim binds abstract unix sockets named after it.
  m_sockname = fmt::format("netdoctor-{}-{}", ::getpid(),
                           SteadyClock::now().time_since_epoch().count() % 1000000007);
  std::ofstream(m_dir + "/net") << netfile;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return;
  }
  m_console = fds[1];
  std::vector<std::string> env = {"PATH=" + std::string(k_path), "IBSIM_SOCKNAME=" + m_sockname};
  const std::string log = m_dir + "/ibsim.log";
  m_ibsim = spawn({find_tool("ibsim"), "-s", m_dir + "/net"}, env, fds[0], log, log, m_dir);
  ::close(fds[0]);
  const auto deadline = SteadyClock::now() + std::chrono::seconds(10);
  while (m_ibsim > 0 && slurp(log).find("sim>") == std::string::npos) {
    int status = 0;
    if (wait_until(m_ibsim, SteadyClock::now() + k_poll, &status) ||
        SteadyClock::now() > deadline) {
      ADD_FAILURE() << "ibsim did not start on " << m_dir << "/net:\n" << slurp(log);
      stop_group(m_ibsim);
      m_ibsim = -1;
    }
  }
}

IbsimFabric::~IbsimFabric() {
  stop_group(m_opensm);
  stop_group(m_ibsim);
  if (m_console >= 0) {
    ::close(m_console);
  }
  if (m_dir_is_ours && std::getenv("NETDOCTOR_KEEP_TEST_TMP") == nullptr) {
    std::error_code error;
    fs::remove_all(m_dir, error);
  }
}

std::vector<std::pair<std::string, std::string>> IbsimFabric::env() const {
  return {{"LD_PRELOAD", k_umad2sim},
          {"IBSIM_SOCKNAME", m_sockname},
          {"SIM_HOST", m_attach_to},
          {"PATH", k_path}};
}

ToolOutput IbsimFabric::run(const std::vector<std::string>& argv,
                            std::chrono::milliseconds timeout) const {
  ToolOutput result;
  const int n = m_runs++;
  const std::string out_path = fmt::format("{}/run-{}.out", m_dir, n);
  const std::string err_path = fmt::format("{}/run-{}.err", m_dir, n);
  std::vector<std::string> env;
  for (const auto& [name, value] : this->env()) {
    env.push_back(name + "=" + value);
  }
  env.emplace_back("LC_ALL=C");
  std::vector<std::string> args = argv;
  args[0] = find_tool(argv[0]);
  if (args[0].empty()) {
    ADD_FAILURE() << argv[0] << " is not installed";
    return result;
  }
  const pid_t pid = spawn(args, env, -1, out_path, err_path, m_dir);
  if (pid <= 0) {
    return result;
  }
  int status = 0;
  if (!wait_until(pid, SteadyClock::now() + timeout, &status)) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return result;
}

std::string IbsimFabric::console(const std::string& command) {
  const std::string log = m_dir + "/ibsim.log";
  const std::string before = slurp(log);
  const std::size_t prompts = count_of(before, "sim>");
  const std::string line = command + "\n";
  if (::write(m_console, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    ADD_FAILURE() << "cannot write to ibsim's console: " << std::strerror(errno);
    return {};
  }
  const auto deadline = SteadyClock::now() + std::chrono::seconds(5);
  for (;;) {
    const std::string now = slurp(log);
    if (count_of(now, "sim>") > prompts) {
      return now.substr(std::min(before.size(), now.size()));
    }
    if (SteadyClock::now() > deadline) {
      ADD_FAILURE() << "ibsim did not answer '" << command << "'";
      return now.substr(std::min(before.size(), now.size()));
    }
    std::this_thread::sleep_for(k_poll);
  }
}

bool IbsimFabric::start_opensm(std::chrono::milliseconds wait) {
  const std::string osm = m_dir + "/opensm";
  fs::create_directories(osm);
  std::vector<std::string> env;
  for (const auto& [name, value] : this->env()) {
    env.push_back(name + "=" + value);
  }
  env.push_back("OSM_CACHE_DIR=" + osm);
  env.push_back("OSM_TMP_DIR=" + osm);
  const std::string out = osm + "/opensm.out";
  // -s 0: no periodic sweeps (a sweep per trap still runs); -f: its log here, not /var/log.
  m_opensm =
      spawn({find_tool("opensm"), "-f", osm + "/opensm.log", "-s", "0"}, env, -1, out, out, m_dir);
  const auto deadline = SteadyClock::now() + wait;
  while (m_opensm > 0 && SteadyClock::now() < deadline) {
    const auto sm = run({"sminfo"}, milliseconds(5000));
    if (sm.exit_code == 0 && sm.out.find("SMINFO_MASTER") != std::string::npos) {
      const auto links = run({"iblinkinfo"}, milliseconds(10000));
      // Every trained port Active: LIDs assigned and the switches' routes set.
      if (links.exit_code == 0 && count_of(links.out, "LinkUp") > 0 &&
          count_of(links.out, "LinkUp") == count_of(links.out, "Active/  LinkUp")) {
        return true;
      }
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  const std::string log = slurp(osm + "/opensm.log");
  ADD_FAILURE() << "opensm did not bring the subnet up within " << wait.count() << " ms:\n"
                << slurp(out) << log.substr(log.size() > 3000 ? log.size() - 3000 : 0);
  return false;
}

void IbsimFabric::stop_opensm() {
  stop_group(m_opensm);
  m_opensm = -1;
}

unsigned IbsimFabric::lid_of(const std::string& description) const {
  const auto discovered = run({"ibnetdiscover"});
  auto topology = parsers::parse_ibnetdiscover(discovered.out);
  if (!topology.ok()) {
    return 0;
  }
  const auto* node = topology->find_node(description);
  if (node == nullptr) {
    return 0;
  }
  if (node->type == "Switch") {
    return node->lid.value_or(0);
  }
  return node->links.empty() ? 0 : node->links.front().lid.value_or(0);
}

}  // namespace netdoctor::testing
