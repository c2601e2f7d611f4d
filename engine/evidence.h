// The evidence book: every finding the probes reported, in run order, and the strongest
// finding per (probe, signal). A signal counts once per cause at its strongest, so a large
// fabric with many victims does not outvote one clear origin.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "probes/probe.h"

namespace netdoctor::engine {

struct ObservedFinding {
  std::string probe;
  probes::Finding finding;
};

class EvidenceBook {
 public:
  void add(const probes::ProbeResult& result);

  // Every finding of `probe` carrying `signal`, strongest first.
  std::vector<const ObservedFinding*> matching(const std::string& probe,
                                               const std::string& signal) const;
  // The strength of the strongest such finding, 0 when there is none.
  double strongest(const std::string& probe, const std::string& signal) const;

  const std::vector<ObservedFinding>& findings() const { return m_findings; }

 private:
  std::vector<ObservedFinding> m_findings;
};

// Strength clamped into 0..1 (a probe bug must not inflate a score).
double clamp_strength(double strength);

}  // namespace netdoctor::engine
