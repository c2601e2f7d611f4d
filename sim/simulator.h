// The simulator's front door: build a fabric with injected faults from a SimConfig, write it as
// a capture bundle (spec/bundle.md) through a TreeWriter, and describe the answer a correct
// diagnosis must give (an entry shaped like shared/scenarios/expected.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/tree_writer.h"
#include "sim/sim_config.h"
#include "sim/topology.h"

namespace netdoctor::sim {

struct InjectedFault {
  std::string id;
  std::vector<std::string> culprits;
  std::string variant;  // the way a fault with several took ("" when it has one)
};

struct Simulation {
  Fabric fabric;
  std::vector<InjectedFault> faults;  // empty for a healthy fabric
  std::string name;
  std::string symptom;
};

// InvalidArgument for an impossible request (validate_config, a fault that cannot go where it
// was asked), NotFound for a fault at an entity the fabric does not have.
Result<Simulation> simulate(const SimConfig& config);

// Writes every file of the bundle under `prefix` ("" or "name/") and returns how many.
Result<std::size_t> write_bundle(const Simulation& simulation, TreeWriter& writer,
                                 const std::string& prefix = "");

// {"scenario", "fault", "symptom", "cause", "verdict", "culprits_any", "hosts",
//  "nics_per_host", "bundle"} plus "causes" and "faults" (per-fault culprits, and "variant" where
//  the fault has several ways) and "seed"; InfiniBand adds "fabric": "ib" and "ib_speed".
nlohmann::ordered_json expected_entry(const Simulation& simulation, const SimConfig& config,
                                      const std::string& bundle_name);

}  // namespace netdoctor::sim
