// ecn-cnp: is ECN doing its job where PFC pause shows congestion? Reads, on every NIC, the
// ECN-marked packets it receives or else the CNPs it sends back (sysfs hw_counters), the pause
// it sends and receives on the RoCE priority (ethtool -S), and the CNPs its congestion control
// ignores; NICs are grouped by the leaf they are cabled to, since ECN is configured per switch.
// Only receiver-side (notification point) figures count as activity: marks arrive on packets
// that crossed the congested switch towards this NIC, whereas CNPs *handled* belong to the
// sender and reflect marks made elsewhere, so they would hide a leaf that never marks.
//
// In a healthy fleet, wherever pause shows congestion, marks and CNPs flow at the same order
// of magnitude on every leaf, and no NIC ignores the CNPs it receives:
//   ecn-inactive  the hosts of one leaf pause but see (almost) no marks while the rest of the
//                 fleet marks, or no NIC anywhere sees a mark while all pause: ECN is off or
//                 its thresholds are too high, so PFC does the work ECN should;
//   cnp-ignored   a NIC's reaction point ignores CNPs: its congestion control (DCQCN) is off.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// Mathematics: keeps the share of the fleet's activity finite when the fleet marks nothing.
constexpr double k_min_divisor = 1e-9;

// The NICs behind one leaf.
struct Group {
  std::vector<double> activity;
  std::vector<double> pause;
  std::vector<const model::Nic*> nics;
};

struct Survey {
  int prio = 3;
  NicSurvey activity;                   // ECN marks received, else CNPs sent, per NIC
  NicSurvey ignored;                    // CNPs ignored by the NIC's reaction point
  std::map<std::string, Group> groups;  // by leaf name ("" = hosts with no known leaf)
  std::vector<double> all_activity;     // of every group, sorted
};

// One leaf's ECN activity against the rest of the fleet's.
struct LeafActivity {
  double own = 0.0;          // median activity of its NICs
  double pause = 0.0;        // median pause of its NICs
  double rest = 0.0;         // median activity of every other NIC
  bool isolated = false;     // this leaf does not mark while the others do
  bool fabric_wide = false;  // one group only, and it never marks
};

std::map<std::string, Group> group_by_leaf(const NicSurvey& activity, int prio) {
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
  return groups;
}

// The k-th smallest (from 0) of `all` without the values of `some` (both sorted, `some` taken
// out of `all`): the smallest value with more than k of the rest at or below it.
double kth_without(const std::vector<double>& all, const std::vector<double>& some, std::size_t k) {
  std::size_t low = 0;
  std::size_t high = all.size() - 1;
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    const auto in_all = std::upper_bound(all.begin(), all.end(), all[mid]) - all.begin();
    const auto in_some = std::upper_bound(some.begin(), some.end(), all[mid]) - some.begin();
    if (static_cast<std::size_t>(in_all - in_some) > k) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return all[low];
}

// median_of(all without some), without building and sorting the rest for every leaf (which is
// quadratic in the number of leaves).
double median_without(const std::vector<double>& all, std::vector<double> some) {
  std::sort(some.begin(), some.end());
  const std::size_t rest = all.size() - some.size();
  const std::size_t mid = rest / 2;
  if (rest % 2 == 1) {
    return kth_without(all, some, mid);
  }
  return (kth_without(all, some, mid - 1) + kth_without(all, some, mid)) / 2.0;
}

LeafActivity leaf_activity(const Survey& fleet, const Group& group, const Judgement& judgement) {
  const bool others = fleet.all_activity.size() > group.activity.size();
  LeafActivity leaf;
  leaf.own = median_of(group.activity);
  leaf.pause = median_of(group.pause);
  leaf.rest = others ? median_without(fleet.all_activity, group.activity) : 0.0;
  leaf.isolated = others && leaf.rest >= judgement.limit("min_fleet_activity") &&
                  leaf.own <= judgement.limit("inactive_fraction") * leaf.rest;
  leaf.fabric_wide = !others && leaf.own <= 0.0;
  return leaf;
}

void find_inactive(const Survey& fleet, const std::string& name, const Group& group,
                   const LeafActivity& leaf, Judgement& judgement) {
  const NicSurvey& activity = fleet.activity;
  std::vector<std::string> entities;
  if (!name.empty()) {
    entities.push_back(model::switch_entity(name));
  }
  for (const model::Nic* nic : group.nics) {
    entities.push_back(nic->nic_entity());
  }
  std::string where = name.empty() ? std::string("hosts with no known leaf") : "behind " + name;
  std::string text =
      leaf.isolated
          ? fmt::format(
                "{} NICs {} see {} ECN marks/CNPs{} (median) while pausing {} "
                "frames{} on priority {}; the rest of the fleet marks {}{}",
                group.nics.size(), where, human(leaf.own), per(activity), human(leaf.pause),
                per(activity), fleet.prio, human(leaf.rest), per(activity))
          : fmt::format(
                "{} NICs {} pause {} frames{} on priority {} but no NIC sees "
                "any ECN mark or CNP",
                group.nics.size(), where, human(leaf.pause), per(activity), fleet.prio);
  double strength = leaf.isolated ? std::max(judgement.limit("isolated_min_strength"),
                                             1.0 - leaf.own / std::max(leaf.rest, k_min_divisor))
                                  : judgement.limit("fabric_wide_strength");
  judgement.find("ecn-inactive", entities, strength, text, leaf.own,
                 leaf.isolated ? leaf.rest : 0.0, activity.rate_mode ? "events/s" : "events");
}

