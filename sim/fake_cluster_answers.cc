// The fake cluster's answers: the launcher line read, the target host reached (or the
// launcher's failure), the remote program's output, and the timeouts that end it.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "base/strings.h"
#include "model/sysfs_paths.h"
#include "sim/fake_cluster.h"
#include "sim/fake_cluster_argv.h"
#include "sim/fake_cluster_parts.h"
#include "sim/fake_cluster_text.h"
#include "sim/writers/host_writers.h"
#include "sim/writers/ib_writers.h"

namespace netdoctor::sim {
namespace fake {

CommandOutput exited(int code, std::string out, std::string err, double seconds) {
  CommandOutput output;
  output.exit_code = code;
  output.out = std::move(out);
  output.err = std::move(err);
  output.duration_s = seconds;
  return output;
}

}  // namespace fake

namespace {

using fake::exited;

// "/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error" -> {"mlx5_0", "symbol_error"}.
std::optional<std::pair<std::string, std::string>> counter_path(std::string_view path) {
  if (!path.starts_with(model::k_sysfs_ib)) {
    return std::nullopt;
  }
  const auto parts = split(path.substr(model::k_sysfs_ib.size()), '/');
  if (parts.size() != 5 || parts[1] != "ports" || parts[2] != "1" || parts[3] != "counters") {
    return std::nullopt;
  }
  return std::make_pair(std::string(parts[0]), std::string(parts[4]));
}

}  // namespace

Result<CommandOutput> FakeCluster::run(const std::vector<std::string>& argv,
                                       const CommandOptions& options) {
  auto invocation = fake::read_launcher(argv);
  if (!invocation.ok()) {
    std::lock_guard<std::mutex> lock(m_mutex);
    count("bad launcher");
    return make_error(ErrorCode::InvalidArgument, invocation.error().message, join(argv, " "));
  }
  Remote remote;
  remote.launcher = invocation->launcher;
  remote.options = &options;
  remote.command_line = join(argv, " ");
  remote.words = std::move(invocation->words);
  remote.wrapper_s = fake::strip_timeout(remote.words);
  remote.tasks_per_node = invocation->tasks_per_node;
  remote.targets = std::move(invocation->hosts);
  if (remote.words.empty()) {
    return make_error(ErrorCode::InvalidArgument, "no remote command", remote.command_line);
  }
  // srun's nccl form starts the test on every node of the allocation: one run over them all.
  if (remote.launcher == fake::Launcher::Srun && fake::is_nccl_test(remote.words[0])) {
    for (const std::string& target : remote.targets) {
      if (auto blocked = reach(remote, target); blocked) {
        return *blocked;
      }
    }
    remote.host = *host_index(remote.targets.front());
    return nccl_run(remote, remote.targets, remote.tasks_per_node);
  }
  CommandOutput all = exited(0, "", "", 0.0);
  for (const std::string& target : remote.targets) {  // srun -w a,b: each node in turn
    if (auto blocked = reach(remote, target); blocked) {
      return *blocked;
    }
    remote.host = *host_index(target);
    auto one = run_program(remote);
    if (!one.ok() || remote.targets.size() == 1) {
      return one;
    }
    all.out += one->out;
    all.err += one->err;
    all.exit_code = std::max(all.exit_code, one->exit_code);
    all.duration_s = std::max(all.duration_s, one->duration_s);
  }
  return all;
}

std::optional<Result<CommandOutput>> FakeCluster::reach(const Remote& remote,
                                                        const std::string& target) {
  const auto h = host_index(target);
  const bool down = h && m_spec.down_hosts.contains(target);
  const bool hung = h && m_spec.hung_hosts.contains(target);
  if (h && !down && !hung) {
    return std::nullopt;
  }
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    count("unreachable");
  }
  if (hung || (down && remote.launcher == fake::Launcher::Srun)) {
    return timed_out(remote);  // ssh never gets an answer; srun waits for the node
  }
  if (remote.launcher == fake::Launcher::Srun) {
    return exited(1, "", "srun: error: Unable to allocate resources: Invalid node name specified\n",
                  fake::k_launch_s);
  }
  std::string err = fake::ssh_failure(target, down);
  if (remote.launcher == fake::Launcher::Pdsh) {
    err += fmt::format("pdsh@login01: {}: ssh exited with exit code 255\n", target);
  }
  return exited(255, "", err, down ? fake::k_launch_s : 0.01);
}

