// clock: do the hosts' clocks agree? Reads each host's offset from its reference and its
// synchronisation state from whichever view the host has - chronyc tracking, linuxptp
// (phc2sys/ptp4l logs, pmc), chronyc sources or ntpq -p, and says which - and the capture
// timestamps of every machine
// (captured_at): for one sample index each machine read its own clock at about the same
// moment, so a host whose timestamps sit apart from the rest has a clock that does.
//
// Collective libraries time out after seconds, but NCCL/RDMA tracing and log correlation
// compare timestamps across hosts and misorder events beyond about a millisecond. In a healthy
// fleet every host is synchronised, its offset is tens of microseconds, and its capture
// timestamps land with the others':
//   clock-unsynchronised  a host's clock runs free of its reference (leap status not normal);
//   clock-offset          a host is off its reference beyond the tolerance and outside the
//                         fleet's spread, or its capture timestamps sit apart from the fleet's.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

// Statistics: the robust sigma of a normal distribution is 1.4826 x its MAD.
constexpr double k_mad_to_sigma = 1.4826;
// Units: chrony's offsets are in seconds; the offset tolerance and the findings' figures in ms.
constexpr double k_ms_per_s = 1e3;

struct Survey {
  std::size_t hosts = 0;
  std::size_t with_clock = 0;   // hosts whose clock view gave an offset or a sync state
  std::set<std::string> views;  // the clock views read (model::ClockState::source)
  FleetStats offsets;           // offset from the reference, seconds
  // Capture-time skew: per sample index, each host against the median of every machine.
  std::map<std::string, std::vector<double>> skews;  // host -> deviation per sample, seconds
  FleetStats skew;                                   // over every host's every deviation
};

// How far a host may sit from its reference and from the fleet: an absolute floor, widened to
// the outlier rule's sigmas when the fleet itself is spread.
struct Tolerances {
  double offset_floor = 0.0;  // seconds
  double offset = 0.0;
  double skew = 0.0;
};

// For each sample index with enough machines, each host's capture time against the median of
// every machine (hosts and switches).
void survey_skews(const model::Fabric& fabric, std::size_t min_machines, Survey& fleet) {
  std::size_t max_samples = 0;
  for (const auto& host : fabric.hosts) {
    max_samples = std::max(max_samples, host.captured_at.size());
  }
  std::vector<double> all_devs;
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
    if (times.size() < min_machines) {
      continue;
    }
    double median = median_of(times);
    for (const auto& host : fabric.hosts) {
      if (i < host.captured_at.size()) {
        double dev = host.captured_at[i] - median;
        fleet.skews[host.name].push_back(dev);
        all_devs.push_back(dev);
      }
    }
  }
  fleet.skew = fleet_stats(all_devs);
}

Tolerances tolerances(const Survey& fleet, const Judgement& judgement) {
  const double min_z = judgement.fleet_limit("outlier_min_z");
  Tolerances limits;
  limits.offset_floor = judgement.limit("offset_tolerance") / k_ms_per_s;
  limits.offset = std::max(limits.offset_floor, min_z * k_mad_to_sigma * fleet.offsets.mad);
  limits.skew =
      std::max(judgement.limit("capture_skew_tolerance"), min_z * k_mad_to_sigma * fleet.skew.mad);
  return limits;
}

// What one host's clock shows beyond the tolerances: the evidence, the worst excess over a
// tolerance (0 when within) and the deciding figure in ms.
struct Excess {
  double worst = 0.0;
  std::string evidence;
  double value = 0.0;
  double normal = 0.0;
};

// Absolute floor against the reference, and relative to the fleet's own offset.
void offset_excess(const Survey& fleet, const model::Host& host, const Tolerances& limits,
                   Excess& out) {
  if (!host.clock.offset_s) {
    return;
  }
  double off = *host.clock.offset_s;
  double excess = std::max(std::fabs(off) / limits.offset,
                           std::fabs(off - fleet.offsets.median) / limits.offset);
  if (excess > 1.0 && std::fabs(off) > limits.offset_floor) {
    out.worst = excess;
    out.value = off * k_ms_per_s;
    out.normal = fleet.offsets.median * k_ms_per_s;
    out.evidence = fmt::format(
        "{} is {:.4g} ms {} its reference (fleet median {:.3g} ms, "
        "tolerance {:.3g} ms)",
        host.name, std::fabs(off) * k_ms_per_s, off > 0 ? "ahead of" : "behind",
        fleet.offsets.median * k_ms_per_s, limits.offset * k_ms_per_s);
  }
}

