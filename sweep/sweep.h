// `netdoctor sweep`: finds the slow NICs, hosts and links among a list of hosts by running
// perftest pairs and nccl-tests through the cluster's launcher (docs/sweep.md: the search, the
// remote commands it runs and its JSON). Everything runs through a CommandRunner, so a fake
// cluster (sim/fake_cluster.h) stands in for the hosts in tests and benchmarks.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "collect/fanout.h"
#include "sweep/thresholds.h"

namespace netdoctor::sweep {

enum class Tests { Perftest, Nccl, Both };
// "perftest", "nccl", "both"; InvalidArgument otherwise.
Result<Tests> parse_tests(std::string_view text);

// How round 1 pairs the NICs. Matching is the sweep's; Ring (each NIC with the next, so every
// NIC is in two tests) is kept to measure the search against the plain approach.
enum class Pairing { Matching, Ring };

// A saved healthy figure of one pair, device and test (the store's baseline runs).
struct BaselineFigure {
  std::string client;
  std::string server;
  std::string device;
  std::string test;  // "ib_write_bw"
  double gbps = 0.0;
};

struct SweepOptions {
  collect::Launcher launcher = collect::Launcher::Ssh;
  std::string pdsh_rcmd;       // pdsh -R module; empty: pdsh's default
  std::string device = "all";  // one RDMA device name, or every active port
  Tests tests = Tests::Both;
  std::chrono::seconds budget{600};
  bool force = false;  // test hosts that carry traffic right now
  // Concurrent tests touching one leaf: concurrent pairs crossing the spines collide in ECMP and
  // would report the fabric's hash collisions as slow NICs.
  int per_leaf = 8;
  // Launcher processes at once on this machine (two per pair): with the per-leaf cap, the
  // waves' width. 256 lets a 1,024-host fleet at 8 per leaf run 128 pairs a wave.
  int parallel = 256;
  std::chrono::seconds command_timeout{60};
  std::chrono::milliseconds server_head_start{1'000};
  int perftest_seconds = 5;  // ib_write_bw -D
  std::optional<int> gid_index;
  int gpus_per_host = 8;
  std::vector<BaselineFigure> baselines;
  // "HOST" or "HOST/DEV" -> leaf (--leaf-map); wins over LLDP. InfiniBand hosts have no LLDP.
  std::map<std::string, std::string> leaf_of;
  Pairing pairing = Pairing::Matching;
  Thresholds thresholds;
  const std::atomic<bool>* stop = nullptr;  // set by Ctrl-C: schedule nothing more
};

// One active test as the sweep ran it.
struct SweepRun {
  int round = 0;
  std::string test;  // "ib_write_bw", "all_reduce_perf", "alltoall_perf"
  std::string client;
  std::string server;
  std::string device;
  std::string server_device;
  std::vector<std::string> hosts;  // an nccl-tests group
  std::optional<double> gbps;      // Gb/s (nccl-tests: busbw x 8)
  std::optional<double> lat_us;
  std::optional<double> busbw_gbyte_s;
  double expected_gbps = 0.0;
  std::string expected_from;  // "baseline" or "line-rate"
  enum class Result { Ok, Slow, Failed } result = Result::Ok;
  std::string detail;  // why it failed, or how far below
  double seconds = 0.0;
  double measured_at = 0.0;
};
const char* to_string(SweepRun::Result result);

struct SlowEntity {
  std::string entity;  // nic:, host: or link: (model/entity_names.h spelling)
  double measured_gbps = 0.0;
  double expected_gbps = 0.0;
  std::vector<std::string> evidence;
  std::string found_by = "perftest";  // or "collective": only nccl-tests showed it
};

struct LeftOut {
  std::string host;
  std::string reason;  // "unreachable", "busy", "no-rdma"
  std::string detail;
};

enum class Verdict { SlowFound, AllHealthy, Inconclusive };
const char* to_string(Verdict verdict);

struct SweepReport {
  Verdict verdict = Verdict::Inconclusive;
  std::string summary;
  std::size_t hosts = 0;        // asked for
  std::size_t nics = 0;         // found on the hosts that answered
  std::size_t tested_nics = 0;  // in at least one completed test
  std::vector<SlowEntity> slow;
  std::vector<LeftOut> left_out;
  int rounds = 0;
  std::vector<SweepRun> runs;
  double wall_s = 0.0;  // the sum of the waves' longest commands (modelled by a fake cluster)
  double budget_s = 0.0;
  bool budget_exhausted = false;
  bool interrupted = false;
  double started_at = 0.0;
  Thresholds thresholds;
  std::vector<std::string> notes;  // what the sweep could not do and why
};

// Progress lines for a person ("round 1: 4096 pairs in 16 waves").
using ProgressSink = std::function<void(const std::string& line)>;

// Runs the search over `hosts` (docs/sweep.md). `runner` must be thread-safe (the live one and
// the fake cluster are). Never throws; hosts that fail are left out and named.
SweepReport run_sweep(const std::vector<std::string>& hosts, const SweepOptions& options,
                      CommandRunner& runner, Clock& clock, const ProgressSink& progress = {});

}  // namespace netdoctor::sweep
