// The fake cluster's active tests: ib_write_bw's two sides meeting on a TCP port, and
// nccl-tests over a group of hosts.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/strings.h"
#include "sim/fake_cluster.h"
#include "sim/fake_cluster_argv.h"
#include "sim/fake_cluster_parts.h"
#include "sim/fake_cluster_text.h"
#include "sim/rng.h"

namespace netdoctor::sim {
namespace {

enum class Stage { Waiting, Connected, Done };

constexpr double k_noise = 0.008;          // perftest's run-to-run spread: +-0.8 %
constexpr double k_nccl_noise = 0.005;     // nccl-tests': +-0.5 %
constexpr int k_nccl_legs = 2 * (5 + 20);  // out-of-place and in-place, warmup + timed iters

CommandOutput failed(std::string err, double seconds) {
  return fake::exited(1, "", std::move(err), seconds);
}

// 1 +- spread, the same for the same key.
double noise(std::uint64_t seed, const std::string& key, double spread) {
  return 1.0 + spread * (2.0 * hash_unit(seed, key, 0) - 1.0);
}

}  // namespace

struct FakeCluster::Rendezvous {
  NicKey server;
  NicKey client;
  Stage stage = Stage::Waiting;
  double gbps = 0;
};

Result<CommandOutput> FakeCluster::perftest(const Remote& remote) {
  auto args = fake::read_perftest(remote.words);
  if (!args.ok()) {
    std::lock_guard<std::mutex> lock(m_mutex);
    count("ib_write_bw bad arguments");
    return finish(remote, failed(" " + args.error().message + "\n", 0.01));
  }
  const bool server = args->server.empty();
  const auto nic = args->device.empty() ? std::optional<std::size_t>(0) : nic_index(args->device);
  if (!nic || args->ib_port != 1) {
    std::lock_guard<std::mutex> lock(m_mutex);
    count(server ? "ib_write_bw server" : "ib_write_bw client");
    return finish(remote, failed(fake::perftest_no_device(args->device), 0.05));
  }
  if (server) {
    return perftest_server(remote, *nic, *args);
  }
  const auto server_host = host_index(args->server);
  if (!server_host || m_spec.down_hosts.contains(args->server)) {
    std::lock_guard<std::mutex> lock(m_mutex);
    count("ib_write_bw client");
    return finish(remote,
                  failed(fake::perftest_connect_failure(args->server, args->tcp_port), 0.05));
  }
  return perftest_client(remote, *nic, *server_host, *args);
}

namespace {

// One side's finished run: its text, and the -D seconds plus the setup it took.
CommandOutput perftest_done(const Fabric& fabric, const fake::PerftestArgs& args,
                            std::pair<std::size_t, std::size_t> local,
                            std::pair<std::size_t, std::size_t> remote, double gbps,
                            double setup_s) {
  const Nic& mine = fabric.hosts[local.first].nics[local.second];
  const Nic& theirs = fabric.hosts[remote.first].nics[remote.second];
  fake::PerftestText text;
  text.server = args.server.empty();
  text.infiniband = fabric.kind == FabricKind::Ib;
  text.duration_mode = args.duration_mode;
  text.report_gbits = args.report_gbits;
  text.gid_index = args.gid_index.value_or(3);
  text.local = {mine.rdma_dev, mine.ip, mine.lid};
  text.remote = {theirs.rdma_dev, theirs.ip, theirs.lid};
  text.gbps = gbps;
  text.seconds = args.seconds;
  text.key = mine.node_guid ^ (theirs.node_guid << 1) ^ static_cast<std::uint64_t>(args.tcp_port);
  return fake::exited(0, fake::perftest_text(text), "", args.seconds + setup_s);
}

}  // namespace

// Registers, waits for a client, then for it to finish; with none, hangs as perftest does.
Result<CommandOutput> FakeCluster::perftest_server(const Remote& remote, std::size_t nic,
                                                   const fake::PerftestArgs& args) {
  const NicKey self{remote.host, nic};
  const std::size_t leaf = m_fabric.hosts[remote.host].leaf;
  const std::pair<std::size_t, int> key{remote.host, args.tcp_port};
  std::unique_lock<std::mutex> lock(m_mutex);
  count("ib_write_bw server");
  if (m_servers.contains(key)) {
    lock.unlock();
    return finish(remote, failed(fake::perftest_listen_failure(args.tcp_port), 0.05));
  }
  auto meeting = std::make_shared<Rendezvous>();
  meeting->server = self;
  m_servers.emplace(key, meeting);
  hold(self, leaf, +1);
  m_changed.notify_all();
  const bool met = m_changed.wait_for(lock, std::chrono::milliseconds(m_spec.rendezvous_ms),
                                      [&] { return meeting->stage != Stage::Waiting; });
  if (met) {
    m_changed.wait(lock, [&] { return meeting->stage == Stage::Done; });
  }
  m_servers.erase(key);
  hold(self, leaf, -1);
  m_changed.notify_all();
  if (!met) {
    lock.unlock();
    return hang(remote);
  }
  const NicKey client = meeting->client;
  const double gbps = meeting->gbps;
  lock.unlock();
  return finish(remote, perftest_done(m_fabric, args, self, client, gbps, m_spec.perftest_setup_s));
}

// Waits for the server's registration, measures, holds its NICs client_hold_ms, finishes.
Result<CommandOutput> FakeCluster::perftest_client(const Remote& remote, std::size_t nic,
                                                   std::size_t server_host,
                                                   const fake::PerftestArgs& args) {
  const NicKey self{remote.host, nic};
  const std::pair<std::size_t, int> key{server_host, args.tcp_port};
  std::unique_lock<std::mutex> lock(m_mutex);
  count("ib_write_bw client");
  std::shared_ptr<Rendezvous> meeting;
  const bool found = m_changed.wait_for(lock, std::chrono::milliseconds(m_spec.rendezvous_ms), [&] {
    const auto it = m_servers.find(key);
    if (it != m_servers.end() && it->second->stage == Stage::Waiting) {
      meeting = it->second;
    }
    return meeting != nullptr;
  });
  if (!found) {
    lock.unlock();
    return finish(remote, failed(fake::perftest_connect_failure(args.server, args.tcp_port), 0.05));
  }
  const NicKey server = meeting->server;
  const std::size_t server_leaf = m_fabric.hosts[server.first].leaf;
  const std::size_t my_leaf = m_fabric.hosts[remote.host].leaf;
  const std::size_t leaf = my_leaf == server_leaf ? k_none : my_leaf;  // a test counts once a leaf
  const std::string pair =
      fmt::format("{}/{}>{}/{}", remote.host, nic, server.first, server.second);
  const double gbps = healthy_gbps() * nic_factor(self.first, self.second) *
                      nic_factor(server.first, server.second) * noise(m_spec.seed, pair, k_noise);
  meeting->client = self;
  meeting->gbps = gbps;
  meeting->stage = Stage::Connected;
  hold(self, leaf, +1);
  record_perftest(self, server, gbps, args.seconds);
  m_changed.notify_all();
  lock.unlock();
  if (m_spec.client_hold_ms > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(m_spec.client_hold_ms));
  }
  lock.lock();
  meeting->stage = Stage::Done;
  hold(self, leaf, -1);
  m_changed.notify_all();
  lock.unlock();
  return finish(remote, perftest_done(m_fabric, args, self, server, gbps, m_spec.perftest_setup_s));
}

