// What every probe needs besides the fleet statistics: reading a counter over the window
// (rate, or absolute value when only one sample exists), surveying one figure over every NIC,
// judging a deviation from the fleet, entity names, coverage notes and readable numbers.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/entity_names.h"
#include "model/fabric.h"
#include "model/source_names.h"
#include "probes/fleet_stats.h"
#include "probes/probe.h"

namespace netdoctor::probes {

// What a probe reads is named by the model's source names (ProbeSpec::reads).
namespace source = model::source;

// One counter over the window. With two or more samples `value` is per second; with a single
// sample it is the absolute (since-boot) value, which only supports cross-host comparison.
struct Reading {
  model::RateStatus status = model::RateStatus::Absent;
  double value = 0.0;
  double delta = 0.0;     // when is_rate()
  double window_s = 0.0;  // when is_rate()
  // Intervals left out of the rate because the counter went down in them (cleared inside the
  // capture: a driver reload, a manual clear); model::Rate::resets.
  std::size_t cleared = 0;
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
  std::vector<NicValue> values;      // only those in the chosen mode (all rates, or all absolute)
  bool rate_mode = false;            // true when at least one NIC had a rate over the window
  std::size_t total = 0;             // NICs in the fabric
  std::size_t with_data = 0;         // NICs where the figure was present in any mode
  std::vector<std::string> resets;   // NICs whose counter went down in the window: no rate
  std::vector<std::string> cleared;  // NICs with a rate whose counter was cleared inside it
  FleetStats stats;                  // over `values`
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
// Built by Judgement::outlier_rule from the fleet's thresholds (kb/probes/fleet.toml):
// `min_z` robust sigmas and `min_ratio` times the fleet's median, both at once.
struct OutlierRule {
  double min_z = 0.0;
  double min_ratio = 0.0;
  double scale_floor = 1.0;  // smallest spread that counts, in the metric's unit
  double abs_floor = 0.0;    // below this the value is noise whatever the fleet does
};
Deviation assess_high(double value, const FleetStats& stats, const OutlierRule& rule);

// Entity names.
std::string nic_label(const model::Nic& nic);  // "host/device" for summaries
std::vector<std::string> nic_entities(const model::Nic& nic, bool with_switch_port = true);
// Port and link names are the model's (model/entity_names.h): one place builds every entity name.
using model::link_entity;
using model::port_entity;
void append_unique(std::vector<std::string>& list, const std::string& item);

// The switch port the NIC is cabled to, if the model knows it.
const model::SwitchPort* cabled_port(const model::Fabric& fabric, const model::Nic& nic);
// The NIC on the far end of a switch port (host-facing ports), or nullptr.
const model::Nic* nic_behind(const model::Fabric& fabric, const model::Switch& sw,
                             const model::SwitchPort& port);
// nic_behind for many ports: the NICs indexed once by the switch port they name (scanning every
// NIC for each port is quadratic in a large fabric). `fabric` must outlive it.
class NicsBehindPorts {
 public:
  explicit NicsBehindPorts(const model::Fabric& fabric);
  const model::Nic* find(const model::Switch& sw, const model::SwitchPort& port) const;

 private:
  const model::Fabric& m_fabric;
  // (switch, port) -> the first NIC in fabric order that names it
  std::map<std::pair<std::string_view, std::string_view>, const model::Nic*> m_by_port;
};
bool is_switch_name(const model::Fabric& fabric, const std::string& name);
// The capture holds an InfiniBand subnet view with switches (fabric.ib): links a host-side
// probe cannot see.
bool has_ib_switches(const model::Fabric& fabric);

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

}  // namespace netdoctor::probes
