// The verdict: root-cause-found when the leading cause is clearly supported; healthy when no
// cause has support and the probes that ran gave clearing signals with enough data seen;
// inconclusive otherwise (weak support, or too much data missing to call it healthy).
#pragma once

#include <cstddef>

#include "engine/diagnosis.h"

namespace netdoctor::engine {

inline constexpr double k_found_score = 2.5;   // e.g. a weight-5 signal at strength 0.5
inline constexpr double k_report_score = 1.0;  // below this a cause is noise, not reported

struct VerdictInputs {
  double top_score = 0.0;  // the leading reported cause's score, 0 when none
  bool any_reported = false;
  std::size_t probes_ran = 0;
  std::size_t probes_without_data = 0;  // skipped by the probe itself, or failed
  bool clearing_seen = false;           // at least one clearing finding
};

Verdict decide_verdict(const VerdictInputs& inputs);

}  // namespace netdoctor::engine
