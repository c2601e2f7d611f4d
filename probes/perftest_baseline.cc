// perftest-baseline: has a pair's measured performance moved away from its healthy baseline?
// Reads every perftest run of the incident (ib_write_bw bandwidth, ib_read_lat latency) and
// the recorded baseline runs, and compares each run with the baseline of the same client,
// server, test and device.
//
// perftest repeats within a percent or two on an idle pair, and the field chases any
// deviation over the baseline rule (5 %). In a healthy fleet every pair measures within it:
//   perftest-regression  a pair's bandwidth is below, or its latency above, its baseline by
//                        more than the rule; at twice the rule the evidence is clear;
//   perftest-failed      a run did not complete (connection refused, completion error): no
//                        RDMA path between the pair.
#include <fmt/format.h>

#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

// One run of the incident that can be judged: failed, or with its baseline.
struct Run {
  const model::PerftestResult* run = nullptr;
  const model::PerftestResult* base = nullptr;  // nullptr when the run failed
  std::string pair;                             // "ib_write_bw node03 -> node04 (mlx5_0)"
};

struct Survey {
  std::size_t current = 0;  // runs of the incident (not baselines)
  std::vector<Run> judged;  // in capture order
  std::size_t compared = 0;
};

std::vector<std::string> run_entities(const model::PerftestResult& run) {
  std::vector<std::string> entities;
  if (!run.device.empty()) {
    entities.push_back(model::nic_entity(run.client, run.device));
  }
  entities.push_back(model::host_entity(run.client));
  if (!run.server.empty()) {
    append_unique(entities, model::host_entity(run.server));
  }
  return entities;
}

std::optional<double> latency_of(const model::PerftestResult& run) {
  if (run.lat_typical_us) {
    return run.lat_typical_us;
  }
  return run.lat_avg_us;
}

bool failed(const model::PerftestResult& run) {
  return !run.ok || !run.error.empty();
}

// The last healthy baseline run of the same pair, test and device.
const model::PerftestResult* baseline_of(const std::vector<model::PerftestResult>& runs,
                                         const model::PerftestResult& run) {
  const model::PerftestResult* base = nullptr;
  for (const auto& candidate : runs) {
    if (candidate.baseline && candidate.ok && candidate.client == run.client &&
        candidate.server == run.server && candidate.test == run.test &&
        candidate.device == run.device) {
      base = &candidate;
    }
  }
  return base;
}

void judge_failed(const Run& judged, Judgement& judgement) {
  const model::PerftestResult& run = *judged.run;
  judgement.find(
      "perftest-failed", run_entities(run), judgement.limit("failed_strength"),
      fmt::format("{} failed: {}", judged.pair, run.error.empty() ? "no result table" : run.error));
}

// The threshold itself is the half-way point of the evidence: twice the threshold off is a
// clear regression.
void judge_bandwidth(const Run& judged, double threshold, Judgement& judgement) {
  const model::PerftestResult& run = *judged.run;
  const model::PerftestResult& base = *judged.base;
  if (!run.bw_avg_gbps || !base.bw_avg_gbps || *base.bw_avg_gbps <= 0.0) {
    return;
  }
  double drop = 1.0 - *run.bw_avg_gbps / *base.bw_avg_gbps;
  if (drop > threshold) {
    judgement.find("perftest-regression", run_entities(run), saturating(drop, threshold),
                   fmt::format("{} measures {:.1f} Gb/s, {} below its baseline of {:.1f} Gb/s "
                               "(threshold {})",
                               judged.pair, *run.bw_avg_gbps, percent(drop), *base.bw_avg_gbps,
                               percent(threshold)),
                   *run.bw_avg_gbps, *base.bw_avg_gbps, "Gb/s");
  } else {
    judgement.rule_out(fmt::format("{} {:.1f} Gb/s vs baseline {:.1f}", judged.pair,
                                   *run.bw_avg_gbps, *base.bw_avg_gbps));
  }
}

void judge_latency(const Run& judged, double threshold, Judgement& judgement) {
  auto lat = latency_of(*judged.run);
  auto base_lat = latency_of(*judged.base);
  if (!lat || !base_lat || *base_lat <= 0.0) {
    return;
  }
  double rise = *lat / *base_lat - 1.0;
  if (rise > threshold) {
    judgement.find("perftest-regression", run_entities(*judged.run), saturating(rise, threshold),
                   fmt::format("{} latency {:.2f} us, {} above its baseline of {:.2f} us "
                               "(threshold {})",
                               judged.pair, *lat, percent(rise), *base_lat, percent(threshold)),
                   *lat, *base_lat, "us");
  } else {
    judgement.rule_out(
        fmt::format("{} {:.2f} us vs baseline {:.2f}", judged.pair, *lat, *base_lat));
  }
}

class PerftestBaselineProbe final : public FleetProbe<Survey> {
 public:
  PerftestBaselineProbe()
      : FleetProbe({.id = "perftest-baseline",
                    .description = "perftest runs against the pair's healthy baseline",
                    .cost = CostClass::Passive,
                    .reads = {source::k_perftest, source::k_perftest_baseline},
                    .findings = {"perftest-regression", "perftest-failed"},
                    .clearing = "perftest-ok",
                    .thresholds = {"deviation", "failed_strength", "ok_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const auto& runs = judgement.fabric().perftests;
    Survey fleet;
    for (const auto& run : runs) {
      if (run.baseline) {
        continue;
      }
      ++fleet.current;
      std::string pair = fmt::format("{} {} -> {} ({})", run.test, run.client, run.server,
                                     run.device.empty() ? "default device" : run.device);
      const model::PerftestResult* base = failed(run) ? nullptr : baseline_of(runs, run);
      if (failed(run) || base != nullptr) {
        fleet.compared += base != nullptr ? 1 : 0;
        fleet.judged.push_back(Run{&run, base, std::move(pair)});
      }
    }
    return fleet;
  }

  // A failed run is judged without a baseline; any other needs one.
  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"perftest runs", "perftest-baseline", fleet.judged.size(), fleet.current}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    const double threshold = judgement.limit("deviation");
    for (const Run& judged : fleet.judged) {
      if (judged.base == nullptr) {
        judge_failed(judged, judgement);
        continue;
      }
      judge_bandwidth(judged, threshold, judgement);
      judge_latency(judged, threshold, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance clear;
    clear.summary = fmt::format("{} perftest runs within {} of their baselines", fleet.compared,
                                percent(judgement.limit("deviation")));
    clear.strength = judgement.limit("ok_strength");
    clear.ruled_out = false;  // the pairs were listed one by one
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_perftest_baseline_probe() {
  return std::make_unique<PerftestBaselineProbe>();
}

}  // namespace netdoctor::probes
