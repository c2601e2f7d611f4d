#include "store/baseline_check.h"

#include "base/strings.h"

namespace netdoctor::store {

std::optional<BaselineComparison> compare_with_baseline(const PerfRun& current,
                                                        const PerfRun& baseline, double threshold) {
  if (current.client != baseline.client || current.server != baseline.server ||
      current.device != baseline.device || current.test != baseline.test ||
      current.msg_bytes != baseline.msg_bytes) {
    return std::nullopt;
  }
  BaselineComparison comparison;
  comparison.current = current;
  comparison.baseline = baseline;
  bool higher_is_better = true;
  if (current.bw_gbps && baseline.bw_gbps) {
    comparison.metric = "bandwidth";
    comparison.unit = "Gb/s";
    comparison.current_value = current.bw_gbps;
    comparison.baseline_value = baseline.bw_gbps;
  } else if (current.lat_us && baseline.lat_us) {
    comparison.metric = "latency";
    comparison.unit = "us";
    comparison.current_value = current.lat_us;
    comparison.baseline_value = baseline.lat_us;
    higher_is_better = false;
  } else {
    return std::nullopt;
  }
  if (*comparison.baseline_value <= 0.0) {
    return comparison;  // a zero baseline measures nothing; report, never flag
  }
  double change =
      (*comparison.current_value - *comparison.baseline_value) / *comparison.baseline_value;
  comparison.change = change;
  comparison.deviates = higher_is_better ? change < -threshold : change > threshold;
  return comparison;
}

Result<std::vector<BaselineComparison>> check_against_baselines(BaselineRepository& baselines,
                                                                const std::vector<PerfRun>& runs,
                                                                double threshold) {
  std::vector<BaselineComparison> comparisons;
  for (const PerfRun& run : runs) {
    ND_TRY_ASSIGN(std::optional<PerfRun> baseline, baselines.latest_for(run));
    std::optional<BaselineComparison> comparison;
    if (baseline) {
      comparison = compare_with_baseline(run, *baseline, threshold);
    }
    if (!comparison) {
      comparison = BaselineComparison{};
      comparison->current = run;
      comparison->metric = run.bw_gbps ? "bandwidth" : "latency";
      comparison->unit = run.bw_gbps ? "Gb/s" : "us";
      comparison->current_value = run.bw_gbps ? run.bw_gbps : run.lat_us;
    }
    comparisons.push_back(std::move(*comparison));
  }
  return comparisons;
}

std::optional<double> parse_threshold(const std::string& text) {
  std::string_view body = trim(text);
  bool percent = ends_with(body, "%");
  if (percent) {
    body.remove_suffix(1);
  }
  auto number = parse_double(trim(body));
  if (!number) {
    return std::nullopt;
  }
  // "5" means 5 %, as people write it; "0.05" is already a fraction.
  double fraction = (percent || *number >= 1.0) ? *number / 100.0 : *number;
  if (fraction <= 0.0 || fraction >= 1.0) {
    return std::nullopt;
  }
  return fraction;
}

}  // namespace netdoctor::store