void FakeCluster::record_perftest(const NicKey& client, const NicKey& server, double gbps,
                                  double seconds) {
  const auto words = static_cast<std::uint64_t>(gbps * 1e9 / 8.0 * seconds / 4.0);
  m_counters[client].xmit_words += words;
  m_counters[server].rcv_words += words;
  for (const NicKey& end : {client, server}) {
    if (!is_bad_cable(end.first, end.second)) {
      continue;
    }
    // A marginal cable: a burst of symbol errors, some corrupt packets, a retrain per test.
    Counters& counters = m_counters[end];
    counters.symbol_error += 100 + counters.symbol_error % 97;
    counters.port_rcv_errors += 10 + counters.port_rcv_errors % 7;
    counters.link_error_recovery += 1;
  }
}

Result<CommandOutput> FakeCluster::nccl_run(const Remote& remote,
                                            const std::vector<std::string>& hosts,
                                            std::size_t tasks) {
  Result<fake::NcclArgs> args = remote.words[0] == "mpirun" ? fake::read_mpirun(remote.words)
                                                            : fake::read_nccl_test(remote.words);
  if (args.ok() && remote.words[0] != "mpirun") {
    for (const std::string& host : hosts) {
      args->hosts.emplace_back(host, tasks);
    }
  }
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    count(args.ok() ? args->test : "nccl bad arguments");
  }
  if (!args.ok()) {
    return finish(remote, failed(args.error().message + "\n", 0.05));
  }
  // A member mpirun cannot reach fails the launch; a hung one (or srun's down one) hangs it.
  Members members;
  for (const auto& [name, ranks] : args->hosts) {
    const auto h = host_index(name);
    const bool down = !h || m_spec.down_hosts.contains(name);
    if (m_spec.hung_hosts.contains(name) || (down && remote.launcher == fake::Launcher::Srun)) {
      return hang(remote);
    }
    if (down) {
      return finish(remote,
                    failed(fake::mpirun_unreachable(name, fake::ssh_failure(name, !!h)), 1.0));
    }
    members.emplace_back(*h, ranks);
  }
  fake::NcclText text;
  text.test = args->test;
  for (const auto& [name, ranks] : args->hosts) {
    text.rank_hosts.insert(text.rank_hosts.end(), ranks, name);
  }
  text.min_bytes = args->min_bytes;
  text.max_bytes = args->max_bytes;
  text.factor = args->factor;
  const std::string group = args->test + ":" + join(text.rank_hosts, ",");
  text.peak_busbw =
      healthy_busbw() * group_factor(members, args->test) * noise(m_spec.seed, group, k_nccl_noise);
  text.key = hash_u64(m_spec.seed, group, 1);
  record_nccl(*args, members, text.rank_hosts.size());
  return finish(
      remote, fake::exited(0, fake::nccl_tests_text(text), "",
                           m_spec.nccl_setup_s +
                               m_spec.nccl_seconds_per_host * static_cast<double>(members.size())));
}

