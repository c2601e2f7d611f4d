// sweep_bench: how fast `netdoctor sweep` names one hidden fault among 1,024 hosts x 8 NICs
// (docs/sweep.md), against the plain approaches, on the fake cluster (sim/fake_cluster.h), whose
// durations are modelled and never waited. Three strategies, each on a fresh cluster in a child
// process of its own (so its CPU time and peak RSS are its own, from wait4):
// - sweep: run_sweep with Pairing::Matching (every NIC once in round 1, then re-tests);
// - ring: the same engine with Pairing::Ring (every NIC in two round-1 tests);
// - all-pairs: every NIC pair once, NOT run (33.5 million tests at 8,192 NICs) but computed with
//   the engine's wave model (sweep/pairing.h schedule_waves): a lower bound on its waves, each
//   as long as one wave of the engine against the fake, after the same discovery and idle check.
// For each: verdict, named entities, whether the injected fault is among them, rounds, runs,
// modelled wall seconds against the budget, and the real CPU and wall seconds and peak RSS of
// the run here. A table, then one JSON line per strategy.
//
//   sweep_bench [--hosts N] [--nics N] [--hosts-per-leaf N] [--per-leaf N] [--parallel N]
//               [--budget SECONDS] [--seed N] [--fault slow-nic|bad-cable|alltoall|none]
//               [--tests perftest|nccl|both] [--progress]
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/json_text.h"
#include "model/entity_names.h"
#include "sim/fake_cluster.h"
#include "sim/rng.h"
#include "sweep/pair_test.h"
#include "sweep/render.h"
#include "sweep/sweep.h"

namespace {

using netdoctor::FakeClock;
using netdoctor::sim::FakeCluster;
using netdoctor::sim::FakeClusterSpec;
namespace sweep = netdoctor::sweep;
namespace model = netdoctor::model;

struct BenchArgs {
  std::size_t hosts = 1024;
  std::size_t nics = 8;
  std::size_t hosts_per_leaf = 32;
  int per_leaf = sweep::SweepOptions{}.per_leaf;
  int parallel = sweep::SweepOptions{}.parallel;
  long budget_s = 600;
  std::uint64_t seed = 1;
  std::string fault = "slow-nic";
  std::string tests = "both";
  bool progress = false;
};

constexpr const char* k_usage =
    "usage: sweep_bench [--hosts N (1024)] [--nics N (8)] [--hosts-per-leaf N (32)]\n"
    "                   [--per-leaf N (the sweep's default)] [--parallel N (the sweep's "
    "default)]\n"
    "                   [--budget SECONDS (600)] [--seed N (1)]\n"
    "                   [--fault slow-nic|bad-cable|alltoall|none (slow-nic)]\n"
    "                   [--tests perftest|nccl|both (both)] [--progress]\n";

template <typename T>
bool parse_number(std::string_view text, T& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

std::optional<BenchArgs> parse_args(int argc, char** argv) {
  BenchArgs args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--progress") {
      args.progress = true;
      continue;
    }
    if (i + 1 >= argc) {
      fmt::print(stderr, "sweep_bench: {} needs a value\n{}", flag, k_usage);
      return std::nullopt;
    }
    const std::string_view value = argv[++i];
    bool ok = true;
    if (flag == "--hosts") {
      ok = parse_number(value, args.hosts) && args.hosts >= 2;
    } else if (flag == "--nics") {
      ok = parse_number(value, args.nics) && args.nics >= 1;
    } else if (flag == "--hosts-per-leaf") {
      ok = parse_number(value, args.hosts_per_leaf) && args.hosts_per_leaf >= 1;
    } else if (flag == "--per-leaf") {
      ok = parse_number(value, args.per_leaf) && args.per_leaf >= 1;
    } else if (flag == "--parallel") {
      ok = parse_number(value, args.parallel) && args.parallel >= 2;
    } else if (flag == "--budget") {
      ok = parse_number(value, args.budget_s) && args.budget_s >= 0;
    } else if (flag == "--seed") {
      ok = parse_number(value, args.seed);
    } else if (flag == "--fault") {
      args.fault = value;
      ok = value == "slow-nic" || value == "bad-cable" || value == "alltoall" || value == "none";
    } else if (flag == "--tests") {
      args.tests = value;
      ok = sweep::parse_tests(value).ok();
    } else {
      ok = false;
    }
    if (!ok) {
      fmt::print(stderr, "sweep_bench: bad {} {}\n{}", flag, value, k_usage);
      return std::nullopt;
    }
  }
  return args;
}

