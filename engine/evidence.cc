#include "engine/evidence.h"

#include <algorithm>
#include <cmath>

namespace netdoctor::engine {

double clamp_strength(double strength) {
  if (!std::isfinite(strength)) {
    return 0.0;
  }
  return std::clamp(strength, 0.0, 1.0);
}

void EvidenceBook::add(const probes::ProbeResult& result) {
  for (const auto& finding : result.findings) {
    m_findings.push_back(ObservedFinding{result.probe_id, finding});
  }
}

std::vector<const ObservedFinding*> EvidenceBook::matching(const std::string& probe,
                                                           const std::string& signal) const {
  std::vector<const ObservedFinding*> out;
  for (const auto& observed : m_findings) {
    if (observed.probe == probe && observed.finding.signal == signal) {
      out.push_back(&observed);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const ObservedFinding* a, const ObservedFinding* b) {
    return clamp_strength(a->finding.strength) > clamp_strength(b->finding.strength);
  });
  return out;
}

double EvidenceBook::strongest(const std::string& probe, const std::string& signal) const {
  double best = 0.0;
  for (const auto& observed : m_findings) {
    if (observed.probe == probe && observed.finding.signal == signal) {
      best = std::max(best, clamp_strength(observed.finding.strength));
    }
  }
  return best;
}

}  // namespace netdoctor::engine
