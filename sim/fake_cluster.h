// A fake cluster behind the CommandRunner seam, for testing `netdoctor sweep` (docs/sweep.md)
// without RDMA hardware. It answers the launcher-wrapped remote commands of docs/sweep.md
// ("Remote commands") with the text the real tools print, so the sweep reads them with the
// repository's own parsers, and it hides faults for the sweep to find.
//
// Contract of run(argv, options):
// - argv is a launcher line: `ssh [-o OPT]... -- HOST 'WORDS'` (one shell-quoted string, split
//   as the remote shell does), `pdsh -N -S [-R RCMD] -w HOST 'W' 'W'...`, or `srun -w HOSTS
//   [-N n] [-n n] [--ntasks-per-node=G] -- WORDS...`. A leading `timeout [-k K] T` of the
//   remote words is the remote command's own limit: a run longer than T ends with exit 124 at T.
//   Anything else -> InvalidArgument.
// - A host not of the cluster: ssh/pdsh exit 255 "ssh: Could not resolve hostname ...", srun
//   exit 1 "Invalid node name specified". A down host: ssh/pdsh exit 255 "ssh: connect to host
//   X port 22: No route to host"; srun waits for it (a hang). A hung host, and any run modelled
//   longer than options.timeout: ErrorCode::Timeout, as LiveCommandRunner reports a command it
//   killed (no real waiting: the modelled time never elapses).
// - The answers, per remote program (anything else: exit 127 "bash: X: command not found"):
//   ibv_devinfo: every NIC, PORT_ACTIVE, link_layer Ethernet or InfiniBand, width and lane speed
//     giving line_gbps (sim/writers ibv_devinfo). rdma link show: dev/1 -> netdev (RoCE
//     ens{n+1}f0np0; InfiniBand the IPoIB ibp{bus}s0). lldpcli -f json show neighbors: each
//     netdev's leaf ("leaf01") and port ("Ethernet0", +4 per NIC), the text form without -f json;
//     on InfiniBand lldpd is not running: exit 1, lldpcli's socket errors on stderr.
//   grep -s -H ^ PATHS: "PATH:VALUE" for each /sys/class/infiniband/DEV/ports/1/counters/NAME of
//     port_xmit_data port_rcv_data (4-byte words) symbol_error port_rcv_errors link_downed
//     link_error_recovery; other paths skipped, exit 2 when one was missing (GNU grep), else 0.
//   ib_write_bw ... -p PORT: the server (no trailing host) registers and waits for its client up
//     to rendezvous_ms of real time, then prints its side; with no client it hangs (exit 124 at
//     the timeout wrapper's T, or Timeout). The client (trailing server host) waits up to
//     rendezvous_ms for that server's registration on PORT (not at all when that host is down
//     or unknown), else fails as perftest does ("Couldn't connect to HOST:PORT", exit 1). BW =
//     line_gbps x perftest_efficiency x the fault factors of both NICs x a deterministic noise
//     within +-0.8 %; duration -D + setup.
//   mpirun --host H1:G,... -np K TEST (via ssh/pdsh on a host) and srun -w H1,H2 -N n
//     --ntasks-per-node=G -- TEST: nccl-tests output, one Rank line per rank naming its host.
//     busbw = nccl_busbw_share x nics_per_host x line_gbps / 8 GB/s (the same for all_reduce and
//     alltoall), x the lowest NIC fault factor of any member (a ring goes at its slowest link),
//     x alltoall_factor for alltoall_perf when a member is in alltoall_slow_hosts. A down member:
//     mpirun fails (exit 1, ORTE's message), srun waits; a hung member: the run hangs.
//     Duration nccl_setup_s + nccl_seconds_per_host x hosts.
//   pkill ...: exit 1 (no process matched; the fake keeps nothing running), recorded.
// - Counters move with the traffic modelled: a perftest adds its bytes to the client NIC's
//   port_xmit_data and the server NIC's port_rcv_data, an nccl run to every member NIC's both; a
//   bad cable's symbol_error, port_rcv_errors and link_error_recovery grow with each perftest
//   through it; a busy host's data counters advance by k_busy_bytes_per_read at every read.
// Thread-safe: one mutex, never held while a perftest side waits for the other.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/command_runner.h"
#include "sim/topology.h"

