#include "report/map_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string_view>

#include "report/colour_scale.h"
#include "report/html_text.h"

namespace netdoctor::report {
namespace {

constexpr int k_cell = 10;
constexpr int k_pitch = 12;
constexpr int k_pad = 6;
constexpr int k_title_h = 18;
constexpr int k_row_gap = 4;
constexpr int k_panel_gap = 10;
constexpr int k_max_width = 1180;
constexpr std::size_t k_cols = 16;       // NIC and port cells per row in a panel
constexpr std::size_t k_host_cols = 48;  // the hosts panel is one wide block
constexpr int k_min_panel_w = 132;
constexpr double k_char_w = 6.2;  // of the 11px title font, to cut long titles
constexpr int k_legend_h = 52;
constexpr int k_zoom_below = 620;  // px wide

std::size_t cols_for(const MapPanel& panel, std::size_t count) {
  const std::size_t limit = panel.role == "hosts" ? k_host_cols : k_cols;
  return std::max<std::size_t>(1, std::min(limit, count));
}

int rows_for(std::size_t count, std::size_t cols) {
  return count == 0 ? 0 : static_cast<int>((count + cols - 1) / cols);
}

struct Box {
  int w = 0;
  int h = 0;
};

Box measure(const MapPanel& panel) {
  const std::size_t port_cols = cols_for(panel, panel.ports.size());
  const std::size_t cell_cols = cols_for(panel, panel.cells.size());
  const int grid_w = static_cast<int>(std::max(panel.ports.empty() ? 0 : port_cols,
                                               panel.cells.empty() ? 0 : cell_cols)) *
                     k_pitch;
  int h = k_pad + k_title_h;
  h += rows_for(panel.ports.size(), port_cols) * k_pitch;
  if (!panel.ports.empty() && !panel.cells.empty()) {
    h += k_row_gap;
  }
  h += rows_for(panel.cells.size(), cell_cols) * k_pitch + k_pad;
  return {std::max(k_min_panel_w, grid_w + 2 * k_pad), h};
}

std::string cut(const std::string& title, int width) {
  const auto fits =
      static_cast<std::size_t>(std::max(4.0, (width - 2 * k_pad - k_pitch) / k_char_w));
  return title.size() <= fits ? title : title.substr(0, fits - 1) + "\u2026";
}

// What every cell of one drawing shares.
struct Pen {
  std::string& out;
  const FabricMap& map;
  bool standalone;  // a file of its own: geometry as attributes and a <title> per cell
};

void cell_rect(const Pen& pen, const MapCell& cell, int x, int y, bool first_in_panel) {
  const FabricMap& map = pen.map;
  std::string classes = fmt::format("cell {}", to_string(cell.kind));
  if (cell.culprit) {
    classes += " culprit";
  }
  if (cell.victim) {
    classes += " victim";
  }
  std::optional<double> value;
  if (map.selected < cell.values.size()) {
    value = cell.values[map.selected];
  }
  std::string values;
  for (std::size_t m = 0; m < cell.values.size(); ++m) {
    if (m > 0) {
      values += ',';
    }
    if (!cell.values[m]) {
      continue;
    }
    // "=": the fleet's normal, which most cells of a healthy fleet read (MTU 9000, speed 100 %).
    std::string figure = dom_figure(*cell.values[m]);
    const auto& normal = map.metrics[m].fleet_normal;
    values += normal && figure == dom_figure(*normal) ? "=" : figure;
  }
  const MapMetric* metric =
      map.selected < map.metrics.size() ? &map.metrics[map.selected] : nullptr;
  // Coloured from the figure the DOM carries, as the page's script recolours it.
  const std::optional<double> shown =
      value ? std::optional<double>(std::stod(dom_figure(*value))) : std::nullopt;
  const std::string colour = metric ? colour_of(shown, *metric) : std::string(k_no_data_colour);
  // Inline, the page's style gives every cell its size (13,000 cells of a large fabric).
  pen.out +=
      fmt::format(R"(<rect class="{}" x="{}" y="{}"{} fill="{}" data-entity="{}")", classes, x, y,
                  pen.standalone ? fmt::format(R"( width="{}" height="{}")", k_cell, k_cell) : "",
                  colour, html_escape(cell.entity));
  if (!cell.netdev.empty()) {
    pen.out += fmt::format(R"( data-netdev="{}")", html_escape(cell.netdev));
  }
  // One tab stop per panel (its first cell) and per culprit; the arrow keys move between cells
  // (the ARIA grid pattern): 13,000 tab stops would make the page unusable from a keyboard.
  pen.out += fmt::format(R"( data-value="{}" data-values="{}" data-detail="{}"{})",
                         value ? dom_figure(*value) : "", values, html_escape(cell.detail),
                         first_in_panel || cell.culprit ? R"( tabindex="0")" : "");
  if (pen.standalone) {
    pen.out += fmt::format(
        "><title>{}{}</title></rect>\n", html_escape(cell.entity),
        metric && value ? fmt::format(": {} {}", figure_text(*value), html_escape(metric->unit))
                        : std::string(metric ? ": no data" : ""));
  } else {
    pen.out += "/>\n";
  }
}

void grid(const Pen& pen, const std::vector<MapCell>& cells, std::size_t cols, int x0, int y0,
          bool first_is_stop) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const int x = x0 + static_cast<int>(i % cols) * k_pitch;
    const int y = y0 + static_cast<int>(i / cols) * k_pitch;
    cell_rect(pen, cells[i], x, y, first_is_stop && i == 0);
  }
}

