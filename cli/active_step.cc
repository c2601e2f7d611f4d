#include "cli/active_step.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "base/json_text.h"
#include "sweep/render.h"

namespace netdoctor::cli {

bool passive_settled(const engine::Diagnosis& diagnosis) {
  return diagnosis.verdict == engine::Verdict::RootCauseFound;
}

Result<ActiveStep> run_active_step(const std::vector<std::string>& hosts,
                                   const sweep::SweepOptions& options,
                                   const std::string& bundle_dir, CommandRunner& runner,
                                   Clock& clock, const sweep::ProgressSink& progress) {
  namespace fs = std::filesystem;
  ActiveStep step;
  step.report = sweep::run_sweep(hosts, options, runner, clock, progress);
  step.json = json_text(sweep::to_json(step.report), 2) + "\n";
  const fs::path folder = fs::path(bundle_dir) / "sweep";
  std::error_code error;
  fs::create_directories(folder, error);
  for (int n = 1; step.file.empty(); ++n) {
    const fs::path candidate = folder / fmt::format("active-{}.json", n);
    if (!fs::exists(candidate, error)) {
      step.file = candidate.string();
    }
  }
  std::ofstream file(step.file, std::ios::binary | std::ios::trunc);
  file << step.json;
  file.close();
  if (!file) {
    return make_error(ErrorCode::Io, "cannot write the active step's result", step.file);
  }
  return step;
}

}  // namespace netdoctor::cli