Result<CommandOutput> FakeCluster::finish(const Remote& remote, CommandOutput output) const {
  output.duration_s += fake::k_launch_s;
  if (remote.wrapper_s && output.duration_s > *remote.wrapper_s) {
    output = exited(124, "", "", *remote.wrapper_s);  // timeout(1) ended it
  }
  const double limit_s = std::chrono::duration<double>(remote.options->timeout).count();
  if (output.duration_s > limit_s) {
    return timed_out(remote);
  }
  return output;
}

Result<CommandOutput> FakeCluster::hang(const Remote& remote) const {
  CommandOutput output;
  output.duration_s = 1e9;  // never ends on its own
  return finish(remote, output);
}

Result<CommandOutput> FakeCluster::timed_out(const Remote& remote) const {
  return make_error(ErrorCode::Timeout,
                    fmt::format("{} did not finish within {} ms and was killed",
                                remote.command_line, remote.options->timeout.count()));
}

Result<CommandOutput> FakeCluster::run_program(const Remote& remote) {
  const std::string& program = remote.words[0];
  const Host& host = m_fabric.hosts[remote.host];
  const bool ib = m_spec.infiniband;
  const auto answer = [&](std::string_view kind, CommandOutput output) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      count(kind);
    }
    return finish(remote, std::move(output));
  };
  if (program == "ibv_devinfo") {
    return answer(program, exited(0, ibv_devinfo(host, m_fabric.kind), "", 0.05));
  }
  if (program == "rdma") {
    if (remote.words.size() < 2 || remote.words[1] != "link") {
      const std::string object = remote.words.size() > 1 ? remote.words[1] : "";
      return answer(
          program,
          exited(255, "", "Object \"" + object + "\" is unknown, try \"rdma help\".\n", 0.01));
    }
    return answer(program,
                  exited(0, ib ? ib_rdma_link_show(host) : rdma_link_show(host), "", 0.02));
  }
  if (program == "lldpcli") {
    if (ib) {
      return answer(program, exited(1, "", fake::lldpcli_no_daemon(), 0.02));
    }
    const bool json =
        std::find(remote.words.begin(), remote.words.end(), "json") != remote.words.end();
    return answer(
        program,
        exited(0, json ? lldp_neighbors(m_fabric, host) : lldp_neighbors_text(m_fabric, host), "",
               0.02));
  }
  if (program == "grep") {
    return finish(remote, read_counters(remote.host, remote.words));
  }
  if (program == "ib_write_bw") {
    return perftest(remote);
  }
  if (program == "mpirun" || fake::is_nccl_test(program)) {
    return nccl_run(remote, {host.name}, remote.tasks_per_node);
  }
  if (program == "pkill") {
    std::lock_guard<std::mutex> lock(m_mutex);
    count(program);
    m_pkills.push_back({host.name, remote.words});
    return exited(1, "", "", fake::k_launch_s);
  }
  if (remote.launcher == fake::Launcher::Srun) {
    return answer("unknown",
                  exited(2, "",
                         fmt::format("slurmstepd: error: execve(): {}: No such file or directory\n"
                                     "srun: error: {}: task 0: Exited with exit code 2\n",
                                     program, host.name),
                         0.01));
  }
  return answer("unknown", exited(127, "", "bash: " + program + ": command not found\n", 0.01));
}

// grep -s -H ^ PATH...: each existing counter file's one line; missing ones skipped, exit 2.
CommandOutput FakeCluster::read_counters(std::size_t host, const std::vector<std::string>& words) {
  std::size_t first = 1;
  while (first < words.size() && words[first].starts_with("-")) {
    ++first;
  }
  ++first;  // the pattern
  std::lock_guard<std::mutex> lock(m_mutex);
  count("grep");
  if (m_spec.busy_hosts.contains(m_fabric.hosts[host].name)) {
    const auto words_moved = static_cast<std::uint64_t>(k_busy_bytes_per_read / 4.0);
    for (std::size_t n = 0; n < m_spec.nics_per_host; ++n) {
      m_counters[{host, n}].xmit_words += words_moved;
      m_counters[{host, n}].rcv_words += words_moved;
    }
  }
  std::string out;
  bool missing = false;
  for (std::size_t i = first; i < words.size(); ++i) {
    const auto path = counter_path(words[i]);
    const auto n = path ? nic_index(path->first) : std::nullopt;
    const auto value = n ? m_counters[{host, *n}].get(path->second) : std::nullopt;
    if (!value) {
      missing = true;
      continue;
    }
    out += fmt::format("{}:{}\n", words[i], *value);
  }
  return exited(missing ? 2 : out.empty() ? 1 : 0, out, "", 0.01);
}

}  // namespace netdoctor::sim
