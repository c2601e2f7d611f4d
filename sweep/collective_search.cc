#include "sweep/collective_search.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>

#include "base/strings.h"
#include "parsers/nccl_tests.h"

namespace netdoctor::sweep {
namespace {

const std::vector<std::string> k_tests = {"all_reduce_perf", "alltoall_perf"};
// Before a group has run, its time is guessed: mpirun/srun launch plus NCCL's bootstrap, which
// grows with the ranks, plus the test at 1 GiB. Afterwards the longest group seen is used.
constexpr double k_launch_allowance_s = 20.0;
constexpr double k_allowance_per_host_s = 0.06;

struct GroupResult {
  std::optional<double> busbw;  // GB/s at the largest size
  std::string failure;
  double seconds = 0.0;
};

GroupResult read_group(const RemoteResult& result) {
  GroupResult out;
  out.seconds = result.seconds;
  if (!result.ok) {
    out.failure = result.why;
    return out;
  }
  auto parsed = parsers::parse_nccl_tests(result.out);
  if (!parsed.ok()) {
    out.failure = "output not understood: " + parsed.error().message;
    return out;
  }
  if (!parsed->failures.empty()) {
    out.failure = parsed->failures.front();
    return out;
  }
  for (auto it = parsed->rows.rbegin(); it != parsed->rows.rend(); ++it) {
    if (it->out_of_place.busbw_gbyte_s) {
      out.busbw = it->out_of_place.busbw_gbyte_s;
      return out;
    }
  }
  out.busbw = parsed->avg_bus_bandwidth_gbyte_s;
  if (!out.busbw) {
    out.failure = "no bus bandwidth reported";
  }
  return out;
}

class CollectiveRunner {
 public:
  CollectiveRunner(SweepState& state, const std::map<std::string, double>& host_gbps)
      : m_state(state), m_host_gbps(host_gbps) {}

  // The groups of one wave run at once (their hosts are disjoint); nullopt when the budget or
  // Ctrl-C stopped it. Each group's run is recorded in the report.
  std::optional<std::vector<std::size_t>> run(const std::vector<std::vector<std::string>>& groups,
                                              const std::string& test, int round) {
    std::size_t largest = 0;
    for (const auto& group : groups) {
      largest = std::max(largest, group.size());
    }
    const double guess =
        k_launch_allowance_s + k_allowance_per_host_s * static_cast<double>(largest);
    if (!m_state.may_start(std::max(m_estimate, guess))) {
      return std::nullopt;
    }
    const SweepOptions& options = m_state.options();
    const auto timeout = options.command_timeout * 3;
    std::vector<std::vector<std::string>> commands;
    for (const auto& group : groups) {
      commands.push_back(nccl_argv(m_state.remote(), group, test, options.gpus_per_host, timeout));
    }
    Remote wide = m_state.remote();
    wide.parallel = static_cast<int>(std::max<std::size_t>(groups.size(), 1));
    Batch batch = run_batch(
        wide, commands,
        std::chrono::duration_cast<std::chrono::milliseconds>(timeout + std::chrono::seconds(15)));
    m_state.spend(batch.seconds);
    m_estimate = std::max(m_estimate, batch.seconds);
    // srun ends its job step's tasks itself when its launcher is signalled; mpirun started
    // over ssh lives on the first host until told.
    if (options.stop != nullptr && options.stop->load() &&
        m_state.remote().launcher != collect::Launcher::Srun) {
      std::vector<Started> started;
      for (const auto& group : groups) {
        started.push_back(
            {group.front(), mpirun_words(group, test, options.gpus_per_host, timeout)});
      }
      stop_remote_commands(m_state.remote(), started);
    }
    std::vector<std::size_t> runs;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      runs.push_back(record(groups[g], test, round, read_group(batch.results[g])));
    }
    return runs;
  }

  const SweepRun& at(std::size_t run) const { return m_state.report().runs[run]; }

 private:
  double expected_busbw(const std::vector<std::string>& group) const {
    double least = 0.0;
    bool first = true;
    for (const auto& host : group) {
      auto it = m_host_gbps.find(host);
      const double gbps = it == m_host_gbps.end() ? 0.0 : it->second;
      least = first ? gbps : std::min(least, gbps);
      first = false;
    }
    return least / 8.0 * m_state.options().thresholds.nccl_efficiency;
  }

