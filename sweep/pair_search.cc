#include "sweep/pair_search.h"

#include <fmt/format.h>

#include <map>

#include "sweep/pair_test.h"
#include "sweep/pairing.h"

namespace netdoctor::sweep {
namespace {

constexpr int k_first_tcp_port = 18515;
constexpr int k_tcp_ports = 10'000;
constexpr double k_setup_allowance_s = 3.0;  // launcher, QP setup and teardown around -D
constexpr const char* k_test = "ib_write_bw";

struct Expectation {
  double gbps = 0.0;
  std::string from;
};

Expectation expect(const SweepOptions& options, const Nic& client, const Nic& server) {
  for (auto it = options.baselines.rbegin(); it != options.baselines.rend(); ++it) {
    if (it->client == client.host && it->server == server.host && it->device == client.device &&
        it->test == k_test && it->gbps > 0.0) {
      return {it->gbps, "baseline"};
    }
  }
  return {std::min(client.line_gbps, server.line_gbps) * options.thresholds.perftest_efficiency,
          "line-rate"};
}

class PairRunner {
 public:
  PairRunner(SweepState& state, const std::vector<Nic>& nics) : m_state(state), m_nics(nics) {
    const SweepOptions& options = state.options();
    m_settings.seconds = options.perftest_seconds;
    m_settings.gid_index = options.gid_index;
    m_settings.timeout = options.command_timeout;
    m_settings.head_start = options.server_head_start;
    m_estimate = options.perftest_seconds +
                 std::chrono::duration<double>(options.server_head_start).count() +
                 k_setup_allowance_s;
  }

  // Runs the pairs in waves; returns the index of each pair's run in the report (or npos when
  // the budget or Ctrl-C left it unrun).
  std::vector<std::size_t> run(const std::vector<PairIndex>& pairs, int round) {
    std::vector<std::size_t> run_of(pairs.size(), std::string::npos);
    const std::size_t width = static_cast<std::size_t>(std::max(m_state.options().parallel / 2, 1));
    const auto waves = schedule_waves(pairs, m_nics, m_state.options().per_leaf, width);
    m_state.say(
        fmt::format("round {}: {} perftest pairs in {} waves", round, pairs.size(), waves.size()));
    for (const auto& wave : waves) {
      if (!m_state.may_start(m_estimate)) {
        break;
      }
      std::vector<PairSpec> specs;
      for (std::size_t index : wave) {
        specs.push_back({&m_nics[pairs[index].client], &m_nics[pairs[index].server], next_port()});
      }
      WaveResult result = run_pair_wave(specs, m_settings, m_state.remote(), m_state.clock());
      m_state.spend(result.seconds);
      m_estimate = std::max(m_estimate, result.seconds);
      for (std::size_t i = 0; i < wave.size(); ++i) {
        run_of[wave[i]] = record(pairs[wave[i]], result.outcomes[i], round);
      }
    }
    return run_of;
  }

  const SweepRun& at(std::size_t run) const { return m_state.report().runs[run]; }
  // Hosts whose side of a test timed out or could not be reached.
  const std::set<std::string>& unreachable() const { return m_unreachable; }

 private:
  int next_port() { return k_first_tcp_port + (m_ports++ % k_tcp_ports); }

  std::size_t record(const PairIndex& pair, const PairOutcome& outcome, int round) {
    const Nic& client = m_nics[pair.client];
    const Nic& server = m_nics[pair.server];
    const Expectation expected = expect(m_state.options(), client, server);
    SweepRun run;
    run.round = round;
    run.test = k_test;
    run.client = client.host;
    run.server = server.host;
    run.device = client.device;
    run.server_device = server.device;
    run.gbps = outcome.gbps;
    run.expected_gbps = expected.gbps;
    run.expected_from = expected.from;
    run.seconds = outcome.seconds;
    run.measured_at = m_state.clock().now_unix();
    if (!outcome.gbps) {
      run.result = SweepRun::Result::Failed;
      run.detail = outcome.failure;
    } else if (m_state.below(*outcome.gbps, expected.gbps)) {
      run.result = SweepRun::Result::Slow;
      run.detail =
          fmt::format("{:.1f} % below {:.1f} Gb/s ({})",
                      100.0 * (1.0 - *outcome.gbps / expected.gbps), expected.gbps, expected.from);
    }
    if (outcome.client_unreachable) {
      m_unreachable.insert(client.host);
    }
    if (outcome.server_unreachable) {
      m_unreachable.insert(server.host);
    }
    m_state.report().runs.push_back(std::move(run));
    return m_state.report().runs.size() - 1;
  }

