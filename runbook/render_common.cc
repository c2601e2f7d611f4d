#include <fmt/format.h>

#include "runbook/render.h"

namespace netdoctor::runbook {

std::string format_figure(std::optional<double> value, std::string_view unit) {
  if (!value) {
    return "-";
  }
  // Counts and rates read best whole ("71586 frames/s"); ratios and tiny rates keep 4 digits.
  const double magnitude = *value < 0.0 ? -*value : *value;
  std::string number = magnitude >= 1000.0 && magnitude < 1e12 ? fmt::format("{:.0f}", *value)
                                                               : fmt::format("{:.4g}", *value);
  return unit.empty() ? number : fmt::format("{} {}", number, unit);
}

std::string stop_rule_text(const kb::StopRule& stop) {
  return fmt::format(
      "a cause is settled once it scores {:g} or more and leads the next one by {:g}; from then "
      "on active tests are skipped, and cheap steps run only if they could still overturn it or "
      "show a second, independent cause",
      stop.min_score, stop.min_margin);
}

std::string fabric_note(std::string_view fabric) {
  if (fabric == "ib") {
    return " (InfiniBand)";
  }
  return fabric == "roce" ? " (RoCE)" : "";
}

}  // namespace netdoctor::runbook