namespace netdoctor::sim {

namespace fake {
struct PerftestArgs;
struct NcclArgs;
}  // namespace fake

struct FakeClusterSpec {
  std::size_t hosts = 16;
  std::size_t nics_per_host = 8;   // 1..16, named mlx5_0..
  std::size_t hosts_per_leaf = 8;  // all NICs of a host on one leaf ("leaf01", "leaf02", ...)
  bool infiniband = false;         // InfiniBand link layer (no lldpd) vs RoCE
  // Every NIC's port rate. RoCE: 50, 100, 200 or 400 (1, 2, 4 or 8 lanes of 50G); InfiniBand:
  // 100, 200 or 400 (4X EDR, HDR or NDR).
  double line_gbps = 400;
  double perftest_efficiency = 0.96;  // healthy ib_write_bw: this share of the slower end's rate
  double nccl_busbw_share = 0.85;     // healthy busbw = share x nics_per_host x line_gbps / 8
  std::string host_prefix = "node";   // host i is prefix + 4 digits of i + 1: node0001..
  double perftest_setup_s = 2.0;      // a perftest side's modelled duration: -D + setup
  double nccl_setup_s = 8.0;          // an nccl run: setup + per host x group size
  double nccl_seconds_per_host = 0.05;
  // Real time a perftest side waits for the other (the sweep starts the server, then the
  // client after a short head start, on two threads).
  int rendezvous_ms = 2000;
  // Real time a client holds its NICs once connected, so tests can see overlapping tests.
  int client_hold_ms = 0;

  // Hidden faults (hosts by name, devices "mlx5_N"; validate() checks them).
  struct SlowNic {
    std::string host;
    std::string device;
    double factor = 0.6;
  };
  std::vector<SlowNic> slow_nics;  // every perftest through it runs at factor x
  struct BadCable {
    std::string host;
    std::string device;
    double factor = 0.7;
  };
  std::vector<BadCable> bad_cables;  // factor x, and its error counters grow with every test
  std::set<std::string> hung_hosts;  // every command to it hangs (Timeout)
  std::set<std::string> busy_hosts;  // data counters advance between any two reads
  std::set<std::string> alltoall_slow_hosts;  // alltoall_perf of a group with it x alltoall_factor
  double alltoall_factor = 0.55;
  std::set<std::string> down_hosts;  // unreachable: ssh exit 255 "No route to host"
  std::uint64_t seed = 1;
};

// InvalidArgument for a spec the fake cannot model: no hosts or NICs, a line rate the
// ibv_devinfo layout cannot show, shares outside (0, 1], a fault naming an unknown host or
// device or with a factor outside (0, 1].
Status validate(const FakeClusterSpec& spec);

// What a busy host's data counters advance by at every read: 5 GB each way, 40 Gb/s over the
// sweep's one-second idle check.
inline constexpr double k_busy_bytes_per_read = 5e9;

class FakeCluster final : public CommandRunner {
 public:
  // REQUIRES: validate(spec).ok()
  explicit FakeCluster(FakeClusterSpec spec);
  ~FakeCluster() override;

  Result<CommandOutput> run(const std::vector<std::string>& argv,
                            const CommandOptions& options = {}) override;

  const FakeClusterSpec& spec() const { return m_spec; }
  std::string host_name(std::size_t i) const;  // 0 -> "node0001"
  std::vector<std::string> hosts() const;
  std::string leaf_of(std::string_view host) const;  // "leaf01"; "" for an unknown host
  std::string device_name(std::size_t nic) const;    // "mlx5_3"
  std::string netdev_of(std::string_view device) const;
  // What a healthy pair measures before noise, and a healthy group's busbw.
  double healthy_gbps() const;
  double healthy_busbw() const;

  // Observability. Kinds: "ibv_devinfo", "rdma", "lldpcli", "grep", "ib_write_bw server",
  // "ib_write_bw client", "all_reduce_perf", "alltoall_perf", "pkill", "unknown" (exit 127),
  // "unreachable" (unknown, down or hung target), "bad launcher", "ib_write_bw bad arguments",
  // "nccl bad arguments"; commands_run() all of them.
  std::size_t commands_run(std::string_view kind) const;
  std::size_t commands_run() const;
  struct Pkill {
    std::string host;
    std::vector<std::string> words;  // pkill's argv: "pkill" "-TERM" "-x" "-f" "COMMAND LINE"
  };
  std::vector<Pkill> pkills() const;
  // The most perftest sides that held one NIC at once (a server from its registration to its
  // end, a client from connecting to its end), and the most tests touching one leaf at once (a
  // test counts once on each leaf of its two ends). Needs client_hold_ms to see real overlap.
  std::size_t max_concurrent_per_nic() const;
  std::size_t max_concurrent_per_leaf() const;
  // A counter as grep would read it now, without moving it. nullopt for an unknown name.
  std::optional<std::uint64_t> counter(std::string_view host, std::string_view device,
                                       std::string_view name) const;

