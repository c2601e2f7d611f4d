// retransmits: how often the RDMA transport has to recover. Reads, per NIC, the transport's
// recovery counters (sysfs hw_counters): out-of-sequence packets, sequence-error NAKs, ACK
// timeouts, retransmits and duplicate requests, each against the fleet.
//
// A reliable connection on a lossless fabric almost never recovers: in a healthy fleet every
// counter grows by well under one event per second on every NIC. Each recovery is a
// go-back-N of a whole window, so what matters is both how far a NIC stands out and how often
// it recovers:
//   rdma-retransmits  a NIC recovers far above the fleet: packets are lost (no PFC, drops, a
//                     bad link) or reordered on its path; when every NIC of a host does, the
//                     host (its configuration) is named too, not one cable.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// One recovery counter surveyed over the fleet.
struct Counter {
  const char* words = "";  // "out-of-sequence packets"
  NicSurvey survey;
  double max_value = 0.0;
};

struct Survey {
  std::vector<Counter> counters;
  std::size_t with_data = 0;  // NICs with at least one recovery counter
  std::size_t total = 0;
};

// A NIC standing out on one counter or more: its strongest reading decides.
struct Flag {
  const model::Nic* nic = nullptr;
  const model::Host* host = nullptr;
  double strength = 0.0;
  double value = 0.0;
  double normal = 0.0;
  std::vector<std::string> parts;
  std::string unit;
};
// Keyed by the NIC's entity name: the fabric's order (hosts and their NICs sorted by name), so
// findings come out in the same order on every run.
using FlagsByNic = std::map<std::string, Flag>;

Counter survey_counter(const model::Fabric& fabric, const char* name, const char* words) {
  Counter counter;
  counter.words = words;
  const std::string metric_name = name;
  counter.survey = survey_nics(fabric, [&metric_name](const model::Nic& nic) {
    return read_counter(nic.samples, metric_name);
  });
  for (const auto& value : counter.survey.values) {
    counter.max_value = std::max(counter.max_value, value.reading.value);
  }
  return counter;
}

// Strength follows the deviation from the fleet and the magnitude: from about the costly
// rate a NIC's throughput drops visibly; a few per second is a weak sign.
double flag_strength(const Counter& counter, const NicValue& value, const Deviation& dev,
                     const Judgement& judgement) {
  return counter.survey.rate_mode
             ? dev.strength * saturating(value.reading.value, judgement.limit("costly_event_rate"))
             : dev.strength *
                   saturating(value.reading.value,
                              judgement.cumulative_floor(judgement.limit("min_event_rate")));
}

// Flags the NICs that stand out from the fleet on one counter.
void flag_counter(const Counter& counter, const Judgement& judgement, FlagsByNic& flags) {
  const NicSurvey& survey = counter.survey;
  const double min_rate = judgement.limit("min_event_rate");
  const OutlierRule rule =
      judgement.outlier_rule(survey.rate_mode ? min_rate : judgement.cumulative_floor(min_rate));
  for (const auto& value : survey.values) {
    const Deviation dev = assess_high(value.reading.value, survey.stats, rule);
    if (!dev.outlier) {
      continue;
    }
    Flag& flag = flags[value.nic->nic_entity()];
    flag.nic = value.nic;
    flag.host = value.host;
    flag.parts.push_back(fmt::format("{} {}{} (fleet median {}{})", human(value.reading.value),
                                     counter.words, per(survey), human(survey.stats.median),
                                     per(survey)));
    const double strength = flag_strength(counter, value, dev, judgement);
    if (strength > flag.strength) {
      flag.strength = strength;
      flag.value = value.reading.value;
      flag.normal = survey.stats.median;
      flag.unit = survey.rate_mode ? "events/s" : "events";
    }
  }
}

// Names the host too when every one of its NICs recovers (a single-NIC host cannot tell the
// host from its NIC).
void find_flags(const FlagsByNic& flags, Judgement& judgement) {
  std::map<const model::Host*, std::size_t> per_host;
  for (const auto& [entity, flag] : flags) {
    ++per_host[flag.host];
  }
  for (const auto& [entity, flag] : flags) {
    const model::Nic* nic = flag.nic;
    std::vector<std::string> entities = nic_entities(*nic);
    if (per_host[flag.host] == flag.host->nics.size() && flag.host->nics.size() > 1) {
      entities.push_back(flag.host->entity());
    }
    std::string text = fmt::format("{} shows ", nic_label(*nic));
    for (std::size_t i = 0; i < flag.parts.size(); ++i) {
      text += (i == 0 ? "" : ", ") + flag.parts[i];
    }
    judgement.find("rdma-retransmits", entities, flag.strength, text, flag.value, flag.normal,
                   flag.unit);
  }
}

std::string counter_line(const Counter& counter) {
  const NicSurvey& survey = counter.survey;
  return fmt::format("{}: {} NICs, median {}{}, max {}{}", counter.words, survey.values.size(),
                     human(survey.stats.median), per(survey), human(counter.max_value),
                     per(survey));
}

class RetransmitsProbe final : public FleetProbe<Survey> {
 public:
  RetransmitsProbe()
      : FleetProbe({.id = "retransmits",
                    .description = "RDMA retransmits, sequence errors and ACK timeouts per NIC",
                    .cost = CostClass::Passive,
                    .reads = {source::k_sysfs_hw_counters},
                    .findings = {"rdma-retransmits"},
                    .clearing = "retransmits-clear",
                    .thresholds = {"min_event_rate", "costly_event_rate", "clear_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const std::vector<std::pair<const char*, const char*>> metrics{
        {metric::k_out_of_sequence, "out-of-sequence packets"},
        {metric::k_seq_err_naks, "sequence-error NAKs"},
        {metric::k_ack_timeouts, "ACK timeouts"},
        {metric::k_retransmits, "retransmits"},
        {metric::k_duplicate_requests, "duplicate requests"}};
    Survey fleet;
    for (const auto& [name, words] : metrics) {
      Counter counter = survey_counter(judgement.fabric(), name, words);
      fleet.total = counter.survey.total;
      fleet.with_data = std::max(fleet.with_data, counter.survey.with_data);
      if (!counter.survey.values.empty()) {
        fleet.counters.push_back(std::move(counter));
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "sysfs hw_counters", fleet.with_data, fleet.total}};
  }

  // With nothing flagged, each counter's fleet figures are what was ruled out.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    FlagsByNic flags;
    for (const Counter& counter : fleet.counters) {
      flag_counter(counter, judgement, flags);
    }
    find_flags(flags, judgement);
    if (flags.empty()) {
      for (const Counter& counter : fleet.counters) {
        judgement.rule_out(counter_line(counter));
      }
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    std::string text = "no NIC retransmits above the fleet";
    for (const Counter& counter : fleet.counters) {
      text += "; " + counter_line(counter);
    }
    Clearance clear;
    clear.summary = text;
    clear.strength = judgement.limit("clear_strength");
    clear.ruled_out = false;  // judge listed each counter
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_retransmits_probe() {
  return std::make_unique<RetransmitsProbe>();
}

}  // namespace netdoctor::probes
