#include "model/ib_rates.h"

#include <array>
#include <cmath>

#include "base/strings.h"

namespace netdoctor::model {
namespace {

// IBTA Architecture Specification Vol. 2 (physical layer): SDR/DDR/QDR use 8b/10b, FDR10/FDR/EDR
// 64b/66b, HDR/NDR/XDR PAM4 with RS-FEC; the data rates are the marketed per-lane rates after
// encoding (4x HDR = 200 Gb/s). Physics, not judgement: the same for every fabric.
constexpr std::array<IbSpeed, 9> k_speeds = {{
    {"SDR", 2.5, 2.0},
    {"DDR", 5.0, 4.0},
    {"QDR", 10.0, 8.0},
    {"FDR10", 10.3125, 10.0},
    {"FDR", 14.0625, 13.64},
    {"EDR", 25.78125, 25.0},
    {"HDR", 53.125, 50.0},
    {"NDR", 106.25, 100.0},
    {"XDR", 212.5, 200.0},
}};

// Printed rates carry at most a few decimals: two rates closer than this are the same.
constexpr double k_rate_tolerance = 0.01;

}  // namespace

std::optional<IbSpeed> ib_speed_named(std::string_view name) {
  const std::string lower = to_lower(trim(name));
  for (const auto& speed : k_speeds) {
    if (lower == to_lower(speed.name)) {
      return speed;
    }
  }
  return std::nullopt;
}

std::optional<IbSpeed> ib_speed_of_lane_rate(double lane_gbps) {
  for (const auto& speed : k_speeds) {
    if (std::fabs(speed.lane_gbps - lane_gbps) < k_rate_tolerance) {
      return speed;
    }
  }
  return std::nullopt;
}

std::optional<int> ib_width_lanes(std::string_view width) {
  auto text = trim(width);
  if (text.empty() || (text.back() != 'x' && text.back() != 'X')) {
    return std::nullopt;
  }
  text.remove_suffix(1);
  auto lanes = parse_u64(text);
  if (!lanes || *lanes == 0 || *lanes > 32) {
    return std::nullopt;
  }
  return static_cast<int>(*lanes);
}

}  // namespace netdoctor::model
