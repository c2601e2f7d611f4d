// What the kb needs to know about the probes to validate its data: the probe ids, their cost
// classes, their signal ids and the names of the thresholds they judge by. The kb must not link the
// probes library, so callers (engine, cli, tests) pass this plain description, built from the
// ProbeRegistry.
#pragma once

#include <string>
#include <vector>

namespace netdoctor::kb {

// A probe's cost class, cheapest first (the kb's view of probes::CostClass).
enum class ProbeCost { Passive, Config, Active };

struct ProbeInfo {
  std::string id;
  ProbeCost cost = ProbeCost::Passive;
  std::vector<std::string> signals;     // findings first, the clearing signal last
  std::vector<std::string> thresholds;  // names, each with its [[threshold]] in the entry
};

using KnownProbes = std::vector<ProbeInfo>;

const ProbeInfo* find_probe(const KnownProbes& probes, const std::string& id);
bool probe_has_signal(const ProbeInfo& probe, const std::string& signal);

}  // namespace netdoctor::kb
