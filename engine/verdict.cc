#include "engine/verdict.h"

namespace netdoctor::engine {

Verdict decide_verdict(const VerdictInputs& inputs) {
  if (inputs.any_reported && inputs.top_score >= k_found_score) {
    return Verdict::RootCauseFound;
  }
  if (inputs.any_reported) {
    return Verdict::Inconclusive;
  }
  // "Nothing found" only counts when we looked: clearing signals seen, and most probes had
  // their data.
  const bool enough_data = inputs.probes_ran > 0 && inputs.probes_without_data <= inputs.probes_ran;
  if (inputs.clearing_seen && enough_data) {
    return Verdict::Healthy;
  }
  return Verdict::Inconclusive;
}

}  // namespace netdoctor::engine
