// Comparing current perftest runs with their baselines: bandwidth lower or latency higher
// than the baseline by more than the threshold is a deviation to chase.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/baseline_repository.h"

namespace netdoctor::store {

struct BaselineComparison {
  PerfRun current;
  std::optional<PerfRun> baseline;  // empty: no baseline for this pair/device/test
  std::string metric;               // "bandwidth" or "latency"
  std::string unit;                 // "Gb/s" or "us"
  std::optional<double> current_value;
  std::optional<double> baseline_value;
  std::optional<double> change;  // relative, (current - baseline) / baseline
  bool deviates = false;         // worse than the baseline by more than the threshold
};

// Compares `current` with `baseline`. nullopt when they are not comparable: another pair,
// device, test or message size, or no figure in common.
std::optional<BaselineComparison> compare_with_baseline(const PerfRun& current,
                                                        const PerfRun& baseline, double threshold);

// Each current run against its key's latest baseline, in the order given.
Result<std::vector<BaselineComparison>> check_against_baselines(BaselineRepository& baselines,
                                                                const std::vector<PerfRun>& runs,
                                                                double threshold);

// "5%", "5", "0.05" -> 0.05. nullopt for anything else or outside (0, 1).
std::optional<double> parse_threshold(const std::string& text);

}  // namespace netdoctor::store