// The injected fault: a host and NIC drawn from the seed, and the entity naming it.
struct Injected {
  std::string host;
  std::string device;
  std::string entity;  // "" for none; a bad cable's link: is matched by its near end
  std::string near_end;
};

FakeClusterSpec cluster_spec(const BenchArgs& args, Injected& injected) {
  FakeClusterSpec spec;
  spec.hosts = args.hosts;
  spec.nics_per_host = args.nics;
  spec.hosts_per_leaf = args.hosts_per_leaf;
  spec.seed = args.seed;
  netdoctor::sim::Rng rng(args.seed);
  const std::size_t host = rng.index(args.hosts);
  const std::size_t nic = rng.index(args.nics);
  injected.host = fmt::format("{}{:04}", spec.host_prefix, host + 1);
  injected.device = fmt::format("mlx5_{}", nic);
  if (args.fault == "slow-nic") {
    spec.slow_nics.push_back({injected.host, injected.device, 0.6});
    injected.entity = model::nic_entity(injected.host, injected.device);
  } else if (args.fault == "bad-cable") {
    spec.bad_cables.push_back({injected.host, injected.device, 0.7});
  } else if (args.fault == "alltoall") {
    spec.alltoall_slow_hosts.insert(injected.host);
    injected.device.clear();
    injected.entity = model::host_entity(injected.host);
  } else {
    injected = {};
  }
  return spec;
}

// The bad cable's entity needs the netdev the cluster gives the device.
void complete_injected(const BenchArgs& args, const FakeCluster& cluster, Injected& injected) {
  if (args.fault == "bad-cable") {
    injected.near_end = injected.host + "/" + cluster.netdev_of(injected.device);
    injected.entity = "link:" + injected.near_end + "~" + cluster.leaf_of(injected.host) + "/...";
  }
}

bool is_injected(const Injected& injected, const std::string& entity) {
  if (!injected.near_end.empty()) {
    const auto parts = model::parse_entity(entity);
    return parts.kind == model::EntityKind::Link &&
           (parts.owner == injected.near_end || parts.part == injected.near_end);
  }
  return !injected.entity.empty() && entity == injected.entity;
}

// What a strategy's child process reports back to the parent.
struct Outcome {
  std::string strategy;
  std::string verdict;
  std::vector<std::string> named;
  bool found = false;  // the injected fault among the named (none: verdict all-healthy)
  int rounds = 0;
  std::uint64_t runs = 0;
  std::uint64_t waves = 0;  // perftest waves (all-pairs: a lower bound)
  double wall_s = 0.0;
  double budget_s = 0.0;
  bool budget_exhausted = false;
  bool computed = false;
  std::vector<std::string> notes;
  // Filled by the parent from wait4.
  double real_wall_s = 0.0;
  double cpu_s = 0.0;
  long peak_rss_kib = 0;
};

