// perftest-baseline: each perftest run of the incident against the healthy baseline of the
// same client, server, test and device.
#include <fmt/format.h>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

std::vector<std::string> run_entities(const model::PerftestResult& run) {
  std::vector<std::string> entities;
  if (!run.device.empty()) {
    entities.push_back("nic:" + run.client + "/" + run.device);
  }
  entities.push_back("host:" + run.client);
  if (!run.server.empty()) {
    append_unique(entities, "host:" + run.server);
  }
  return entities;
}

std::optional<double> latency_of(const model::PerftestResult& run) {
  if (run.lat_typical_us) {
    return run.lat_typical_us;
  }
  return run.lat_avg_us;
}

class PerftestBaselineProbe final : public BasicProbe {
 public:
  PerftestBaselineProbe()
      : BasicProbe("perftest-baseline", "perftest runs against the pair's healthy baseline",
                   CostClass::Passive, {"perftest", "perftest-baseline"},
                   {"perftest-regression", "perftest-failed", "perftest-ok"}, {"deviation"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const auto& runs = context.fabric.perftests;
    const double threshold = limit(context, "deviation");
    std::size_t current = 0;
    std::size_t compared = 0;
    for (const auto& run : runs) {
      current += run.baseline ? 0 : 1;
    }
    if (current == 0) {
      result.status = ProbeStatus::Skipped;
      result.reason = "no data for perftest (no perftest runs in the capture)";
      return;
    }
    bool found = false;
    std::vector<std::string> ok_lines;
    for (const auto& run : runs) {
      if (run.baseline) {
        continue;
      }
      std::string pair = fmt::format("{} {} -> {} ({})", run.test, run.client, run.server,
                                     run.device.empty() ? "default device" : run.device);
      if (!run.ok || !run.error.empty()) {
        found = true;
        result.findings.push_back(make_finding(
            "perftest-failed", run_entities(run), 0.9,
            fmt::format("{} failed: {}", pair, run.error.empty() ? "no result table" : run.error)));
        continue;
      }
      const model::PerftestResult* base = nullptr;
      for (const auto& candidate : runs) {
        if (candidate.baseline && candidate.ok && candidate.client == run.client &&
            candidate.server == run.server && candidate.test == run.test &&
            candidate.device == run.device) {
          base = &candidate;
        }
      }
      if (base == nullptr) {
        continue;
      }
      ++compared;
      // perftest repeats within a percent or two on an idle pair, so the threshold itself is
      // the half-way point of the evidence: twice the threshold off is a clear regression.
      if (run.bw_avg_gbps && base->bw_avg_gbps && *base->bw_avg_gbps > 0.0) {
        double drop = 1.0 - *run.bw_avg_gbps / *base->bw_avg_gbps;
        if (drop > threshold) {
          found = true;
          result.findings.push_back(make_finding(
              "perftest-regression", run_entities(run), saturating(drop, threshold),
              fmt::format("{} measures {:.1f} Gb/s, {} below its baseline of {:.1f} Gb/s "
                          "(threshold {})",
                          pair, *run.bw_avg_gbps, percent(drop), *base->bw_avg_gbps,
                          percent(threshold)),
              *run.bw_avg_gbps, *base->bw_avg_gbps, "Gb/s"));
        } else {
          ok_lines.push_back(fmt::format("{} {:.1f} Gb/s vs baseline {:.1f}", pair,
                                         *run.bw_avg_gbps, *base->bw_avg_gbps));
        }
      }
      auto lat = latency_of(run);
      auto base_lat = latency_of(*base);
      if (lat && base_lat && *base_lat > 0.0) {
        double rise = *lat / *base_lat - 1.0;
        if (rise > threshold) {
          found = true;
          result.findings.push_back(
              make_finding("perftest-regression", run_entities(run), saturating(rise, threshold),
                           fmt::format("{} latency {:.2f} us, {} above its baseline of {:.2f} us "
                                       "(threshold {})",
                                       pair, *lat, percent(rise), *base_lat, percent(threshold)),
                           *lat, *base_lat, "us"));
        } else {
          ok_lines.push_back(fmt::format("{} {:.2f} us vs baseline {:.2f}", pair, *lat, *base_lat));
        }
      }
    }
    if (compared < current) {
      add_note(result, fmt::format("{} of {} perftest runs have a baseline to compare with",
                                   compared, current));
    }
    result.checked = ok_lines;
    if (!found && compared > 0) {
      result.findings.push_back(
          make_finding("perftest-ok", {}, 0.8,
                       fmt::format("{} perftest runs within {} of their baselines", compared,
                                   percent(threshold))));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_perftest_baseline_probe() {
  return std::make_unique<PerftestBaselineProbe>();
}

}  // namespace netdoctor::probes
