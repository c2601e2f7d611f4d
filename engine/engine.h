// The engine: runs a symptom's playbook over a fabric, weighs the findings with the kb's
// explicit weights, localizes, ranks, and returns a Diagnosis.
#pragma once

#include <map>
#include <string>

#include "engine/diagnosis.h"
#include "model/fabric.h"
#include "probes/probe.h"

namespace netdoctor::kb {
class Catalog;
class PlaybookSet;
}  // namespace netdoctor::kb

namespace netdoctor::engine {

struct DiagnoseOptions {
  std::string symptom = "auto";
  // The probes' thresholds come from the kb with `threshold_settings` applied
  // (engine/thresholds.h), set by the pipeline; the rest is the caller's.
  probes::ProbeOptions probe_options;
  std::map<std::string, double, std::less<>> threshold_settings;  // setting key -> value
  bool explain = false;
};

Diagnosis diagnose(const model::Fabric& fabric, const kb::Catalog& catalog,
                   const kb::PlaybookSet& playbooks, const probes::ProbeRegistry& registry,
                   const DiagnoseOptions& options);

}  // namespace netdoctor::engine