  SweepState& m_state;
  const std::vector<Nic>& m_nics;
  PerftestSettings m_settings;
  double m_estimate = 0.0;
  int m_ports = 0;
  std::set<std::string> m_unreachable;
};

std::string run_line(const SweepRun& run) {
  const std::string figure =
      run.gbps ? fmt::format("{:.1f} Gb/s", *run.gbps) : "failed: " + run.detail;
  return fmt::format("{} {}/{} -> {}/{}: {}{}", run.test, run.client, run.device, run.server,
                     run.server_device, figure,
                     run.result == SweepRun::Result::Slow ? ", " + run.detail : "");
}

// Two partners known good for `nic`: other hosts, other leaves first, the same device name
// (rail) first, spread so no partner serves twice while others are free.
std::vector<std::size_t> good_partners(const std::vector<Nic>& nics, std::size_t nic,
                                       const std::vector<std::size_t>& good, std::size_t& cursor) {
  std::vector<std::size_t> chosen;
  for (int pass = 0; pass < 3 && chosen.size() < 2; ++pass) {
    for (std::size_t k = 0; k < good.size() && chosen.size() < 2; ++k) {
      const std::size_t candidate = good[(cursor + k) % good.size()];
      const Nic& a = nics[nic];
      const Nic& b = nics[candidate];
      if (b.host == a.host || std::find(chosen.begin(), chosen.end(), candidate) != chosen.end()) {
        continue;
      }
      const bool other_leaf = b.leaf_group() != a.leaf_group();
      const bool same_rail = b.device == a.device;
      if ((pass == 0 && other_leaf && same_rail) || (pass == 1 && other_leaf) || pass == 2) {
        chosen.push_back(candidate);
      }
    }
  }
  cursor += 2;
  return chosen;
}

}  // namespace

PairFindings pair_search(SweepState& state, const std::vector<Nic>& nics) {
  PairFindings findings;
  PairRunner runner(state, nics);
  const auto pairs = round_one_pairs(nics, state.options().pairing);
  if (pairs.empty()) {
    return findings;
  }
  const int first = state.next_round();
  const auto run_of = runner.run(pairs, first);
  // Each NIC's round-1 runs.
  std::map<std::size_t, std::vector<std::size_t>> runs_of;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (run_of[i] == std::string::npos) {
      continue;
    }
    runs_of[pairs[i].client].push_back(run_of[i]);
    runs_of[pairs[i].server].push_back(run_of[i]);
    const SweepRun& run = runner.at(run_of[i]);
    if (run.result != SweepRun::Result::Failed) {
      findings.tested.insert(pairs[i].client);
      findings.tested.insert(pairs[i].server);
    }
    if (run.result == SweepRun::Result::Ok) {
      findings.good.insert(pairs[i].client);
      findings.good.insert(pairs[i].server);
    }
  }
  std::vector<std::size_t> suspects;
  for (const auto& [nic, runs] : runs_of) {
    if (!findings.good.contains(nic)) {
      suspects.push_back(nic);
    }
  }
  if (suspects.empty()) {
    findings.unreachable_hosts = runner.unreachable();
    return findings;
  }
  state.say(fmt::format("round {}: {} NICs in slow or failed pairs", first, suspects.size()));
  const std::vector<std::size_t> good(findings.good.begin(), findings.good.end());
  if (good.empty()) {
    state.note(
        "no pair measured healthy, so no partner is known good: every NIC of the "
        "sweep is suspect (a fabric-wide problem, or expectations too high)");
    findings.unresolved = true;
    findings.unreachable_hosts = runner.unreachable();
    return findings;
  }
  // Round 2: each suspect with two partners known good.
  std::vector<PairIndex> retests;
  std::size_t cursor = 0;
  for (std::size_t nic : suspects) {
    if (runner.unreachable().contains(nics[nic].host)) {
      continue;  // its host hung: waiting on it again would only spend the budget
    }
    for (std::size_t partner : good_partners(nics, nic, good, cursor)) {
      retests.push_back({nic, partner});
    }
  }
  const int second = state.next_round();
  const auto retest_runs = runner.run(retests, second);
  std::map<std::size_t, std::vector<std::size_t>> retests_of;
  for (std::size_t i = 0; i < retests.size(); ++i) {
    if (retest_runs[i] != std::string::npos) {
      retests_of[retests[i].client].push_back(retest_runs[i]);
    }
  }
  std::set<std::size_t> cleared;
  for (std::size_t nic : suspects) {
    const auto& runs = retests_of[nic];
    std::size_t bad = 0;
    double best = 0.0;
    double expected = 0.0;
    std::vector<std::string> evidence;
    for (std::size_t r : runs) {
      const SweepRun& run = runner.at(r);
      if (run.result == SweepRun::Result::Ok) {
        continue;
      }
      ++bad;
      best = std::max(best, run.gbps.value_or(0.0));
      expected = std::max(expected, run.expected_gbps);
      evidence.push_back(run_line(run));
    }
    if (runs.size() >= 2 && bad == runs.size()) {
      for (std::size_t r : runs_of[nic]) {
        evidence.insert(evidence.begin(), run_line(runner.at(r)));
      }
      findings.slow_nics.push_back(nic);
      findings.evidence.push_back(std::move(evidence));
      findings.measured_gbps.push_back(best);
      findings.expected_gbps.push_back(expected);
    } else if (!runs.empty() && bad == 0) {
      cleared.insert(nic);
      findings.tested.insert(nic);
    } else {
      findings.unresolved = true;
      state.note(fmt::format("{}: {} of {} re-tests with good partners slow; not named",
                             nics[nic].key(), bad, runs.size()));
    }
  }
  // A slow pair whose two ends both measure healthy elsewhere: the path between them.
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (run_of[i] == std::string::npos || runner.at(run_of[i]).result == SweepRun::Result::Ok) {
      continue;
    }
    if (cleared.contains(pairs[i].client) && cleared.contains(pairs[i].server)) {
      findings.unresolved = true;
      const Nic& a = nics[pairs[i].client];
      const Nic& b = nics[pairs[i].server];
      state.note(fmt::format(
          "{} and {} were slow together ({}) but each is healthy with other partners: the path "
          "between {} and {} (a spine link, or ECMP hashing both directions onto one), not a NIC",
          a.key(), b.key(), runner.at(run_of[i]).detail, a.leaf_group(), b.leaf_group()));
    }
  }
  findings.unreachable_hosts = runner.unreachable();
  return findings;
}

}  // namespace netdoctor::sweep
