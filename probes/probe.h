// The probe interface. A probe is one paragraph of an expert's runbook: it looks at one aspect
// of the fabric model (which was read through the capture source), compares each entity with
// the fleet and with physical limits, and reports findings. It never says "nothing wrong"
// when it could not see its data: it reports Skipped with the reason.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/fabric.h"

namespace netdoctor::probes {

// Cheaper probes run first; Active ones send traffic and run only when passive evidence has
// not decided.
enum class CostClass { Passive = 0, Config = 1, Active = 2 };
const char* to_string(CostClass cost);

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

// Tunables a probe may read; every default is explained where it is used.
struct ProbeOptions {
  int roce_priority = 3;             // the lossless priority RoCE rides
  double baseline_threshold = 0.05;  // perftest deviation that counts (article: 5 %)
  bool allow_traffic = false;        // Active probes may send traffic (live only)
};

struct ProbeContext {
  const model::Fabric& fabric;
  ProbeOptions options;
};

class Probe {
 public:
  virtual ~Probe() = default;
  virtual std::string id() const = 0;           // stable: "pfc-pause"
  virtual std::string description() const = 0;  // one line
  virtual CostClass cost() const = 0;
  // The data sources it reads (SourceMap names, e.g. "ethtool -S", "show pfc counters").
  virtual std::vector<std::string> reads() const = 0;
  // Every signal id its findings may carry (docs/signals.md); the kb is validated against it.
  virtual std::vector<std::string> signals() const = 0;
  virtual ProbeResult run(const ProbeContext& context) const = 0;
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