// A panel drawn in its own coordinates, moved into place by its group's transform.
void panel_svg(const Pen& pen, const MapPanel& panel, int x, int y, Box box) {
  pen.out +=
      fmt::format(R"svg(<g class="panel {}" data-panel="{}" transform="translate({} {})">)svg",
                  html_escape(panel.role), html_escape(panel.title), x, y);
  pen.out += fmt::format(R"(<rect class="frame" width="{}" height="{}" rx="3"/>)", box.w, box.h);
  int title_x = k_pad;
  if (panel.head) {
    cell_rect(pen, *panel.head, k_pad, k_pad, true);
    title_x += k_pitch + 2;
  }
  pen.out += fmt::format(R"(<text class="title" x="{}" y="{}">{}</text>)", title_x, k_pad + 9,
                         html_escape(cut(panel.title, box.w)));
  pen.out += '\n';
  int cy = k_pad + k_title_h;
  if (!panel.ports.empty()) {
    const std::size_t cols = cols_for(panel, panel.ports.size());
    grid(pen, panel.ports, cols, k_pad, cy, !panel.head);
    cy += rows_for(panel.ports.size(), cols) * k_pitch + k_row_gap;
  }
  if (!panel.cells.empty()) {
    grid(pen, panel.cells, cols_for(panel, panel.cells.size()), k_pad, cy,
         !panel.head && panel.ports.empty());
  }
  pen.out += "</g>\n";
}

