// The probe interface. A probe is one paragraph of an expert's runbook: it looks at one aspect
// of the fabric model (which was read through the capture source), compares each entity with
// the fleet and with physical limits, and reports findings. It never says "nothing wrong"
// when it could not see its data: it reports Skipped with the reason.
//
// What a probe is (its id, cost, the sources it reads, the signals it may report and the names
// of the thresholds it judges by) is declared once, in its ProbeSpec. The threshold values,
// what each signal means and which causes it weighs on live in the probe's knowledge-base entry
// (kb/probes/<id>.toml), which is validated against the spec on load.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/fabric.h"

namespace netdoctor::probes {

// Cheaper probes run first; Active ones send traffic and run only when passive evidence has
// not decided.
enum class CostClass { Passive = 0, Config = 1, Active = 2 };
const char* to_string(CostClass cost);
std::optional<CostClass> cost_class_named(std::string_view name);

// The kind of fabric a probe's mechanism exists on: PFC, ECN, DSCP, GIDs and SONiC switches are
// Ethernet's (RoCE); the subnet views and their counters are InfiniBand's. On a fabric without
// that kind of port the probe does not apply: it is not run, and its silence is not missing
// data (engine/verdict.h).
enum class FabricScope { Any, Ethernet, InfiniBand };
// Whether `fabric` has the ports `scope` needs; with a reason to show when it has not.
bool applies_to(FabricScope scope, const model::Fabric& fabric);
std::string not_applicable_reason(FabricScope scope);

struct ProbeSpec {
  std::string id;           // stable, kebab-case: "pfc-pause"
  std::string description;  // one line
  CostClass cost = CostClass::Passive;
  std::vector<std::string> reads;       // the model's source names (model/source_names.h)
  std::vector<std::string> findings;    // signal ids of what it can find wrong
  std::string clearing;                 // the signal that says it looked and found nothing
  std::vector<std::string> thresholds;  // names of its kb thresholds
  FabricScope fabric = FabricScope::Any;
  // Every signal id: the findings, then the clearing one.
  std::vector<std::string> signals() const;
};

// One observation about the fabric. `signal` is a stable id the knowledge base refers to
// (e.g. "pfc-pause-origin"); a signal that clears a cause (e.g. "mtu-consistent") is a finding
// too, so the engine can weigh evidence against a cause.
struct Finding {
  std::string signal;
  std::vector<std::string> entities;  // entity names, most specific first; empty = fabric-wide
  double strength = 1.0;              // 0..1: how clearly the observation holds
  std::string summary;                // one sentence with numbers and units
  // The deciding figure and the fleet's normal for comparison, when there is one.
  std::optional<double> value;
  std::optional<double> fleet_normal;
  std::string unit;
};

enum class ProbeStatus { Ran, Skipped, Failed };
const char* to_string(ProbeStatus status);

struct ProbeResult {
  std::string probe_id;
  ProbeStatus status = ProbeStatus::Ran;
  std::string reason;  // for Skipped and Failed; also partial-data notes
  std::vector<Finding> findings;
  std::vector<std::string> checked;  // what was examined and looked normal ("ruled out")
  double duration_ms = 0.0;
};

// A probe's thresholds by name, and every probe's by probe id; the ones all probes share
// (outlier rule, cumulative window) under k_fleet_thresholds.
using Thresholds = std::map<std::string, double, std::less<>>;
using ThresholdBook = std::map<std::string, Thresholds, std::less<>>;
inline constexpr const char* k_fleet_thresholds = "fleet";

struct ProbeOptions {
  int roce_priority = 3;       // the lossless priority RoCE rides
  bool allow_traffic = false;  // Active probes may send traffic (live only)
  // The kb's values with the site's overrides applied (engine::resolve_thresholds). A probe
  // asking for a threshold missing here fails rather than guessing.
  ThresholdBook thresholds;
};

struct ProbeContext {
  const model::Fabric& fabric;
  ProbeOptions options;
};

class Probe {
 public:
  virtual ~Probe() = default;
  virtual const ProbeSpec& spec() const = 0;
  virtual ProbeResult run(const ProbeContext& context) const = 0;

  const std::string& id() const { return spec().id; }
  const std::string& description() const { return spec().description; }
  CostClass cost() const { return spec().cost; }
  const std::vector<std::string>& reads() const { return spec().reads; }
  std::vector<std::string> signals() const { return spec().signals(); }
};

class ProbeRegistry {
 public:
  void add(std::unique_ptr<Probe> probe);
  const Probe* find(const std::string& id) const;
  std::vector<const Probe*> all() const;

 private:
  std::vector<std::unique_ptr<Probe>> m_probes;
};

// Lists every built-in probe in one visible place (probes/registry.cc).
void register_builtin_probes(ProbeRegistry& registry);

}  // namespace netdoctor::probes