 private:
  struct Counters {  // one NIC's port 1, as sysfs shows them
    std::uint64_t xmit_words = 0;
    std::uint64_t rcv_words = 0;
    std::uint64_t symbol_error = 0;
    std::uint64_t port_rcv_errors = 0;
    std::uint64_t link_downed = 0;
    std::uint64_t link_error_recovery = 0;
    std::optional<std::uint64_t> get(std::string_view name) const;  // by its sysfs file name
  };
  struct Rendezvous;  // a perftest server waiting for, then serving, its client
  struct Remote;      // one remote command on one host (sim/fake_cluster_parts.h)
  using NicKey = std::pair<std::size_t, std::size_t>;  // host, nic

  // What the launcher says when it cannot run anything on `target`; nullopt when it can.
  std::optional<Result<CommandOutput>> reach(const Remote& remote, const std::string& target);
  Result<CommandOutput> run_program(const Remote& remote);
  CommandOutput read_counters(std::size_t host, const std::vector<std::string>& words);
  Result<CommandOutput> perftest(const Remote& remote);
  Result<CommandOutput> perftest_server(const Remote& remote, std::size_t nic,
                                        const fake::PerftestArgs& args);
  Result<CommandOutput> perftest_client(const Remote& remote, std::size_t nic,
                                        std::size_t server_host, const fake::PerftestArgs& args);
  // all_reduce_perf / alltoall_perf over `hosts` (srun's nodes, or mpirun's --host list when
  // the words are an mpirun line), `tasks` ranks a host unless mpirun says.
  Result<CommandOutput> nccl_run(const Remote& remote, const std::vector<std::string>& hosts,
                                 std::size_t tasks);
  using Members = std::vector<std::pair<std::size_t, std::size_t>>;  // host, its ranks
  // The lowest fault factor of the members' NICs, x alltoall_factor where it applies.
  double group_factor(const Members& members, const std::string& test) const;
  // Adds an nccl run's bytes to every member NIC's data counters. REQUIRES: m_mutex not held
  void record_nccl(const fake::NcclArgs& args, const Members& members, std::size_t ranks_in_all);
  // The finished command: exit 124 past the wrapper's T, Timeout past options.timeout.
  Result<CommandOutput> finish(const Remote& remote, CommandOutput output) const;
  Result<CommandOutput> hang(const Remote& remote) const;       // the remote command never ends
  Result<CommandOutput> timed_out(const Remote& remote) const;  // killed at options.timeout
  // Adds a perftest's bytes and a bad cable's errors to the two ends. REQUIRES: m_mutex held
  void record_perftest(const NicKey& client, const NicKey& server, double gbps, double seconds);

  std::optional<std::size_t> host_index(std::string_view host) const;
  std::optional<std::size_t> nic_index(std::string_view device) const;
  double nic_factor(std::size_t host, std::size_t nic) const;  // slow NIC x bad cable
  bool is_bad_cable(std::size_t host, std::size_t nic) const;
  void count(std::string_view kind);                          // REQUIRES: m_mutex held
  void hold(const NicKey& nic, std::size_t leaf, int delta);  // REQUIRES: m_mutex held

  const FakeClusterSpec m_spec;
  Fabric m_fabric;  // names, addresses, leaves and ports for the writers
  std::unordered_map<std::string, std::size_t> m_host_index;
  std::set<NicKey> m_bad_cables;
  std::map<NicKey, double> m_nic_factor;

  mutable std::mutex m_mutex;
  std::condition_variable m_changed;  // a registration appeared, was claimed or finished
  std::map<NicKey, Counters> m_counters;
  std::map<std::pair<std::size_t, int>, std::shared_ptr<Rendezvous>> m_servers;  // host, port
  std::map<std::string, std::size_t, std::less<>> m_commands;
  std::vector<Pkill> m_pkills;
  std::map<NicKey, std::size_t> m_nic_busy;
  std::map<std::size_t, std::size_t> m_leaf_busy;
  std::size_t m_max_nic = 0;
  std::size_t m_max_leaf = 0;
};

}  // namespace netdoctor::sim
