// The planner: which probe to run next. A probe is worth what it can still change in the
// ranking (the weight its signals carry for causes not yet ruled out) per unit of cost, with
// the playbook's order as the expert's tie-breaker. Once one cause is conclusive (the
// playbook's stop rule), active probes are not run, and a cheap probe runs only if its
// signals could still overturn the leader or reveal a second, independent root cause.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/scoring.h"
#include "kb/playbook.h"
#include "probes/probe.h"

namespace netdoctor::engine {

struct PlannedProbe {
  const probes::Probe* probe = nullptr;
  std::string why;  // the playbook step's reason, or the sanity sweep's
  bool from_playbook = false;
  std::size_t position = 0;  // playbook order; sanity probes after the playbook's
  bool done = false;
};

struct SkipDecision {
  std::size_t index = 0;
  std::string reason;
};

struct NextStep {
  std::optional<std::size_t> run;   // index into the plan, nullopt when the plan is finished
  std::vector<SkipDecision> skips;  // probes decided "not needed" now
};

// The playbook's steps (registered probes only), then every other registered probe as the
// symptom-independent sanity sweep (cheapest first).
std::vector<PlannedProbe> make_plan(const kb::Playbook& playbook,
                                    const probes::ProbeRegistry& registry);

double cost_units(probes::CostClass cost);

// True when the leader's score and margin meet the stop rule.
bool conclusive(const std::vector<CauseScore>& scores, const kb::StopRule& stop);

NextStep choose_next(const std::vector<PlannedProbe>& plan, const std::vector<CauseScore>& scores,
                     const kb::StopRule& stop);

}  // namespace netdoctor::engine