sweep::SweepOptions sweep_options(const BenchArgs& args, sweep::Pairing pairing) {
  sweep::SweepOptions options;
  auto thresholds = sweep::load_thresholds();
  if (thresholds.ok()) {
    options.thresholds = *thresholds;
  }
  options.tests = *sweep::parse_tests(args.tests);
  options.budget = std::chrono::seconds(args.budget_s);
  options.per_leaf = args.per_leaf;
  options.parallel = args.parallel;
  options.server_head_start = std::chrono::milliseconds(1'000);  // the CLI's; a FakeClock sleep
  options.perftest_seconds = 5;
  options.pairing = pairing;
  return options;
}

sweep::ProgressSink progress_sink(const BenchArgs& args, const std::string& strategy) {
  if (!args.progress) {
    return {};
  }
  return [strategy](const std::string& line) { fmt::print(stderr, "[{}] {}\n", strategy, line); };
}

// The perftest waves run: the report has no wave count, but a wave's runs share their
// measured_at and every wave moves the clock by the head start.
std::size_t count_waves(const sweep::SweepReport& report) {
  std::set<double> at;
  for (const auto& run : report.runs) {
    if (run.test == "ib_write_bw") {
      at.insert(run.measured_at);
    }
  }
  return at.size();
}

Outcome run_engine(const BenchArgs& args, const std::string& strategy, sweep::Pairing pairing) {
  Injected injected;
  FakeCluster cluster(cluster_spec(args, injected));
  complete_injected(args, cluster, injected);
  FakeClock clock;
  const sweep::SweepOptions options = sweep_options(args, pairing);
  const sweep::SweepReport report =
      sweep::run_sweep(cluster.hosts(), options, cluster, clock, progress_sink(args, strategy));
  Outcome out;
  out.strategy = strategy;
  out.verdict = sweep::to_string(report.verdict);
  for (const auto& slow : report.slow) {
    out.named.push_back(slow.entity);
    out.found = out.found || is_injected(injected, slow.entity);
  }
  if (args.fault == "none") {
    out.found = report.verdict == sweep::Verdict::AllHealthy;
  }
  out.rounds = report.rounds;
  out.runs = report.runs.size();
  out.waves = count_waves(report);
  out.wall_s = report.wall_s;
  out.budget_s = report.budget_s;
  out.budget_exhausted = report.budget_exhausted;
  out.notes = report.notes;
  return out;
}

// All-pairs, computed. Measured against a fresh fake: the discovery and idle check (a sweep
// with no budget for any test) and one perftest wave as the engine runs it (run_pair_wave: the
// head start plus the longest client). Computed: a lower bound on the waves of every NIC pair
// under schedule_waves' constraints.
Outcome compute_all_pairs(const BenchArgs& args) {
  Injected injected;
  FakeCluster cluster(cluster_spec(args, injected));
  complete_injected(args, cluster, injected);
  sweep::SweepOptions options = sweep_options(args, sweep::Pairing::Matching);
  options.tests = sweep::Tests::Perftest;
  options.budget = std::chrono::seconds(0);
  FakeClock clock;
  const sweep::SweepReport overhead = sweep::run_sweep(cluster.hosts(), options, cluster, clock);

  sweep::Nic a;
  a.host = cluster.host_name(0);
  a.device = cluster.device_name(0);
  sweep::Nic b = a;
  b.host = cluster.host_name(args.hosts - 1);
  sweep::PerftestSettings settings;
  settings.seconds = options.perftest_seconds;
  settings.timeout = options.command_timeout;
  settings.head_start = options.server_head_start;
  sweep::Remote remote;
  remote.runner = &cluster;
  const sweep::WaveResult wave = sweep::run_pair_wave({{&a, &b, 18515}}, settings, remote, clock);

  const double n = static_cast<double>(overhead.nics);
  const double runs = n * (n - 1) / 2;
  std::map<std::string, double> per_leaf_nics;
  for (const auto& host : cluster.hosts()) {
    per_leaf_nics[cluster.leaf_of(host)] += static_cast<double>(args.nics);
  }
  double intra = 0;
  for (const auto& [leaf, count] : per_leaf_nics) {
    intra += count * (count - 1) / 2;
  }
  const double leaves = static_cast<double>(per_leaf_nics.size());
  const double slots = 2 * (runs - intra) + intra;  // a cross-leaf test counts on both leaves
  const double width = std::min(std::floor(static_cast<double>(args.parallel) / 2),
                                std::floor(n / 2));  // max wave; one test per NIC at a time
  const double by_width = std::ceil(runs / width);
  const double by_leaf = std::ceil(slots / (leaves * args.per_leaf));
  const double by_nic = n - 1;  // a round-robin tournament: each NIC in N-1 tests, one at a time
  const double waves = std::max({by_width, by_leaf, by_nic});

  Outcome out;
  out.strategy = "all-pairs";
  out.verdict = "computed";
  out.computed = true;
  out.rounds = 1;
  out.runs = static_cast<std::uint64_t>(runs);
  out.waves = static_cast<std::uint64_t>(waves);
  out.wall_s = overhead.wall_s + waves * wave.seconds;
  out.budget_s = static_cast<double>(args.budget_s);
  out.budget_exhausted = out.wall_s > out.budget_s;
  out.notes.push_back(fmt::format(
      "computed, not run: runs = N(N-1)/2 = {:.0f} for N = {:.0f} NICs; waves >= max(ceil(runs / "
      "min(parallel/2, N/2)) = {:.0f}, ceil((2 x cross-leaf + same-leaf pairs) / (leaves x "
      "per_leaf)) = ceil({:.0f} / ({:.0f} x {})) = {:.0f}, N-1 = {:.0f} tournament rounds) = "
      "{:.0f}",
      runs, n, by_width, slots, leaves, args.per_leaf, by_leaf, by_nic, waves));
  out.notes.push_back(fmt::format(
      "wall >= discovery and idle check {:.1f} s (measured) + waves x {:.1f} s a wave (head start "
      "+ the fake's ib_write_bw -D {} + setup, as run_pair_wave measured it) = {:.0f} s ({:.1f} "
      "days)",
      overhead.wall_s, wave.seconds, options.perftest_seconds, out.wall_s, out.wall_s / 86400));
  return out;
}

// Child <-> parent: one "key value" line per field, named entities and notes one per line.
std::string serialise(const Outcome& o) {
  std::string text = fmt::format(
      "strategy {}\nverdict {}\nfound {}\nrounds {}\nruns {}\nwaves {}\nwall_s {:.17g}\n"
      "budget_s {:.17g}\nbudget_exhausted {}\ncomputed {}\n",
      o.strategy, o.verdict, o.found ? 1 : 0, o.rounds, o.runs, o.waves, o.wall_s, o.budget_s,
      o.budget_exhausted ? 1 : 0, o.computed ? 1 : 0);
  for (const auto& named : o.named) {
    text += "named " + named + "\n";
  }
  for (std::string note : o.notes) {
    std::replace(note.begin(), note.end(), '\n', ' ');
    text += "note " + note + "\n";
  }
  return text;
}

Outcome deserialise(const std::string& text) {
  Outcome o;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "strategy") {
      o.strategy = value;
    } else if (key == "verdict") {
      o.verdict = value;
    } else if (key == "found") {
      o.found = value == "1";
    } else if (key == "rounds") {
      o.rounds = std::stoi(value);
    } else if (key == "runs") {
      o.runs = std::stoull(value);
    } else if (key == "waves") {
      o.waves = std::stoull(value);
    } else if (key == "wall_s") {
      o.wall_s = std::stod(value);
    } else if (key == "budget_s") {
      o.budget_s = std::stod(value);
    } else if (key == "budget_exhausted") {
      o.budget_exhausted = value == "1";
    } else if (key == "computed") {
      o.computed = value == "1";
    } else if (key == "named") {
      o.named.push_back(value);
    } else if (key == "note") {
      o.notes.push_back(value);
    }
  }
  return o;
}

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// Runs `strategy` in a child process (forked while this process has one thread) and takes its
// outcome through a pipe, its CPU time and peak RSS from wait4.
template <typename Run>
std::optional<Outcome> in_child(const std::string& name, Run run) {
  int fds[2];
  if (::pipe(fds) != 0) {
    fmt::print(stderr, "sweep_bench: pipe failed\n");
    return std::nullopt;
  }
  std::fflush(nullptr);
  const auto started = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    fmt::print(stderr, "sweep_bench: fork failed\n");
    return std::nullopt;
  }
  if (pid == 0) {
    ::close(fds[0]);
    const std::string text = serialise(run());
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) {
        ::_exit(1);
      }
      done += static_cast<std::size_t>(n);
    }
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fmt::print(stderr, "sweep_bench: {} failed (status {})\n", name, status);
    return std::nullopt;
  }
  Outcome outcome = deserialise(text);
  outcome.real_wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  outcome.cpu_s = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
  outcome.peak_rss_kib = usage.ru_maxrss;
  return outcome;
}

