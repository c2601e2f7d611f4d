// retransmits: RDMA transport recovery counters per NIC (out-of-sequence packets, sequence
// error NAKs, ACK timeouts, retransmits, duplicate requests) against the fleet.
#include <fmt/format.h>

#include <map>

#include "probes/builtin.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// A reliable-connection transport on a lossless fabric recovers almost never: one recovery
// event per second, sustained over the window, is loss or reordering, not noise.
constexpr double k_min_event_rate = 1.0;
// One sample: at least a minute's worth of that rate in the cumulative count.
constexpr double k_min_event_count = k_min_event_rate * 60.0;
// Strength also follows magnitude: each recovery is a go-back-N of a whole window, and from
// about ten per second a NIC's throughput drops visibly; a few per second is a weak sign.
constexpr double k_costly_event_rate = 10.0;

struct Flag {
  const model::Nic* nic = nullptr;
  const model::Host* host = nullptr;
  double strength = 0.0;
  double value = 0.0;
  double normal = 0.0;
  std::vector<std::string> parts;
  std::string unit;
};

class RetransmitsProbe final : public BasicProbe {
 public:
  RetransmitsProbe()
      : BasicProbe("retransmits", "RDMA retransmits, sequence errors and ACK timeouts per NIC",
                   CostClass::Passive, {"sysfs hw_counters"},
                   {"rdma-retransmits", "retransmits-clear"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const std::vector<std::pair<const char*, const char*>> metrics{
        {metric::k_out_of_sequence, "out-of-sequence packets"},
        {metric::k_seq_err_naks, "sequence-error NAKs"},
        {metric::k_ack_timeouts, "ACK timeouts"},
        {metric::k_retransmits, "retransmits"},
        {metric::k_duplicate_requests, "duplicate requests"}};
    std::map<const model::Nic*, Flag> flags;
    std::size_t with_data = 0;
    std::size_t total = 0;
    std::vector<std::string> checked;
    for (const auto& [name, words] : metrics) {
      std::string metric_name = name;
      NicSurvey survey = survey_nics(context.fabric, [&](const model::Nic& nic) {
        return read_counter(nic.samples, metric_name);
      });
      total = survey.total;
      with_data = std::max(with_data, survey.with_data);
      if (survey.values.empty()) {
        continue;
      }
      OutlierRule rule;
      rule.abs_floor = survey.rate_mode ? k_min_event_rate : k_min_event_count;
      double max_value = 0.0;
      for (const auto& value : survey.values) {
        max_value = std::max(max_value, value.reading.value);
        Deviation dev = assess_high(value.reading.value, survey.stats, rule);
        if (!dev.outlier) {
          continue;
        }
        Flag& flag = flags[value.nic];
        flag.nic = value.nic;
        flag.host = value.host;
        flag.parts.push_back(fmt::format("{} {}{} (fleet median {}{})", human(value.reading.value),
                                         words, per(survey), human(survey.stats.median),
                                         per(survey)));
        double strength = survey.rate_mode
                              ? dev.strength * saturating(value.reading.value, k_costly_event_rate)
                              : dev.strength * saturating(value.reading.value, k_min_event_count);
        if (strength > flag.strength) {
          flag.strength = strength;
          flag.value = value.reading.value;
          flag.normal = survey.stats.median;
          flag.unit = survey.rate_mode ? "events/s" : "events";
        }
      }
      checked.push_back(fmt::format("{}: {} NICs, median {}{}, max {}{}", words,
                                    survey.values.size(), human(survey.stats.median), per(survey),
                                    human(max_value), per(survey)));
    }
    if (!apply_coverage(result, with_data, total, "NICs", "sysfs hw_counters")) {
      return;
    }
    // A host whose every NIC retransmits points at the host (its config), not one cable.
    std::map<const model::Host*, std::size_t> per_host;
    for (const auto& [nic, flag] : flags) {
      ++per_host[flag.host];
    }
    for (auto& [nic, flag] : flags) {
      std::vector<std::string> entities = nic_entities(*nic);
      if (per_host[flag.host] == flag.host->nics.size() && flag.host->nics.size() > 1) {
        entities.push_back(flag.host->entity());
      }
      std::string text = fmt::format("{} shows ", nic_label(*nic));
      for (std::size_t i = 0; i < flag.parts.size(); ++i) {
        text += (i == 0 ? "" : ", ") + flag.parts[i];
      }
      result.findings.push_back(make_finding("rdma-retransmits", entities, flag.strength, text,
                                             flag.value, flag.normal, flag.unit));
    }
    if (flags.empty()) {
      std::string text = "no NIC retransmits above the fleet";
      for (const auto& line : checked) {
        text += "; " + line;
      }
      result.checked = checked;
      result.findings.push_back(make_finding("retransmits-clear", {}, 0.8, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_retransmits_probe() {
  return std::make_unique<RetransmitsProbe>();
}

}  // namespace netdoctor::probes