  std::size_t record(const std::vector<std::string>& group, const std::string& test, int round,
                     const GroupResult& result) {
    SweepRun run;
    run.round = round;
    run.test = test;
    run.client = group.front();
    run.hosts = group;
    run.busbw_gbyte_s = result.busbw;
    if (result.busbw) {
      run.gbps = *result.busbw * 8.0;
    }
    run.expected_gbps = expected_busbw(group) * 8.0;
    run.expected_from = "line-rate";
    run.seconds = result.seconds;
    run.measured_at = m_state.clock().now_unix();
    if (!result.busbw) {
      run.result = SweepRun::Result::Failed;
      run.detail = result.failure;
    } else if (m_state.below(*run.gbps, run.expected_gbps)) {
      run.result = SweepRun::Result::Slow;
      run.detail =
          fmt::format("busbw {:.1f} GB/s, {:.1f} % below {:.1f} GB/s", *result.busbw,
                      100.0 * (1.0 - *run.gbps / run.expected_gbps), run.expected_gbps / 8.0);
    }
    m_state.report().runs.push_back(std::move(run));
    return m_state.report().runs.size() - 1;
  }

  SweepState& m_state;
  const std::map<std::string, double>& m_host_gbps;
  double m_estimate = 0.0;
};

std::string group_text(const std::vector<std::string>& group) {
  if (group.size() <= 4) {
    return join(group, ",");
  }
  return fmt::format("{} hosts {}..{}", group.size(), group.front(), group.back());
}

std::string run_line(const SweepRun& run) {
  return fmt::format("{} over {}: {}", run.test, group_text(run.hosts),
                     run.busbw_gbyte_s ? fmt::format("busbw {:.1f} GB/s (expected {:.1f})",
                                                     *run.busbw_gbyte_s, run.expected_gbps / 8.0)
                                       : "failed: " + run.detail);
}

// Halves a slow group until its members can be paired with a host known good.
void bisect(SweepState& state, CollectiveRunner& runner, const std::string& test,
            std::vector<std::string> slow_group, std::set<std::string>& good,
            CollectiveFindings& findings) {
  std::vector<std::vector<std::string>> queue = {std::move(slow_group)};
  while (!queue.empty() && !state.stopped()) {
    std::vector<std::vector<std::string>> groups;
    // Per group: the member a pair group tests, or the index of the other half.
    struct Role {
      std::string member;
      std::size_t sibling = 0;
    };
    std::vector<Role> role;
    for (const auto& group : queue) {
      if (group.size() <= 3) {
        std::string partner;
        for (const auto& candidate : good) {
          if (std::find(group.begin(), group.end(), candidate) == group.end()) {
            partner = candidate;
            break;
          }
        }
        if (partner.empty()) {
          findings.unresolved = true;
          state.note(fmt::format("{} slow over {} but no host is known good to pair with", test,
                                 group_text(group)));
          continue;
        }
        for (const auto& member : group) {
          groups.push_back({member, partner});
          role.push_back({member, 0});
        }
      } else {
        const auto middle = group.begin() + static_cast<std::ptrdiff_t>(group.size() / 2);
        groups.emplace_back(group.begin(), middle);
        role.push_back({"", groups.size()});
        groups.emplace_back(middle, group.end());
        role.push_back({"", groups.size() - 2});
      }
    }
    if (groups.empty()) {
      return;
    }
    const int round = state.next_round();
    state.say(fmt::format("round {}: {} over {} groups", round, test, groups.size()));
    auto runs = runner.run(groups, test, round);
    if (!runs) {
      return;
    }
    std::vector<std::vector<std::string>> next;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const SweepRun& run = runner.at((*runs)[i]);
      const std::string& member = role[i].member;
      if (!member.empty()) {
        if (run.result == SweepRun::Result::Ok) {
          continue;
        }
        SlowEntity slow;
        slow.entity = "host:" + member;
        slow.measured_gbps = run.gbps.value_or(0.0);
        slow.expected_gbps = run.expected_gbps;
        slow.evidence.push_back(run_line(run));
        slow.found_by = "collective";
        findings.slow_hosts.push_back(std::move(slow));
        continue;
      }
      const SweepRun& other = runner.at((*runs)[role[i].sibling]);
      const double share = state.options().thresholds.bisect_below_share;
      const bool slow = run.result != SweepRun::Result::Ok ||
                        (run.gbps && other.gbps && *run.gbps < share * *other.gbps);
      if (slow) {
        next.push_back(groups[i]);
      } else {
        good.insert(groups[i].begin(), groups[i].end());
      }
      const std::size_t sibling = role[i].sibling;
      if (sibling < i && !slow &&
          std::find(next.begin(), next.end(), groups[sibling]) == next.end()) {
        findings.unresolved = true;
        state.note(
            fmt::format("{} slow over {} hosts but both halves healthy: the slowness is "
                        "between the halves (the fabric joining them), not a host",
                        test, groups[sibling].size() + groups[i].size()));
      }
    }
    queue = std::move(next);
  }
}

}  // namespace

