// What every probe needs besides the fleet statistics: reading a counter over the window
// (rate, or absolute value when only one sample exists), surveying one figure over every NIC,
// judging a deviation from the fleet, entity names, coverage notes and readable numbers.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "probes/fleet_stats.h"
#include "probes/probe.h"

namespace netdoctor::probes {

// One counter over the window. With two or more samples `value` is per second; with a single
// sample it is the absolute (since-boot) value, which only supports cross-host comparison.
struct Reading {
  model::RateStatus status = model::RateStatus::Absent;
  double value = 0.0;
  double delta = 0.0;     // when is_rate()
  double window_s = 0.0;  // when is_rate()
  bool present() const {
    return status == model::RateStatus::Ok || status == model::RateStatus::SingleSample;
  }
  bool is_rate() const { return status == model::RateStatus::Ok; }
};

Reading read_counter(const std::vector<model::CounterSample>& samples, const std::string& name,
                     int index = -1);
// The sum of several counters (e.g. every priority); present only if at least one is, and
// a rate only if every present one is a rate.
Reading read_sum(const std::vector<model::CounterSample>& samples, const std::string& name,
                 const std::vector<int>& indexes);
// A gauge shown per sample (switch RX_BPS, utilisation): mean over the samples holding it.
std::optional<double> read_gauge(const std::vector<model::CounterSample>& samples,
                                 const std::string& name, int index = -1);

// One figure surveyed over every NIC of the fabric.
struct NicValue {
  const model::Host* host = nullptr;
  const model::Nic* nic = nullptr;
  Reading reading;
};
struct NicSurvey {
  std::vector<NicValue> values;     // only those in the chosen mode (all rates, or all absolute)
  bool rate_mode = false;           // true when at least one NIC had a rate over the window
  std::size_t total = 0;            // NICs in the fabric
  std::size_t with_data = 0;        // NICs where the figure was present in any mode
  std::vector<std::string> resets;  // NICs whose counter went down in the window
  FleetStats stats;                 // over `values`
};
NicSurvey survey_nics(const model::Fabric& fabric,
                      const std::function<Reading(const model::Nic&)>& read);

// How far above its fleet a value sits.
struct Deviation {
  double z = 0.0;
  double ratio = 0.0;  // value / fleet median (value / floor when the median is ~0)
  bool outlier = false;
  double strength = 0.0;
};
struct OutlierRule {
  // 5 robust sigmas: for noise that is roughly normal, fewer than 1 in a million peers
  // exceed it, so a fleet of thousands of NICs still raises no false alarm.
  double min_z = 5.0;
  // The deviation must also be large in proportion (3x the fleet's median), so a fleet with a
  // tiny spread does not flag a 10 % wiggle.
  double min_ratio = 3.0;
  double scale_floor = 1.0;  // smallest spread that counts, in the metric's unit
  double abs_floor = 0.0;    // below this the value is noise whatever the fleet does
};
Deviation assess_high(double value, const FleetStats& stats, const OutlierRule& rule);

// Entity names.
std::string nic_label(const model::Nic& nic);  // "host/device" for summaries
std::vector<std::string> nic_entities(const model::Nic& nic, bool with_switch_port = true);
std::string port_entity(const std::string& switch_name, const std::string& port);
// "link:<a>~<b>" with the two ends (without their kind prefix) sorted.
std::string link_entity(const std::string& end_a, const std::string& end_b);
void append_unique(std::vector<std::string>& list, const std::string& item);

// The switch port the NIC is cabled to, if the model knows it.
const model::SwitchPort* cabled_port(const model::Fabric& fabric, const model::Nic& nic);
// The NIC on the far end of a switch port (host-facing ports), or nullptr.
const model::Nic* nic_behind(const model::Fabric& fabric, const model::Switch& sw,
                             const model::SwitchPort& port);
bool is_switch_name(const model::Fabric& fabric, const std::string& name);

// Readable numbers: 41234 -> "41.2k", 6400 -> "6400", 0.00123 -> "0.00123", 2e9 -> "2G".
std::string human(double value);
std::string percent(double fraction);  // 0.234 -> "23.4 %"
// "/s" or "" (cumulative) and the matching words for summaries.
std::string per(const NicSurvey& survey);

// Sets Skipped when nothing had data, or a partial-coverage note when some lacked it.
// Returns false when the probe should stop (Skipped).
bool apply_coverage(ProbeResult& result, std::size_t with_data, std::size_t total,
                    const std::string& noun, const std::string& source);
void add_note(ProbeResult& result, const std::string& note);

Finding make_finding(std::string signal, std::vector<std::string> entities, double strength,
                     std::string summary, std::optional<double> value = std::nullopt,
                     std::optional<double> fleet_normal = std::nullopt, std::string unit = {});

// A probe not yet in the FleetProbe shape: its identity is data, examine() does the rest.
class BasicProbe : public Probe {
 public:
  BasicProbe(std::string id, std::string description, CostClass cost,
             std::vector<std::string> reads, std::vector<std::string> signals,
             std::vector<std::string> thresholds = {});
  const ProbeSpec& spec() const override { return m_spec; }
  // The value of one of its declared thresholds (see Judgement::limit).
  double limit(const ProbeContext& context, std::string_view name) const;
  ProbeResult run(const ProbeContext& context) const override;

 protected:
  virtual void examine(const ProbeContext& context, ProbeResult& result) const = 0;

 private:
  ProbeSpec m_spec;
};

}  // namespace netdoctor::probes
