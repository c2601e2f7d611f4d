// clock: host clocks against their reference (chronyc) and against each other (the capture
// timestamps of one sample index, which each machine read from its own clock).
#include <fmt/format.h>

#include <cmath>
#include <map>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// Collective libraries time out after seconds, but NCCL/RDMA tracing and log correlation
// compare timestamps across hosts; beyond ~1 ms they misorder events. A synchronised chrony
// keeps hosts within tens of microseconds, so 1 ms is a generous absolute floor.
constexpr double k_offset_floor_s = 1e-3;
// Capture timestamps: collectors fan out in parallel and healthy machines land within a few
// hundred ms of each other; below 0.5 s collection order and clock skew can't be separated.
constexpr double k_capture_skew_floor_s = 0.5;
// Deviations are judged at 5 robust sigmas of the fleet (see OutlierRule::min_z).
constexpr double k_min_z = 5.0;
constexpr double k_mad_to_sigma = 1.4826;

class ClockProbe final : public BasicProbe {
 public:
  ClockProbe()
      : BasicProbe("clock", "Clock offset, synchronisation and capture-time skew per host",
                   CostClass::Passive, {"chronyc tracking", "captured_at"},
                   {"clock-offset", "clock-unsynchronised", "clock-ok"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    std::vector<double> offsets;
    std::size_t with_chrony = 0;
    for (const auto& host : fabric.hosts) {
      if (host.clock.offset_s) {
        offsets.push_back(*host.clock.offset_s);
      }
      if (host.clock.offset_s || host.clock.synchronised) {
        ++with_chrony;
      }
    }
    // Capture-time skew: per sample index, each machine against the median of all machines.
    std::map<std::string, std::vector<double>> skews;  // host -> deviation per sample
    std::vector<double> all_devs;
    std::size_t max_samples = 0;
    for (const auto& host : fabric.hosts) {
      max_samples = std::max(max_samples, host.captured_at.size());
    }
    for (std::size_t i = 0; i < max_samples; ++i) {
      std::vector<double> times;
      for (const auto& host : fabric.hosts) {
        if (i < host.captured_at.size()) {
          times.push_back(host.captured_at[i]);
        }
      }
      for (const auto& sw : fabric.switches) {
        if (i < sw.captured_at.size()) {
          times.push_back(sw.captured_at[i]);
        }
      }
      if (times.size() < 3) {
        continue;
      }
      double median = median_of(times);
      for (const auto& host : fabric.hosts) {
        if (i < host.captured_at.size()) {
          double dev = host.captured_at[i] - median;
          skews[host.name].push_back(dev);
          all_devs.push_back(dev);
        }
      }
    }
    if (with_chrony == 0 && all_devs.empty()) {
      result.status = ProbeStatus::Skipped;
      result.reason =
          "no data for chronyc tracking, and too few machines to compare "
          "captured_at";
      return;
    }
    if (with_chrony < fabric.hosts.size()) {
      add_note(result, fmt::format("partial coverage: {} of {} hosts have chronyc tracking",
                                   with_chrony, fabric.hosts.size()));
    }
    FleetStats offset_stats = fleet_stats(offsets);
    double offset_limit = std::max(k_offset_floor_s, k_min_z * k_mad_to_sigma * offset_stats.mad);
    FleetStats skew_stats = fleet_stats(all_devs);
    double skew_limit = std::max(k_capture_skew_floor_s, k_min_z * k_mad_to_sigma * skew_stats.mad);
    bool found = false;
    for (const auto& host : fabric.hosts) {
      const auto& clock = host.clock;
      if (clock.synchronised && !*clock.synchronised) {
        found = true;
        result.findings.push_back(make_finding(
            "clock-unsynchronised", {host.entity()}, 0.8,
            fmt::format("{} is not synchronised (leap status \"{}\", reference {})", host.name,
                        clock.leap_status, clock.reference.empty() ? "none" : clock.reference)));
      }
      double worst = 0.0;
      std::string evidence;
      double value = 0.0;
      double normal = 0.0;
      if (clock.offset_s) {
        double off = *clock.offset_s;
        // Absolute floor against the reference, and relative to the fleet's own offset.
        double excess = std::max(std::fabs(off) / offset_limit,
                                 std::fabs(off - offset_stats.median) / offset_limit);
        if (excess > 1.0 && std::fabs(off) > k_offset_floor_s) {
          worst = excess;
          value = off * 1e3;
          normal = offset_stats.median * 1e3;
          evidence = fmt::format(
              "{} is {:.4g} ms {} its reference (fleet median {:.3g} ms, "
              "tolerance {:.3g} ms)",
              host.name, std::fabs(off) * 1e3, off > 0 ? "ahead of" : "behind",
              offset_stats.median * 1e3, offset_limit * 1e3);
        }
      }
      auto it = skews.find(host.name);
      if (it != skews.end()) {
        double dev = median_of(it->second);
        double excess = std::fabs(dev - skew_stats.median) / skew_limit;
        if (excess > 1.0) {
          if (worst == 0.0) {
            value = dev * 1e3;
            normal = skew_stats.median * 1e3;
          }
          worst = std::max(worst, excess);
          evidence += fmt::format(
              "{}{}'s capture timestamps are {:.3g} s {} the fleet's "
              "median (spread {:.3g} s)",
              evidence.empty() ? "" : "; ", host.name, std::fabs(dev),
              dev > 0 ? "ahead of" : "behind", k_mad_to_sigma * skew_stats.mad);
        }
      }
      if (worst > 0.0) {
        found = true;
        result.findings.push_back(make_finding("clock-offset", {host.entity()},
                                               saturating(worst, 1.0), evidence, value, normal,
                                               "ms"));
      }
    }
    if (!found) {
      std::string text = fmt::format(
          "{} hosts synchronised; offsets median {:.3g} ms (tolerance {:.3g} ms); capture "
          "times within {:.3g} s of the fleet",
          with_chrony, offset_stats.median * 1e3, offset_limit * 1e3, skew_limit);
      result.checked.push_back(text);
      result.findings.push_back(make_finding("clock-ok", {}, 0.8, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_clock_probe() {
  return std::make_unique<ClockProbe>();
}

}  // namespace netdoctor::probes
