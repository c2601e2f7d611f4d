#include "probes/fleet_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace netdoctor::probes {

namespace {
// Scales MAD to the standard deviation of a normal distribution.
constexpr double k_mad_to_sigma = 1.4826;
}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) {
    return 0.0;
  }
  std::sort(values.begin(), values.end());
  std::size_t mid = values.size() / 2;
  if (values.size() % 2 == 1) {
    return values[mid];
  }
  return (values[mid - 1] + values[mid]) / 2.0;
}

FleetStats fleet_stats(std::vector<double> values) {
  FleetStats stats;
  stats.count = values.size();
  if (values.empty()) {
    return stats;
  }
  stats.median = median_of(values);
  for (double& value : values) {
    value = std::fabs(value - stats.median);
  }
  stats.mad = median_of(std::move(values));
  return stats;
}

double robust_z(double value, const FleetStats& stats, double scale_floor) {
  double scale = std::max(k_mad_to_sigma * stats.mad, scale_floor);
  if (scale <= 0.0) {
    return value > stats.median ? 1e9 : (value < stats.median ? -1e9 : 0.0);
  }
  return (value - stats.median) / scale;
}

double saturating(double x, double half_point) {
  if (x <= 0.0 || half_point <= 0.0) {
    return 0.0;
  }
  double r = x / half_point;
  return (r * r) / (r * r + 1.0);
}

Mode mode_of(const std::vector<std::string>& values) {
  std::map<std::string, std::size_t> counts;
  for (const auto& value : values) {
    ++counts[value];
  }
  Mode mode;
  for (const auto& [value, count] : counts) {
    if (count > mode.count) {
      mode.value = value;
      mode.count = count;
    }
  }
  return mode;
}

std::optional<int> int_mode_of(const std::vector<int>& values) {
  std::map<int, std::size_t> counts;
  for (int value : values) {
    ++counts[value];
  }
  std::optional<int> best;
  std::size_t best_count = 0;
  for (const auto& [value, count] : counts) {
    if (count > best_count) {
      best = value;
      best_count = count;
    }
  }
  return best;
}

std::optional<double> double_mode_of(const std::vector<double>& values) {
  std::map<double, std::size_t> counts;
  for (double value : values) {
    ++counts[value];
  }
  std::optional<double> best;
  std::size_t best_count = 0;
  for (const auto& [value, count] : counts) {
    if (count > best_count) {
      best = value;
      best_count = count;
    }
  }
  return best;
}

}  // namespace netdoctor::probes
