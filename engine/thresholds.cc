#include "engine/thresholds.h"

namespace netdoctor::engine {

probes::ThresholdBook resolve_thresholds(const kb::ProbeEntrySet& entries,
                                         const ThresholdSettings& site) {
  probes::ThresholdBook book;
  for (const kb::Threshold* threshold : entries.all_thresholds()) {
    const auto tuned = site.find(threshold->setting);
    book[threshold->probe][threshold->name] =
        tuned == site.end() ? threshold->value : tuned->second;
  }
  return book;
}

}  // namespace netdoctor::engine
