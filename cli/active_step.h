// The active step of a live diagnosis (`diagnose --hosts ... --active`): run only when the
// passive probes left the case unsettled; its sweep's JSON goes into the capture's sweep/
// folder, where the active-sweep probe weighs it like any other evidence on the next pass.
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/result.h"
#include "engine/diagnosis.h"
#include "sweep/sweep.h"

namespace netdoctor::cli {

// Settled: a root cause was found. Healthy and inconclusive verdicts leave the question of
// the slow job open, which is what active tests answer.
bool passive_settled(const engine::Diagnosis& diagnosis);

struct ActiveStep {
  sweep::SweepReport report;
  std::string json;  // as rendered, and as written
  std::string file;  // <bundle>/sweep/<name>.json
};

// Runs the sweep and writes its JSON to `bundle_dir`/sweep/active-<n>.json (the first name not
// taken, so an earlier sweep of the same capture is kept). Io when the file cannot be written;
// the sweep's report is then lost to the diagnosis, never its runs (the caller records them).
Result<ActiveStep> run_active_step(const std::vector<std::string>& hosts,
                                   const sweep::SweepOptions& options,
                                   const std::string& bundle_dir, CommandRunner& runner,
                                   Clock& clock, const sweep::ProgressSink& progress);

}  // namespace netdoctor::cli