// Leaves whose hosts pause but do not mark. Pause only says "congestion exists" here, so its
// floor is low; the deciding figure is the missing ECN.
void judge_leaves(const Survey& fleet, Judgement& judgement) {
  const double min_pause = judgement.limit("min_pause_rate");
  const double pause_floor =
      fleet.activity.rate_mode ? min_pause : judgement.cumulative_floor(min_pause);
  for (const auto& [name, group] : fleet.groups) {
    const LeafActivity leaf = leaf_activity(fleet, group, judgement);
    if (leaf.pause < pause_floor || !(leaf.isolated || leaf.fabric_wide)) {
      continue;
    }
    find_inactive(fleet, name, group, leaf, judgement);
  }
}

// NICs whose reaction point ignores the CNPs it receives.
void judge_ignored(const Survey& fleet, Judgement& judgement) {
  const NicSurvey& ignored = fleet.ignored;
  const double min_rate = judgement.limit("min_ignored_rate");
  for (const auto& value : ignored.values) {
    if (!value.reading.is_rate() || value.reading.value < min_rate) {
      continue;
    }
    judgement.find(
        "cnp-ignored", nic_entities(*value.nic, false),
        saturating(value.reading.value, judgement.limit("ignored_half_rate")),
        fmt::format("{} ignores {} CNPs/s (fleet median {}/s): its congestion control is off",
                    nic_label(*value.nic), human(value.reading.value), human(ignored.stats.median)),
        value.reading.value, ignored.stats.median, "CNPs/s");
  }
}

class EcnCnpProbe final : public FleetProbe<Survey> {
 public:
  EcnCnpProbe()
      : FleetProbe({.id = "ecn-cnp",
                    .description = "ECN marks received and CNPs versus PFC pause, per leaf",
                    .cost = CostClass::Passive,
                    .reads = {source::k_sysfs_hw_counters, source::k_ethtool_stats,
                              source::k_show_queue_counters},
                    .findings = {"ecn-inactive", "cnp-ignored"},
                    .clearing = "ecn-active",
                    .thresholds = {"inactive_fraction", "min_fleet_activity", "min_pause_rate",
                                   "min_ignored_rate", "isolated_min_strength",
                                   "fabric_wide_strength", "ignored_half_rate", "active_strength"},
                    .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    fleet.prio = judgement.roce_priority();
    fleet.activity = survey_nics(judgement.fabric(), [](const model::Nic& nic) {
      Reading marks = read_counter(nic.samples, metric::k_ecn_marked_packets);
      if (marks.present() || marks.status == model::RateStatus::Reset) {
        return marks;
      }
      return read_counter(nic.samples, metric::k_cnp_sent);
    });
    fleet.ignored = survey_nics(judgement.fabric(), [](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_cnp_ignored);
    });
    fleet.groups = group_by_leaf(fleet.activity, fleet.prio);
    for (const auto& [name, group] : fleet.groups) {
      fleet.all_activity.insert(fleet.all_activity.end(), group.activity.begin(),
                                group.activity.end());
    }
    std::sort(fleet.all_activity.begin(), fleet.all_activity.end());
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "sysfs hw_counters (ECN/CNP counters)", fleet.activity.with_data,
             fleet.activity.total}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    if (!fleet.activity.rate_mode) {
      judgement.note("single sample: ECN activity compared as cumulative counts");
    }
    judge_leaves(fleet, judgement);
    judge_ignored(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const NicSurvey& activity = fleet.activity;
    return {.summary = fmt::format("ECN marks/CNPs at median {}{} over {} NICs in {} leaf groups",
                                   human(activity.stats.median), per(activity),
                                   activity.values.size(), fleet.groups.size()),
            .strength = judgement.limit("active_strength"),
            .value = activity.stats.median,
            .fleet_normal = activity.stats.median,
            .unit = activity.rate_mode ? "events/s" : "events"};
  }
};

}  // namespace

std::unique_ptr<Probe> make_ecn_cnp_probe() {
  return std::make_unique<EcnCnpProbe>();
}

}  // namespace netdoctor::probes