namespace {

std::vector<std::string> bench_words(const std::string& test) {
  return {test, "-b", "1G", "-e", "1G", "-f", "2", "-g", "1"};
}

std::vector<std::string> timeout_words(std::chrono::seconds timeout) {
  return {"timeout", "-k", "5", std::to_string(timeout.count())};
}

}  // namespace

std::vector<std::string> mpirun_words(const std::vector<std::string>& hosts,
                                      const std::string& test, int gpus_per_host,
                                      std::chrono::seconds timeout) {
  std::vector<std::string> slots;
  for (const auto& host : hosts) {
    slots.push_back(fmt::format("{}:{}", host, gpus_per_host));
  }
  std::vector<std::string> words = timeout_words(timeout);
  words.insert(words.end(),
               {"mpirun", "--host", join(slots, ","), "-np",
                std::to_string(hosts.size() * static_cast<std::size_t>(gpus_per_host))});
  const auto bench = bench_words(test);
  words.insert(words.end(), bench.begin(), bench.end());
  return words;
}

std::vector<std::string> nccl_argv(const Remote& remote, const std::vector<std::string>& hosts,
                                   const std::string& test, int gpus_per_host,
                                   std::chrono::seconds timeout) {
  if (remote.launcher != collect::Launcher::Srun) {
    return remote.argv(hosts.front(), mpirun_words(hosts, test, gpus_per_host, timeout));
  }
  std::vector<std::string> argv = {"srun",
                                   "-w",
                                   join(hosts, ","),
                                   "-N",
                                   std::to_string(hosts.size()),
                                   fmt::format("--ntasks-per-node={}", gpus_per_host),
                                   "--"};
  const auto wrap = timeout_words(timeout);
  const auto bench = bench_words(test);
  argv.insert(argv.end(), wrap.begin(), wrap.end());
  argv.insert(argv.end(), bench.begin(), bench.end());
  return argv;
}

CollectiveFindings collective_search(SweepState& state, const std::vector<std::string>& hosts,
                                     const std::map<std::string, double>& host_gbps) {
  CollectiveFindings findings;
  if (hosts.size() < 2) {
    if (!hosts.empty()) {
      state.note("collectives need two hosts or more: not run");
    }
    return findings;
  }
  CollectiveRunner runner(state, host_gbps);
  const int round = state.next_round();
  std::set<std::string> good;
  std::vector<std::string> slow_tests;
  for (const auto& test : k_tests) {
    state.say(fmt::format("round {}: {} over {} hosts", round, test, hosts.size()));
    auto runs = runner.run({hosts}, test, round);
    if (!runs) {
      return findings;
    }
    const SweepRun& run = runner.at(runs->front());
    findings.ran = findings.ran || run.result != SweepRun::Result::Failed;
    if (run.result != SweepRun::Result::Ok) {
      slow_tests.push_back(test);
    }
  }
  for (const auto& test : slow_tests) {
    bisect(state, runner, test, hosts, good, findings);
  }
  return findings;
}

}  // namespace netdoctor::sweep