double FakeCluster::group_factor(const Members& members, const std::string& test) const {
  double factor = 1.0;
  bool alltoall_slow = false;
  for (const auto& [h, ranks] : members) {
    for (std::size_t n = 0; n < m_spec.nics_per_host; ++n) {
      factor = std::min(factor, nic_factor(h, n));
    }
    alltoall_slow = alltoall_slow || m_spec.alltoall_slow_hosts.contains(m_fabric.hosts[h].name);
  }
  return test == "alltoall_perf" && alltoall_slow ? factor * m_spec.alltoall_factor : factor;
}

// Roughly what the collective moves through each member NIC: every rank's share of each size's
// bus traffic, over the timed and warmup legs, spread over its host's NICs.
void FakeCluster::record_nccl(const fake::NcclArgs& args, const Members& members,
                              std::size_t ranks_in_all) {
  double bytes = 0;
  for (std::uint64_t size = args.min_bytes; size <= args.max_bytes; size *= args.factor) {
    bytes += static_cast<double>(size) * fake::nccl_bus_factor(args.test, ranks_in_all);
  }
  const double per_rank = bytes * k_nccl_legs / static_cast<double>(m_spec.nics_per_host);
  std::lock_guard<std::mutex> lock(m_mutex);
  for (const auto& [h, ranks] : members) {
    const auto words = static_cast<std::uint64_t>(per_rank * static_cast<double>(ranks) / 4.0);
    for (std::size_t n = 0; n < m_spec.nics_per_host; ++n) {
      m_counters[{h, n}].xmit_words += words;
      m_counters[{h, n}].rcv_words += words;
    }
  }
}

}  // namespace netdoctor::sim
