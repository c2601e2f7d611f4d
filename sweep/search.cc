// run_sweep: discovery, the idle check, the pair search, the collective search, then the
// verdict (docs/sweep.md).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/entity_names.h"
#include "sweep/collective_search.h"
#include "sweep/counters.h"
#include "sweep/inventory.h"
#include "sweep/pair_search.h"
#include "sweep/sweep.h"
#include "sweep/sweep_state.h"

namespace netdoctor::sweep {
namespace {

constexpr std::chrono::milliseconds k_idle_interval{1'000};

// Reads every counter of `nics` on their hosts; hosts that do not answer are listed in `failed`.
CounterReadings read_counters(SweepState& state, const std::vector<Nic>& nics,
                              std::map<std::string, std::string>& failed) {
  std::map<std::string, std::vector<Nic>> by_host;
  for (const Nic& nic : nics) {
    by_host[nic.host].push_back(nic);
  }
  std::vector<std::string> hosts;
  std::vector<std::vector<std::string>> commands;
  for (const auto& [host, host_nics] : by_host) {
    hosts.push_back(host);
    commands.push_back(state.remote().argv(host, counter_argv(host_nics)));
  }
  Batch batch = run_batch(state.remote(), commands);
  state.spend(batch.seconds);
  CounterReadings readings;
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const RemoteResult& result = batch.results[h];
    // grep exits 1 when a file had no line and 2 when some file was missing: either way what it
    // printed is a reading; only an unreachable host or no output at all is a failure.
    if (result.unreachable || (!result.ok && result.out.empty())) {
      failed[hosts[h]] = "counters: " + result.why;
      continue;
    }
    parse_counter_output(result.out, hosts[h], readings);
  }
  return readings;
}

std::string link_of(const Nic& nic) {
  const std::string near = nic.host + "/" + (nic.netdev.empty() ? nic.device : nic.netdev);
  if (nic.leaf.empty()) {
    return model::nic_entity(nic.host, nic.device);
  }
  return model::link_entity(near,
                            nic.leaf_port.empty() ? nic.leaf : nic.leaf + "/" + nic.leaf_port);
}

// Slow NICs as entities: a NIC whose link errors grew is its cable; every NIC of a host slow
// is the host.
std::vector<SlowEntity> name_slow(const std::vector<Nic>& nics, const PairFindings& findings,
                                  const CounterReadings& before, const CounterReadings& after) {
  std::map<std::string, std::size_t> nics_per_host;
  std::map<std::string, std::vector<std::size_t>> slow_per_host;  // host -> finding indexes
  for (const Nic& nic : nics) {
    ++nics_per_host[nic.host];
  }
  for (std::size_t f = 0; f < findings.slow_nics.size(); ++f) {
    slow_per_host[nics[findings.slow_nics[f]].host].push_back(f);
  }
  std::vector<SlowEntity> out;
  for (const auto& [host, slow] : slow_per_host) {
    if (slow.size() >= 2 && slow.size() == nics_per_host[host]) {
      SlowEntity entity;
      entity.entity = model::host_entity(host);
      for (std::size_t f : slow) {
        entity.measured_gbps = std::max(entity.measured_gbps, findings.measured_gbps[f]);
        entity.expected_gbps = std::max(entity.expected_gbps, findings.expected_gbps[f]);
        entity.evidence.insert(entity.evidence.end(), findings.evidence[f].begin(),
                               findings.evidence[f].end());
      }
      entity.evidence.insert(entity.evidence.begin(),
                             fmt::format("every one of the host's {} NICs is slow with partners "
                                         "known good: the host (PCIe, CPU, memory), not a NIC",
                                         slow.size()));
      out.push_back(std::move(entity));
      continue;
    }
    for (std::size_t f : slow) {
      const Nic& nic = nics[findings.slow_nics[f]];
      SlowEntity entity;
      entity.measured_gbps = findings.measured_gbps[f];
      entity.expected_gbps = findings.expected_gbps[f];
      entity.evidence = findings.evidence[f];
      const auto grown = grown_link_errors(before, after, nic.key());
      if (grown.empty()) {
        entity.entity = model::nic_entity(nic.host, nic.device);
      } else {
        entity.entity = link_of(nic);
        entity.evidence.insert(
            entity.evidence.begin(),
            fmt::format("{} link error counters grew during the tests ({}): the cable or "
                        "transceiver to {}, not the NIC",
                        nic.key(), fmt::join(grown, ", "),
                        nic.leaf.empty() ? "its switch" : nic.leaf));
      }
      out.push_back(std::move(entity));
    }
  }
  return out;
}

std::string summary_of(const SweepReport& report) {
  const std::string left =
      report.left_out.empty() ? "" : fmt::format("; {} hosts not tested", report.left_out.size());
  switch (report.verdict) {
    case Verdict::SlowFound: {
      std::vector<std::string> names;
      for (const auto& slow : report.slow) {
        names.push_back(slow.entity);
      }
      return fmt::format("{} slow: {} ({} runs in {} rounds, {:.0f} s){}", names.size(),
                         fmt::join(names, ", "), report.runs.size(), report.rounds, report.wall_s,
                         left);
    }
    case Verdict::AllHealthy:
      return fmt::format(
          "every NIC of the {} hosts measured at its expected rate ({} runs in {} "
          "rounds, {:.0f} s)",
          report.hosts, report.runs.size(), report.rounds, report.wall_s);
    case Verdict::Inconclusive:
      break;
  }
  return fmt::format(
      "no slow entity named, but the sweep is incomplete ({} of {} NICs tested, "
      "{} runs in {} rounds, {:.0f} s){}",
      report.tested_nics, report.nics, report.runs.size(), report.rounds, report.wall_s, left);
}

}  // namespace

SweepReport run_sweep(const std::vector<std::string>& hosts, const SweepOptions& options,
                      CommandRunner& runner, Clock& clock, const ProgressSink& progress) {
  SweepState state(options, runner, clock, progress);
  SweepReport& report = state.report();
  report.hosts = hosts.size();
  state.say(fmt::format("discovering the RDMA ports of {} hosts", hosts.size()));
  Discovery discovery = discover_hosts(hosts, state.remote(), options.device, options.leaf_of);
  state.spend(discovery.seconds);
  std::vector<Nic> nics;
  std::map<std::string, std::string> leaf_of_host;
  for (auto& host : discovery.hosts) {
    if (!host.left_out.empty()) {
      report.left_out.push_back({host.host, host.left_out, host.detail});
      continue;
    }
    leaf_of_host[host.host] = host.nics.front().leaf_group();
    report.nics += host.nics.size();
    nics.insert(nics.end(), host.nics.begin(), host.nics.end());
  }
  // The idle check: two readings a second apart.
  std::map<std::string, std::string> failed;
  const CounterReadings idle = read_counters(state, nics, failed);
  clock.sleep_for(k_idle_interval);
  state.spend(std::chrono::duration<double>(k_idle_interval).count());
  const CounterReadings idle_after = read_counters(state, nics, failed);
  std::set<std::string> excluded;
  for (const auto& [host, why] : failed) {
    report.left_out.push_back({host, "unreachable", why});
    excluded.insert(host);
  }
  std::map<std::string, double> busiest;
  for (const Nic& nic : nics) {
    const double gbps = data_gbps(idle, idle_after, nic.key(), 1.0);
    if (gbps > options.thresholds.busy_gbps && !excluded.contains(nic.host)) {
      busiest[nic.host] = std::max(busiest[nic.host], gbps);
    }
  }
  for (const auto& [host, gbps] : busiest) {
    const std::string detail = fmt::format(
        "its NICs moved {:.1f} Gb/s between two reads a second apart (idle is below {:.1f})", gbps,
        options.thresholds.busy_gbps);
    if (options.force) {
      state.note(fmt::format("{} tested although busy (--force): {}", host, detail));
      continue;
    }
    report.left_out.push_back({host, "busy", detail + "; --force tests it anyway"});
    excluded.insert(host);
  }
  std::erase_if(nics, [&excluded](const Nic& nic) { return excluded.contains(nic.host); });

  PairFindings pairs;
  std::vector<SlowEntity> slow;
  if (options.tests != Tests::Nccl) {
    pairs = pair_search(state, nics);
    if (!pairs.slow_nics.empty()) {
      std::vector<Nic> slow_nics;
      for (std::size_t n : pairs.slow_nics) {
        slow_nics.push_back(nics[n]);
      }
      std::map<std::string, std::string> unread;
      const CounterReadings after = read_counters(state, slow_nics, unread);
      slow = name_slow(nics, pairs, idle_after, after);
    }
    for (const auto& host : pairs.unreachable_hosts) {
      report.left_out.push_back({host, "unreachable",
                                 "a test on it timed out or could not "
                                 "reach it; left out of later rounds"});
      excluded.insert(host);
    }
    report.tested_nics = pairs.tested.size();
  }
  CollectiveFindings collectives;
  if (options.tests != Tests::Perftest && !state.stopped()) {
    std::vector<std::string> group;
    std::map<std::string, double> host_gbps;
    for (const Nic& nic : nics) {
      host_gbps[nic.host] += nic.line_gbps;
    }
    std::set<std::string> blamed;
    for (const auto& entity : slow) {
      const auto parts = model::parse_entity(entity.entity);
      if (parts.kind != model::EntityKind::Link) {
        blamed.insert(parts.owner);
        continue;
      }
      // link_entity sorts its two ends, so the host's end may be either
      // ("link:leaf28/Ethernet280~node0873/ens7f0np0"): blame the end that is a host.
      for (const std::string& end : {parts.owner, parts.part}) {
        const std::string host = end.substr(0, end.find('/'));
        if (host_gbps.contains(host)) {
          blamed.insert(host);
        }
      }
    }
    for (const auto& [host, gbps] : host_gbps) {
      if (!blamed.contains(host) && !excluded.contains(host)) {
        group.push_back(host);
      }
    }
    if (!blamed.empty()) {
      state.note(
          fmt::format("collectives ran without the {} hosts already named slow", blamed.size()));
    }
    // Leaf-contiguous halves: a halving step keeps whole leaves together.
    std::stable_sort(group.begin(), group.end(), [&](const std::string& a, const std::string& b) {
      return leaf_of_host[a] < leaf_of_host[b];
    });
    collectives = collective_search(state, group, host_gbps);
    slow.insert(slow.end(), collectives.slow_hosts.begin(), collectives.slow_hosts.end());
    if (options.tests == Tests::Nccl && collectives.ran) {
      report.tested_nics = nics.size();
    }
  }
  report.slow = std::move(slow);
  state.check_interrupt();  // Ctrl-C during the last commands run, with nothing started after
  const bool complete = !state.stopped() && report.left_out.empty() && !pairs.unresolved &&
                        !collectives.unresolved && report.nics > 0 &&
                        report.tested_nics == report.nics;
  report.verdict = !report.slow.empty() ? Verdict::SlowFound
                   : complete           ? Verdict::AllHealthy
                                        : Verdict::Inconclusive;
  report.summary = summary_of(report);
  state.say(report.summary);
  return report;
}

Result<Tests> parse_tests(std::string_view text) {
  if (text == "perftest") {
    return Tests::Perftest;
  }
  if (text == "nccl") {
    return Tests::Nccl;
  }
  if (text == "both") {
    return Tests::Both;
  }
  return make_error(ErrorCode::InvalidArgument, "--test must be perftest, nccl or both",
                    std::string(text));
}

const char* to_string(SweepRun::Result result) {
  switch (result) {
    case SweepRun::Result::Ok:
      return "ok";
    case SweepRun::Result::Slow:
      return "slow";
    case SweepRun::Result::Failed:
      return "failed";
  }
  return "ok";
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::SlowFound:
      return "slow-found";
    case Verdict::AllHealthy:
      return "all-healthy";
    case Verdict::Inconclusive:
      break;
  }
  return "inconclusive";
}

}  // namespace netdoctor::sweep
