// The map section of the HTML page: the metric selector, the legend (the fleet's normal marked),
// the SVG, the cell read-out for hover and keyboard focus, and the map as text.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "report/colour_scale.h"
#include "report/html_report.h"
#include "report/html_text.h"
#include "report/map_svg.h"

namespace netdoctor::report {
namespace {

constexpr std::size_t k_listed_top = 10;  // the text alternative's highest cells

std::string figure_or_dash(const std::optional<double>& value) {
  return value ? figure_text(*value) : "-";
}

std::string figures_row(const MapCell& cell, const char* role) {
  std::string out = fmt::format("<tr><td>{}</td><td><code>{}</code></td><td>{}</td>", role,
                                html_escape(cell.entity), html_escape(cell.detail));
  for (const auto& value : cell.values) {
    out += fmt::format("<td>{}</td>", figure_or_dash(value));
  }
  return out + "</tr>";
}

std::string text_alternative(const FabricMap& map) {
  std::string head = "<tr><th>role</th><th>entity</th><th>detail</th>";
  for (const auto& m : map.metrics) {
    head += fmt::format("<th>{} ({})</th>", html_escape(m.label), html_escape(m.unit));
  }
  head += "</tr>";
  std::string out =
      R"(<details id="map-text"><summary>The map as text: culprits, victims and the highest cells</summary>)";
  out += "<table><thead>" + head + "</thead><tbody>";
  const auto cells = all_cells(map);
  for (const MapCell* cell : cells) {
    if (cell->culprit) {
      out += figures_row(*cell, "culprit");
    }
  }
  std::size_t victims = 0;
  for (const MapCell* cell : cells) {
    if (cell->victim && victims++ < 4 * k_listed_top) {
      out += figures_row(*cell, "victim");
    }
  }
  if (map.selected < map.metrics.size()) {
    std::vector<const MapCell*> ranked;
    for (const MapCell* cell : cells) {
      if (cell->kind != CellKind::Switch && cell->values[map.selected]) {
        ranked.push_back(cell);
      }
    }
    const std::size_t n = std::min(k_listed_top, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end(),
                      [&](const MapCell* a, const MapCell* b) {
                        return std::abs(*a->values[map.selected]) >
                               std::abs(*b->values[map.selected]);
                      });
    for (std::size_t i = 0; i < n; ++i) {
      out += figures_row(*ranked[i], "highest");
    }
  }
  out += "</tbody></table>";
  if (victims > 4 * k_listed_top) {
    out += fmt::format("<p>{} more victims are marked on the map.</p>", victims - 4 * k_listed_top);
  }
  return out + "</details>";
}

}  // namespace

std::string render_map_section(const FabricMap& map) {
  std::string out =
      R"(<section id="map-section" aria-labelledby="map-heading"><h2 id="map-heading">Fabric map</h2>)";
  out +=
      fmt::format("<p class=\"meta\">{} NICs, {} switch ports ({}). Opens on: {}</p>",
                  map.nic_count, map.port_count, html_escape(map.fabric), html_escape(map.reason));
  out += R"(<div class="controls"><label for="metric">Colour by </label><select id="metric">)";
  for (std::size_t m = 0; m < map.metrics.size(); ++m) {
    out += fmt::format(R"(<option value="{}"{}>{} ({})</option>)", m,
                       m == map.selected ? " selected" : "", html_escape(map.metrics[m].label),
                       html_escape(map.metrics[m].unit));
  }
  out += "</select>";
  out +=
      R"(<div id="legend" aria-live="polite"><span id="legend-label"></span><span class="bar"></span>)"
      R"(<span id="legend-min">0</span><span id="legend-normal"></span><span id="legend-max"></span></div>)";
  out +=
      R"(<span class="key"><svg width="12" height="12" aria-hidden="true"><rect class="culprit" x="2" y="2" width="8" height="8" fill="#fff"/></svg> culprit )"
      R"(<svg width="12" height="12" aria-hidden="true"><rect class="victim" x="2" y="2" width="8" height="8" fill="#fff"/></svg> victim )"
      R"(<svg width="12" height="12" aria-hidden="true"><rect x="1" y="1" width="10" height="10" fill="#d9d9d9"/></svg> no data</span></div>)";
  out +=
      R"(<p id="cell-info" aria-live="polite">Hover over or focus a cell (Tab) to read its figures.</p>)";
  out += R"(<div class="map-scroll">)";
  out += render_map_svg(map);
  out += "</div>";
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : map.metrics) {
    metrics.push_back(
        {{"id", m.id},
         {"label", m.label},
         {"unit", m.unit},
         {"log_scale", m.log_scale},
         // As the cells carry it: "=" in data-values stands for exactly this figure.
         {"fleet_normal", m.fleet_normal ? nlohmann::json(std::stod(dom_figure(*m.fleet_normal)))
                                         : nlohmann::json()},
         {"max", m.max ? nlohmann::json(*m.max) : nlohmann::json()}});
  }
  nlohmann::json palette = nlohmann::json::array();
  for (auto stop : k_viridis) {
    palette.push_back(std::string(stop));
  }
  const nlohmann::json scale = {{"metrics", metrics},
                                {"palette", palette},
                                {"no_data", std::string(k_no_data_colour)},
                                {"selected", map.selected}};
  out += fmt::format(R"(<script type="application/json" id="map-metrics">{}</script>)",
                     script_json(json_text(scale)));
  out += text_alternative(map);
  return out + "</section>\n";
}

}  // namespace netdoctor::report
