// What the kb needs to know about the probes to validate its data: the probe ids, their cost
// classes and their signal ids. The kb must not link the probes library, so callers (engine,
// cli, tests) pass this plain description, built from the ProbeRegistry.
#pragma once

#include <string>
#include <vector>

namespace netdoctor::kb {

struct ProbeInfo {
  std::string id;
  std::string cost;  // "passive", "config" or "active"
  std::vector<std::string> signals;
};

using KnownProbes = std::vector<ProbeInfo>;

const ProbeInfo* find_probe(const KnownProbes& probes, const std::string& id);
bool probe_has_signal(const ProbeInfo& probe, const std::string& signal);

// The root-cause ids of spec/diagnosis.md, in the spec's order.
const std::vector<std::string>& spec_cause_ids();
bool is_spec_cause(const std::string& id);

}  // namespace netdoctor::kb