void legend_svg(std::string& out, const FabricMap& map, int y) {
  if (map.selected >= map.metrics.size()) {
    return;
  }
  const MapMetric& metric = map.metrics[map.selected];
  out += R"(<g class="legend"><defs><linearGradient id="scale">)";
  for (std::size_t i = 0; i < k_viridis.size(); ++i) {
    out += fmt::format(R"(<stop offset="{}%" stop-color="{}"/>)",
                       static_cast<int>(100.0 * static_cast<double>(i) /
                                        static_cast<double>(k_viridis.size() - 1)),
                       k_viridis[i]);
  }
  out += "</linearGradient></defs>";
  // The title line carries the fleet's normal, so the labels under the bar never collide.
  out += fmt::format(R"(<text x="0" y="{}">{} ({}{}){}</text>)", y + 12, html_escape(metric.label),
                     html_escape(metric.unit), metric.log_scale ? ", log scale" : "",
                     metric.fleet_normal
                         ? "; fleet normal " + figure_text(*metric.fleet_normal) + " (the tick)"
                         : std::string());
  out += fmt::format(R"svg(<rect x="0" y="{}" width="240" height="12" fill="url(#scale)"/>)svg",
                     y + 18);
  out +=
      fmt::format(R"(<text x="0" y="{}">0</text><text x="240" y="{}" text-anchor="end">{}</text>)",
                  y + 44, y + 44, metric.max ? figure_text(*metric.max) : "-");
  if (metric.fleet_normal) {
    const int nx = static_cast<int>(240 * scale_position(*metric.fleet_normal, metric));
    out += fmt::format(R"(<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#000"/>)", nx, nx, y + 16,
                       y + 32);
  }
  out += fmt::format(
      R"(<rect class="key culprit" x="270" y="{}" width="10" height="10" fill="#fff"/><text x="286" y="{}">culprit</text>)",
      y + 18, y + 27);
  out += fmt::format(
      R"(<rect class="key victim" x="350" y="{}" width="10" height="10" fill="#fff"/><text x="366" y="{}">victim</text>)",
      y + 18, y + 27);
  out += fmt::format(
      R"(<rect x="420" y="{}" width="10" height="10" fill="{}"/><text x="436" y="{}">no data</text></g>)",
      y + 18, k_no_data_colour, y + 27);
  out += '\n';
}

}  // namespace

std::string render_map_svg(const FabricMap& map, const SvgOptions& options) {
  // Flow the panels into rows; each role (spines, leaves, hosts) starts a row of its own.
  struct Placed {
    const MapPanel* panel;
    int x, y;
    Box box;
  };
  std::vector<Placed> placed;
  placed.reserve(map.panels.size());
  const int top = options.standalone ? k_legend_h + 8 : 0;
  int x = 0;
  int y = top;
  int row_h = 0;
  int width = 0;
  std::string_view role;
  for (const auto& panel : map.panels) {
    const Box box = measure(panel);
    const bool new_role = !placed.empty() && panel.role != role;
    if (x > 0 && (new_role || x + box.w > k_max_width)) {
      x = 0;
      y += row_h + k_panel_gap;
      row_h = 0;
    }
    placed.push_back({&panel, x, y, box});
    role = panel.role;
    x += box.w + k_panel_gap;
    width = std::max(width, x - k_panel_gap);
    row_h = std::max(row_h, box.h);
  }
  const int height = y + row_h + 2;
  width = std::max(width, 480);
  std::string out;
  out.reserve((map.nic_count + map.port_count) * 260 + 4096);
  if (options.standalone) {
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  }
  // A small fabric is drawn twice as large: its cells stay big enough to point at.
  const int zoom = width < k_zoom_below ? 2 : 1;
  out += fmt::format(
      R"(<svg id="fabric-map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-labelledby="map-title map-desc">)",
      width, height, width * zoom, height * zoom);
  out += fmt::format(R"(<title id="map-title">Fabric map of {}</title>)", html_escape(map.title));
  std::string desc = fmt::format("{} NICs and {} switch ports", map.nic_count, map.port_count);
  if (map.selected < map.metrics.size()) {
    desc += fmt::format(", coloured by {} ({})", map.metrics[map.selected].label,
                        map.metrics[map.selected].unit);
  }
  if (!map.culprits.empty()) {
    desc += "; culprit: " + map.culprits.front();
  }
  if (!map.victims.empty()) {
    desc += fmt::format("; {} victims marked", map.victims.size());
  }
  out += fmt::format(R"(<desc id="map-desc">{}</desc>)", html_escape(desc));
  out += '\n';
  if (options.standalone) {
    out +=
        "<style>text{font:11px sans-serif;fill:#222}.frame{fill:#fafafa;stroke:#bbb}"
        ".cell{stroke:#fff;stroke-width:.5}.culprit{stroke:#ff1f8e;stroke-width:3}"
        ".victim{stroke:#ff1f8e;stroke-width:1.5;stroke-dasharray:2 1.5}</style>\n";
    legend_svg(out, map, 0);
  }
  const Pen pen{out, map, options.standalone};
  for (const auto& p : placed) {
    panel_svg(pen, *p.panel, p.x, p.y, p.box);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netdoctor::report
