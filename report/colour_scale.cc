#include "report/colour_scale.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "probes/probe_support.h"

namespace netdoctor::report {
namespace {

int hex_digit(char c) {
  return c <= '9' ? c - '0' : c - 'a' + 10;
}
int channel(std::string_view colour, std::size_t at) {
  return hex_digit(colour[1 + at * 2]) * 16 + hex_digit(colour[2 + at * 2]);
}

}  // namespace

double scale_position(double value, const MapMetric& metric) {
  const double top = std::abs(metric.max.value_or(0.0));
  const double v = std::abs(value);
  if (top <= 0.0) {
    return 0.0;
  }
  const double t = metric.log_scale ? std::log10(1.0 + v) / std::log10(1.0 + top) : v / top;
  return std::clamp(t, 0.0, 1.0);
}

std::string colour_of(std::optional<double> value, const MapMetric& metric) {
  if (!value) {
    return std::string(k_no_data_colour);
  }
  const double scaled = scale_position(*value, metric) * (k_viridis.size() - 1);
  const auto low = static_cast<std::size_t>(std::floor(scaled));
  const std::size_t high = std::min(low + 1, k_viridis.size() - 1);
  const double f = scaled - static_cast<double>(low);
  std::string out = "#";
  for (std::size_t c = 0; c < 3; ++c) {
    const double mixed = channel(k_viridis[low], c) * (1.0 - f) + channel(k_viridis[high], c) * f;
    out += fmt::format("{:02x}", static_cast<int>(std::lround(mixed)));
  }
  return out;
}

std::string dom_figure(double value) {
  return std::abs(value) >= 100.0 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
}

std::string figure_text(double value) {
  return probes::human(value);
}

}  // namespace netdoctor::report
