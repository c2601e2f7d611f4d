// The verdict on a change, from what the evidence looked like before and after it.
#pragma once

#include <vector>

#include "store/change_repository.h"

namespace netdoctor::store {

struct VerdictInput {
  bool cause_before = true;  // the incident's top cause was found before the change
  bool cause_after = true;   // ... and is still found after it
  std::vector<Figure> figures;
  double threshold = 0.05;  // a relative move smaller than this is noise
};

// Improved when the cause is no longer found, or when some figure moved the right way by
// more than the threshold and none moved the wrong way; Regressed when a figure moved the
// wrong way by more than the threshold (or the cause appeared); otherwise NoEffect.
ChangeVerdict judge_change(const VerdictInput& input);

// The relative move of one figure towards better (+) or worse (-); nullopt when either side
// is missing or the before value is 0 and the after is too.
std::optional<double> relative_improvement(const Figure& figure);

}  // namespace netdoctor::store
