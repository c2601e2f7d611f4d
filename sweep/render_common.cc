#include "sweep/render.h"

namespace netdoctor::sweep {

ListedRuns listed_runs(const SweepReport& report) {
  ListedRuns listed;
  std::size_t ok_listed = 0;
  for (const auto& run : report.runs) {
    if (run.result == SweepRun::Result::Ok && ok_listed++ >= k_listed_ok_runs) {
      ++listed.ok_unlisted;
      continue;
    }
    listed.runs.push_back(&run);
  }
  return listed;
}

}  // namespace netdoctor::sweep
