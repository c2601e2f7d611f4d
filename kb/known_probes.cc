#include "kb/known_probes.h"

#include <algorithm>

namespace netdoctor::kb {

const ProbeInfo* find_probe(const KnownProbes& probes, const std::string& id) {
  for (const auto& probe : probes) {
    if (probe.id == id) {
      return &probe;
    }
  }
  return nullptr;
}

bool probe_has_signal(const ProbeInfo& probe, const std::string& signal) {
  return std::find(probe.signals.begin(), probe.signals.end(), signal) != probe.signals.end();
}

const std::vector<std::string>& spec_cause_ids() {
  static const std::vector<std::string> k_ids = {
      "pfc-storm",           "ecmp-imbalance", "oversubscription",   "mtu-mismatch",
      "firmware-mismatch",   "link-errors",    "link-degraded",      "buffer-exhaustion",
      "ecn-misconfig",       "lossy-roce",     "traffic-isolation",  "clock-skew",
      "addressing-conflict", "small-messages", "baseline-regression"};
  return k_ids;
}

bool is_spec_cause(const std::string& id) {
  const auto& ids = spec_cause_ids();
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace netdoctor::kb
