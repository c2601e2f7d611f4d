// Robust statistics for comparing one entity with its peers: median and MAD resist the very
// outliers we look for, where mean and standard deviation would be dragged by them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace netdoctor::probes {

struct FleetStats {
  double median = 0.0;
  double mad = 0.0;  // median absolute deviation (raw, not scaled)
  std::size_t count = 0;
};

FleetStats fleet_stats(std::vector<double> values);
double median_of(std::vector<double> values);  // 0 for an empty set

// (value - median) / scale, where scale is 1.4826 * MAD (the standard deviation of a normal
// distribution) but never below `scale_floor`: a fleet that reads all zeros has MAD 0 and
// every positive value would otherwise be infinitely deviant.
double robust_z(double value, const FleetStats& stats, double scale_floor);

// Saturating strength in 0..1: 0.5 when x equals half_point, ~0.8 at twice it, ~0.96 at five
// times; 0 for x <= 0. Used for "how clear" a deviation is (z-scores, ratios).
double saturating(double x, double half_point);

// The most common string (ties: the lexicographically smallest), and its count.
struct Mode {
  std::string value;
  std::size_t count = 0;
};
Mode mode_of(const std::vector<std::string>& values);
std::optional<int> int_mode_of(const std::vector<int>& values);
std::optional<double> double_mode_of(const std::vector<double>& values);

}  // namespace netdoctor::probes
