// ecn-cnp: is ECN doing its job (marks and CNPs flowing) where PFC pause shows congestion?
// Groups NICs by the leaf they are cabled to: a leaf whose hosts pause but see no ECN marks
// while the rest of the fleet marks has ECN off or thresholds too high.
#include <fmt/format.h>

#include <map>

#include "probes/builtin.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// ECN activity at or below 1 % of the rest of the fleet's is "absent": a working ECN config
// on the same traffic marks within the same order of magnitude.
constexpr double k_inactive_fraction = 0.01;
// The rest of the fleet must mark at least this much (events/s) for "absent" to mean
// anything; below it nobody is congested enough to mark.
constexpr double k_min_fleet_activity = 1.0;
// Pause counts as present from 10 frames/s: low, because here pause is only the context
// saying "congestion exists", the deciding figure is the missing ECN.
constexpr double k_min_pause_rate = 10.0;
// CNPs ignored by the reaction point should stay 0 with congestion control on; one per
// second sustained means the NIC's DCQCN is off.
constexpr double k_min_ignored_rate = 1.0;

struct Group {
  std::vector<double> activity;
  std::vector<double> pause;
  std::vector<const model::Nic*> nics;
};

class EcnCnpProbe final : public BasicProbe {
 public:
  EcnCnpProbe()
      : BasicProbe("ecn-cnp", "ECN marks received and CNPs versus PFC pause, per leaf",
                   CostClass::Passive, {"sysfs hw_counters", "ethtool -S", "show queue counters"},
                   {"ecn-inactive", "cnp-ignored", "ecn-active"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    const int prio = context.options.roce_priority;
    // Receiver-side (notification point) figures only: marks arrive on packets that crossed
    // the congested switch towards this NIC. CNPs *handled* belong to the sender and reflect
    // marks made elsewhere, so they would hide a leaf that never marks.
    NicSurvey activity = survey_nics(fabric, [](const model::Nic& nic) {
      Reading marks = read_counter(nic.samples, metric::k_ecn_marked_packets);
      if (marks.present() || marks.status == model::RateStatus::Reset) {
        return marks;
      }
      return read_counter(nic.samples, metric::k_cnp_sent);
    });
    if (!apply_coverage(result, activity.with_data, activity.total, "NICs",
                        "sysfs hw_counters (ECN/CNP counters)")) {
      return;
    }
    if (!activity.rate_mode) {
      add_note(result, "single sample: ECN activity compared as cumulative counts");
    }
    std::map<std::string, Group> groups;
    for (const auto& value : activity.values) {
      const model::Nic& nic = *value.nic;
      Reading rx = read_counter(nic.samples, metric::k_pfc_rx_pause_frames, prio);
      Reading tx = read_counter(nic.samples, metric::k_pfc_tx_pause_frames, prio);
      double pause = (rx.present() ? rx.value : 0.0) + (tx.present() ? tx.value : 0.0);
      Group& group = groups[nic.switch_name];
      group.activity.push_back(value.reading.value);
      group.pause.push_back(pause);
      group.nics.push_back(&nic);
    }
    const double pause_floor = activity.rate_mode ? k_min_pause_rate : k_min_pause_rate * 60.0;
    bool found = false;
    for (const auto& [name, group] : groups) {
      std::vector<double> others;
      for (const auto& [other_name, other] : groups) {
        if (other_name != name) {
          others.insert(others.end(), other.activity.begin(), other.activity.end());
        }
      }
      double own = median_of(group.activity);
      double pause = median_of(group.pause);
      double rest = others.empty() ? 0.0 : median_of(others);
      bool isolated =
          !others.empty() && rest >= k_min_fleet_activity && own <= k_inactive_fraction * rest;
      bool fabric_wide = others.empty() && own <= 0.0;
      if (pause < pause_floor || !(isolated || fabric_wide)) {
        continue;
      }
      found = true;
      std::vector<std::string> entities;
      if (!name.empty()) {
        entities.push_back("switch:" + name);
      }
      for (const model::Nic* nic : group.nics) {
        entities.push_back(nic->nic_entity());
      }
      std::string where = name.empty() ? std::string("hosts with no known leaf") : "behind " + name;
      std::string text = isolated
                             ? fmt::format(
                                   "{} NICs {} see {} ECN marks/CNPs{} (median) while pausing {} "
                                   "frames{} on priority {}; the rest of the fleet marks {}{}",
                                   group.nics.size(), where, human(own), per(activity),
                                   human(pause), per(activity), prio, human(rest), per(activity))
                             : fmt::format(
                                   "{} NICs {} pause {} frames{} on priority {} but no NIC sees "
                                   "any ECN mark or CNP",
                                   group.nics.size(), where, human(pause), per(activity), prio);
      double strength = isolated ? std::max(0.6, 1.0 - own / std::max(rest, 1e-9)) : 0.6;
      result.findings.push_back(make_finding("ecn-inactive", entities, strength, text, own,
                                             isolated ? rest : 0.0,
                                             activity.rate_mode ? "events/s" : "events"));
    }

    NicSurvey ignored = survey_nics(fabric, [](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_cnp_ignored);
    });
    for (const auto& value : ignored.values) {
      if (!value.reading.is_rate() || value.reading.value < k_min_ignored_rate) {
        continue;
      }
      found = true;
      result.findings.push_back(make_finding(
          "cnp-ignored", nic_entities(*value.nic, false),
          saturating(value.reading.value, 10.0 * k_min_ignored_rate),
          fmt::format("{} ignores {} CNPs/s (fleet median {}/s): its congestion control is off",
                      nic_label(*value.nic), human(value.reading.value),
                      human(ignored.stats.median)),
          value.reading.value, ignored.stats.median, "CNPs/s"));
    }
    if (!found) {
      std::string text = fmt::format("ECN marks/CNPs at median {}{} over {} NICs in {} leaf groups",
                                     human(activity.stats.median), per(activity),
                                     activity.values.size(), groups.size());
      result.checked.push_back(text);
      result.findings.push_back(make_finding("ecn-active", {}, 0.7, text, activity.stats.median,
                                             activity.stats.median,
                                             activity.rate_mode ? "events/s" : "events"));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_ecn_cnp_probe() {
  return std::make_unique<EcnCnpProbe>();
}

}  // namespace netdoctor::probes