void skew_excess(const Survey& fleet, const model::Host& host, const Tolerances& limits,
                 Excess& out) {
  auto it = fleet.skews.find(host.name);
  if (it == fleet.skews.end()) {
    return;
  }
  double dev = median_of(it->second);
  double excess = std::fabs(dev - fleet.skew.median) / limits.skew;
  if (excess > 1.0) {
    if (out.worst == 0.0) {
      out.value = dev * k_ms_per_s;
      out.normal = fleet.skew.median * k_ms_per_s;
    }
    out.worst = std::max(out.worst, excess);
    out.evidence += fmt::format(
        "{}{}'s capture timestamps are {:.3g} s {} the fleet's "
        "median (spread {:.3g} s)",
        out.evidence.empty() ? "" : "; ", host.name, std::fabs(dev),
        dev > 0 ? "ahead of" : "behind", k_mad_to_sigma * fleet.skew.mad);
  }
}

void judge_host(const Survey& fleet, const model::Host& host, const Tolerances& limits,
                Judgement& judgement) {
  const auto& clock = host.clock;
  if (clock.synchronised && !*clock.synchronised) {
    const std::string reference = clock.reference.empty() ? "none" : clock.reference;
    const bool tracking = clock.source.empty() || clock.source == source::k_chronyc_tracking;
    judgement.find(
        "clock-unsynchronised", {host.entity()}, judgement.limit("unsynchronised_strength"),
        tracking ? fmt::format("{} is not synchronised (leap status \"{}\", reference {})",
                               host.name, clock.leap_status, reference)
                 : fmt::format("{} is not synchronised ({} per {}, reference {})", host.name,
                               clock.leap_status, clock.source, reference));
  }
  Excess excess;
  offset_excess(fleet, host, limits, excess);
  skew_excess(fleet, host, limits, excess);
  if (excess.worst > 0.0) {
    judgement.find("clock-offset", {host.entity()},
                   saturating(excess.worst, judgement.limit("excess_half_ratio")), excess.evidence,
                   excess.value, excess.normal, "ms");
  }
}

bool only_tracking(const Survey& fleet) {
  return fleet.views.empty() || fleet.views == std::set<std::string>{source::k_chronyc_tracking};
}

std::string views_label(const Survey& fleet) {
  if (only_tracking(fleet)) {
    return source::k_chronyc_tracking;
  }
  return fmt::format("{}", fmt::join(fleet.views, ", "));
}

class ClockProbe final : public FleetProbe<Survey> {
 public:
  ClockProbe()
      : FleetProbe(
            {.id = "clock",
             .description = "Clock offset, synchronisation and capture-time skew per host",
             .cost = CostClass::Passive,
             .reads = {source::k_chronyc_tracking, source::k_chronyc_sources, source::k_ntpq,
                       source::k_pmc, source::k_ptp4l_log, source::k_captured_at},
             .findings = {"clock-offset", "clock-unsynchronised"},
             .clearing = "clock-ok",
             .thresholds = {"offset_tolerance", "capture_skew_tolerance", "skew_min_machines",
                            "unsynchronised_strength", "excess_half_ratio", "ok_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    Survey fleet;
    fleet.hosts = fabric.hosts.size();
    std::vector<double> offsets;
    for (const auto& host : fabric.hosts) {
      if (host.clock.offset_s) {
        offsets.push_back(*host.clock.offset_s);
      }
      if (host.clock.offset_s || host.clock.synchronised) {
        ++fleet.with_clock;
        fleet.views.insert(host.clock.source);
      }
    }
    fleet.offsets = fleet_stats(offsets);
    survey_skews(fabric, judgement.limit_count("skew_min_machines"), fleet);
    return fleet;
  }

  // Capture skew compares the whole fleet at once: every host it reaches is judged, so it
  // never leaves part of the fleet unjudged (no partial note), but it may judge on its own.
  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"hosts", views_label(fleet), fleet.with_clock, fleet.hosts},
            {"machines", "captured_at", fleet.skews.size(), fleet.skews.size(), false}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    const Tolerances limits = tolerances(fleet, judgement);
    for (const auto& host : judgement.fabric().hosts) {
      judge_host(fleet, host, limits, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const Tolerances limits = tolerances(fleet, judgement);
    Clearance clear;
    clear.summary = fmt::format(
        "{} hosts synchronised{}; offsets median {:.3g} ms (tolerance {:.3g} ms); capture "
        "times within {:.3g} s of the fleet",
        fleet.with_clock, only_tracking(fleet) ? "" : " (read via " + views_label(fleet) + ")",
        fleet.offsets.median * k_ms_per_s, limits.offset * k_ms_per_s, limits.skew);
    clear.strength = judgement.limit("ok_strength");
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_clock_probe() {
  return std::make_unique<ClockProbe>();
}

}  // namespace netdoctor::probes