// "fits": done within the budget; "cut": the sweep stopped at the budget with work left;
// "over": past it (all-pairs).
const char* budget_text(const Outcome& o) {
  if (o.wall_s > o.budget_s) {
    return "over";
  }
  return o.budget_exhausted ? "cut" : "fits";
}

std::string named_text(const Outcome& o) {
  if (o.computed) {
    return "(not run)";
  }
  if (o.named.empty()) {
    return "-";
  }
  std::string text = o.named.front();
  if (o.named.size() > 1) {
    text += fmt::format(" +{} more", o.named.size() - 1);
  }
  return text;
}

void print_table(const BenchArgs& args, const Injected& injected,
                 const std::vector<Outcome>& outcomes) {
  fmt::print(
      "sweep_bench: {} hosts x {} NICs, {} hosts a leaf, per-leaf cap {}, parallel {}, tests {}, "
      "budget {} s, seed {}\n",
      args.hosts, args.nics, args.hosts_per_leaf, args.per_leaf, args.parallel, args.tests,
      args.budget_s, args.seed);
  fmt::print("injected: {} {}\n\n", args.fault,
             injected.entity.empty() ? "(nothing)" : injected.entity);
  fmt::print("{:<10} {:<13} {:<34} {:<6} {:>6} {:>10} {:>9} {:>12} {:<6} {:>8} {:>8} {:>8}\n",
             "strategy", "verdict", "named", "found", "rounds", "runs", "waves", "modelled s",
             "budget", "cpu s", "real s", "peak MiB");
  for (const Outcome& o : outcomes) {
    const std::string found = o.computed ? "-" : o.found ? "yes" : "NO";
    fmt::print(
        "{:<10} {:<13} {:<34} {:<6} {:>6} {:>10} {:>9} {:>12.1f} {:<6} {:>8.2f} "
        "{:>8.2f} {:>8.1f}\n",
        o.strategy, o.verdict, named_text(o), found, o.rounds, o.runs, o.waves, o.wall_s,
        budget_text(o), o.cpu_s, o.real_wall_s, static_cast<double>(o.peak_rss_kib) / 1024.0);
  }
  fmt::print("\n");
  for (const Outcome& o : outcomes) {
    for (const auto& note : o.notes) {
      fmt::print("{}: {}\n", o.strategy, note);
    }
  }
  fmt::print(
      "(waves of the engine's strategies: distinct perftest wave times in the runs; all-pairs: a "
      "lower bound)\n\n");
  for (const Outcome& o : outcomes) {
    nlohmann::json line = {
        {"bench", "sweep"},
        {"strategy", o.strategy},
        {"hosts", args.hosts},
        {"nics_per_host", args.nics},
        {"hosts_per_leaf", args.hosts_per_leaf},
        {"per_leaf", args.per_leaf},
        {"parallel", args.parallel},
        {"tests", args.tests},
        {"seed", args.seed},
        {"fault", args.fault},
        {"injected", injected.entity},
        {"computed", o.computed},
        {"verdict", o.verdict},
        {"named", o.named},
        {"found", o.computed ? nlohmann::json() : nlohmann::json(o.found)},
        {"rounds", o.rounds},
        {"runs", o.runs},
        {"waves", o.waves},
        {"wall_s", std::round(o.wall_s * 10) / 10},
        {"budget_s", o.budget_s},
        {"fits_budget", o.wall_s <= o.budget_s && !o.budget_exhausted},
        {"real_cpu_s", std::round(o.cpu_s * 100) / 100},
        {"real_wall_s", std::round(o.real_wall_s * 100) / 100},
        {"peak_rss_mib", std::round(static_cast<double>(o.peak_rss_kib) / 102.4) / 10}};
    fmt::print("{}\n", netdoctor::json_text(line));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = parse_args(argc, argv);
  if (!args) {
    return 2;
  }
  Injected injected;
  {
    const FakeClusterSpec spec = cluster_spec(*args, injected);
    if (auto valid = netdoctor::sim::validate(spec); !valid.ok()) {
      fmt::print(stderr, "sweep_bench: {}\n", valid.error().describe());
      return 2;
    }
    if (args->fault == "bad-cable") {
      complete_injected(*args, FakeCluster(spec), injected);
    }
  }
  std::vector<Outcome> outcomes;
  const std::vector<std::pair<std::string, std::function<Outcome()>>> strategies = {
      {"sweep", [&] { return run_engine(*args, "sweep", sweep::Pairing::Matching); }},
      {"ring", [&] { return run_engine(*args, "ring", sweep::Pairing::Ring); }},
      {"all-pairs", [&] { return compute_all_pairs(*args); }}};
  for (const auto& [name, run] : strategies) {
    auto outcome = in_child(name, run);
    if (!outcome) {
      return 1;
    }
    outcomes.push_back(std::move(*outcome));
  }
  print_table(*args, injected, outcomes);
  return 0;
}
