#include "store/change_verdict.h"

#include <cmath>

namespace netdoctor::store {

std::optional<double> relative_improvement(const Figure& figure) {
  if (!figure.before || !figure.after) {
    return std::nullopt;
  }
  double before = *figure.before;
  double after = *figure.after;
  double scale = std::fabs(before);
  if (scale == 0.0) {
    if (after == 0.0) {
      return 0.0;
    }
    scale = std::fabs(after);  // from nothing to something: a full move
  }
  double moved = (after - before) / scale;
  return figure.lower_is_better ? -moved : moved;
}

ChangeVerdict judge_change(const VerdictInput& input) {
  if (input.cause_before && !input.cause_after) {
    return ChangeVerdict::Improved;
  }
  if (!input.cause_before && input.cause_after) {
    return ChangeVerdict::Regressed;
  }
  bool better = false;
  bool worse = false;
  for (const Figure& figure : input.figures) {
    auto move = relative_improvement(figure);
    if (!move) {
      continue;
    }
    if (*move > input.threshold) {
      better = true;
    } else if (*move < -input.threshold) {
      worse = true;
    }
  }
  if (worse) {
    return ChangeVerdict::Regressed;
  }
  return better ? ChangeVerdict::Improved : ChangeVerdict::NoEffect;
}

}  // namespace netdoctor::store
