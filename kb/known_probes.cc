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

}  // namespace netdoctor::kb
