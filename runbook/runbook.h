// A symptom's playbook as a manual runbook: the engine's plan (playbook steps in order, then
// the sanity sweep), each step with why it comes here, the commands to run by hand, how to
// read them, what each signal means for which cause (from the kb's weights), and where to go
// next. Built from the same data the engine runs, so the two cannot drift apart.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/result.h"
#include "engine/thresholds.h"
#include "kb/playbook.h"
#include "runbook/library.h"
#include "runbook/manual.h"

namespace netdoctor::runbook {

struct CauseWeight {
  std::string cause;
  double weight = 0.0;  // the kb's weight (for supports, before the symptom's prior)
  std::string note;
  bool settles = false;                    // at full strength it meets the stop rule on its own
  std::vector<std::size_t> challenged_by;  // later step numbers whose probes argue against it
};

struct SignalMeaning {
  std::string signal;
  std::string look_for;
  std::size_t shown_by = 0;  // index of the step's manual command that shows it
  std::vector<CauseWeight> supports;
  std::vector<CauseWeight> against;
  std::string next;  // where to go from here when this is what you see
};

struct RunbookStep {
  std::size_t number = 0;  // 1-based, the engine's plan order
  std::string probe;
  std::string cost;  // passive, config, active
  std::string why;
  bool from_playbook = true;  // false: the symptom-independent sanity sweep
  std::string description;
  ProbeManual manual;  // texts with {prio} and the thresholds filled in
  std::vector<SignalMeaning> signals;
};

struct Runbook {
  std::string symptom;
  std::string title;
  std::string source;
  std::vector<std::string> candidates;
  kb::StopRule stop;
  int roce_priority = 3;
  std::string fabric;  // "ib", "roce", or "" (either)
  std::vector<RunbookStep> steps;
};

// The runbook of `symptom` (a spec symptom or "auto"); error for an unknown symptom.
// Threshold placeholders in the manual texts show the kb's values with `site` applied.
// `fabric` ("ib" or "roce"; "" for either) keeps only the commands that fit that kind of
// fabric (for_fabric); an unknown kind is an error.
Result<Runbook> build_runbook(const Library& library, const std::string& symptom,
                              int roce_priority = 3, const engine::ThresholdSettings& site = {},
                              const std::string& fabric = {});

}  // namespace netdoctor::runbook
