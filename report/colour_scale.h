// The map's colour scale: viridis (perceptually uniform, readable by colour-blind readers and in
// greyscale), from dark (low) to yellow (high). A log scale for counts and rates that spread
// over decades, linear for shares. report/html_report.cc's script repeats this arithmetic so
// the selector recolours the map exactly as the page was drawn.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "report/fabric_map.h"

namespace netdoctor::report {

inline constexpr std::array<std::string_view, 9> k_viridis = {"#440154", "#472d7b", "#3b528b",
                                                              "#2c728e", "#21918c", "#28ae80",
                                                              "#5ec962", "#addc30", "#fde725"};
inline constexpr std::string_view k_no_data_colour = "#d9d9d9";

// Position of `value` on the metric's scale, 0..1 (magnitudes: a negative clock offset is as far
// off as a positive one).
double scale_position(double value, const MapMetric& metric);
// The fill of a cell holding `value` (nullopt: the no-data grey).
std::string colour_of(std::optional<double> value, const MapMetric& metric);
// A figure as the DOM carries it (data-value, data-values, the metrics' fleet normal): whole
// numbers from 100 up, three significant digits below, which keeps a 4,096-NIC page small and is
// finer than any colour step. Cells are coloured from it, so the page's script (which reads it
// back) colours them alike.
std::string dom_figure(double value);
// A figure as the map shows it, as the evidence writes its numbers (probes::human): "22.8k",
// "0.31", "9000".
std::string figure_text(double value);

}  // namespace netdoctor::report
