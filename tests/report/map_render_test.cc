// The SVG and the HTML page with hostile names from a bundle (markup, quotes, a script end, a
// terminal escape): only escaped forms reach the output, every attribute stays whole, the
// metrics' JSON cannot end its script element; each cell's data-value is its selected figure;
// the colour scale: grey for no data, monotone, log or linear, clamped.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>

#include "report/colour_scale.h"
#include "report/html_report.h"
#include "report/html_text.h"
#include "report/map_svg.h"
#include "tests/report/report_test_util.h"

namespace netdoctor::testing {
namespace {

using report::FabricMap;

const std::string k_img = "<img src=x onerror=alert(1)>";
const std::string k_quotes = "\"'&";
const std::string k_script_end = "</script>";
const std::string k_esc = "\x1b[31m";

// A fleet whose names came from a hostile bundle; the pfc storm blames the hostile host's NIC.
struct Hostile {
  model::Fabric fabric;
  FabricMap map;
  std::string host;
};

Hostile hostile_map() {
  Hostile out;
  out.fabric = healthy_fleet();
  inject_pfc_storm(out.fabric);
  out.fabric.name = k_script_end + k_img;
  out.host = "node" + k_quotes + k_img;
  auto& host = out.fabric.hosts[0];
  for (auto& nic : host.nics) {
    nic.host = out.host;
    nic.netdev = nic.netdev + k_esc;
  }
  for (auto& port : out.fabric.switches[0].ports) {
    if (port.peer_device == host.name) {
      port.peer_device = out.host;
    }
  }
  host.name = out.host;
  out.fabric.switches[0].ports[1].name = "Eth" + k_quotes + k_script_end;
  out.fabric.switches.back().name = "spine" + k_esc + k_img;
  out.map = map_of(out.fabric, diagnosis_of({{"pfc-storm",
                                              {"nic:" + out.host + "/mlx5_0",
                                               "netdev:" + out.host + "/ens1f0np0" + k_esc}}}));
  // A label such as a future metric might carry: the metrics' JSON must keep it inside.
  out.map.metrics[0].label = k_script_end + "<!--" + k_quotes;
  return out;
}

// Every start tag of `name` in `text`, from '<' to its '>'.
std::vector<std::string> tags(const std::string& text, const std::string& name) {
  std::vector<std::string> out;
  const std::string open = "<" + name + " ";
  for (auto at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
    out.push_back(text.substr(at, text.find('>', at) - at + 1));
  }
  return out;
}

// The attributes of a start tag, in order; empty when the tag is not well formed (a quote or
// angle bracket where an attribute value should have ended).
std::map<std::string, std::string> attributes(const std::string& tag) {
  static const std::regex k_tag(R"(^<[a-z]+((\s+[a-z-]+(="[^"<>]*")?)*)\s*/?>$)");
  static const std::regex k_attr(R"re(\s+([a-z-]+)="([^"<>]*)")re");
  std::map<std::string, std::string> out;
  std::smatch whole;
  if (!std::regex_match(tag, whole, k_tag)) {
    return out;
  }
  const std::string list = whole[1].str();
  for (std::sregex_iterator it(list.begin(), list.end(), k_attr), end; it != end; ++it) {
    out[(*it)[1].str()] = (*it)[2].str();
  }
  return out;
}

void expect_nothing_raw(const std::string& out) {
  EXPECT_FALSE(has(out, "<img")) << "raw <img";
  EXPECT_FALSE(has(out, "\x1b")) << "raw ESC byte";
  EXPECT_FALSE(has(out, "\"'&\"")) << "raw quotes";
  EXPECT_TRUE(has(out, "&lt;img src=x onerror=alert(1)&gt;"));
  EXPECT_TRUE(has(out, "&quot;&#39;&amp;"));
  EXPECT_TRUE(has(out, "\\x1b[31m"));
}

void expect_cells_intact(const std::string& svg, const FabricMap& map) {
  std::map<std::string, const report::MapCell*> by_escaped;
  for (const report::MapCell* cell : report::all_cells(map)) {
    by_escaped[report::html_escape(cell->entity)] = cell;
  }
  const auto rects = tags(svg, "rect");
  std::size_t cells = 0;
  std::size_t nics = 0;
  for (const auto& rect : rects) {
    const auto attrs = attributes(rect);
    ASSERT_FALSE(attrs.empty()) << "broken tag: " << rect;
    auto entity = attrs.find("data-entity");
    if (entity == attrs.end()) {
      continue;  // a frame or a legend key
    }
    ++cells;
    auto cell = by_escaped.find(entity->second);
    ASSERT_NE(cell, by_escaped.end()) << rect;
    const report::MapCell& c = *cell->second;
    EXPECT_EQ(attrs.at("class").find("cell " + std::string(report::to_string(c.kind))), 0u);
    EXPECT_EQ(has(attrs.at("class"), "culprit"), c.culprit) << rect;
    EXPECT_EQ(has(attrs.at("class"), "victim"), c.victim) << rect;
    nics += c.kind == report::CellKind::Nic ? 1 : 0;
    const std::string& value = attrs.at("data-value");
    const auto& figure = c.values[map.selected];
    if (!figure) {
      EXPECT_EQ(value, "") << rect;
      EXPECT_EQ(attrs.at("fill"), report::k_no_data_colour) << rect;
    } else {
      ASSERT_FALSE(value.empty()) << rect;
      // The DOM carries whole numbers from 100 up and three significant digits below, and the
      // cell is coloured from that figure (the one the page's script reads back).
      const double tolerance = std::abs(*figure) >= 100.0 ? 0.5 : 5e-3 * std::abs(*figure) + 1e-12;
      EXPECT_NEAR(std::stod(value), *figure, tolerance) << rect;
      EXPECT_EQ(attrs.at("fill"), report::colour_of(std::stod(report::dom_figure(*figure)),
                                                    map.metrics[map.selected]))
          << rect;
    }
  }
  EXPECT_EQ(cells, report::all_cells(map).size());
  EXPECT_EQ(nics, map.nic_count);
  EXPECT_EQ(count_of(svg, "class=\"cell nic"), map.nic_count);
}

TEST(MapSvg, HostileNamesReachTheSvgOnlyEscapedAndEveryCellIsWhole) {
  const Hostile h = hostile_map();
  ASSERT_EQ(h.map.metrics[h.map.selected].id, "pause-tx");
  for (bool standalone : {false, true}) {
    report::SvgOptions options;
    options.standalone = standalone;
    const std::string svg = report::render_map_svg(h.map, options);
    expect_nothing_raw(svg);
    EXPECT_FALSE(has(svg, "</script>")) << "raw script end";
    expect_cells_intact(svg, h.map);
    EXPECT_EQ(svg.rfind("<?xml", 0) == 0, standalone);
    EXPECT_TRUE(has(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
  }
}

TEST(MapSvg, DataValueFollowsTheSelectedMetric) {
  Hostile h = hostile_map();
  for (std::size_t m = 0; m < h.map.metrics.size(); ++m) {
    h.map.selected = m;
    expect_cells_intact(report::render_map_svg(h.map), h.map);
  }
}

nlohmann::json hostile_diagnosis(const std::string& host) {
  return {{"symptom", "slowdown" + k_esc},
          {"verdict", "root-cause-found"},
          {"causes",
           {{{"id", "pfc-storm"},
             {"title", "PFC storm " + k_img},
             {"confidence", 0.93},
             {"entities", {"nic:" + host + "/mlx5_0"}},
             {"evidence",
              {{{"probe", "pfc-pause"},
                {"signal", "pfc-storm-origin"},
                {"summary", "41k pause frames/s " + k_script_end + k_quotes},
                {"value", 41000.0},
                {"unit", "frames/s"},
                {"weight", 1.0}}}},
             {"remediation", {"find the host " + k_img}}}}},
          {"ruled_out", {"nothing " + k_esc}},
          {"probes", {{{"id", "pfc-pause"}, {"status", "ran"}, {"reason", k_img}}}}};
}

// The text of the map-metrics script element.
std::string metrics_block(const std::string& html) {
  const std::string open = R"(<script type="application/json" id="map-metrics">)";
  const auto start = html.find(open);
  if (start == std::string::npos) {
    return {};
  }
  const auto body = start + open.size();
  return html.substr(body, html.find("</script>", body) - body);
}

TEST(HtmlReport, HostileNamesReachThePageOnlyEscaped) {
  const Hostile h = hostile_map();
  report::HtmlReport page;
  page.diagnosis = hostile_diagnosis(h.host);
  page.map = h.map;
  page.source = "bundle " + k_img + k_esc;
  const std::string html = report::render_html(page);

  expect_nothing_raw(html);
  EXPECT_TRUE(has(html, "id=\"fabric-map\""));
  // The page's own script elements are the only ones, each closed once.
  EXPECT_EQ(count_of(html, "</script"), count_of(html, "<script"));
  EXPECT_EQ(count_of(html, "<script"), 2u);
  const std::string block = metrics_block(html);
  ASSERT_FALSE(block.empty());
  EXPECT_FALSE(has(block, "</script")) << block.substr(0, 200);
  EXPECT_FALSE(has(block, "<!--"));
  const auto metrics = nlohmann::json::parse(block, nullptr, false);
  ASSERT_TRUE(metrics.is_object()) << block.substr(0, 200);
  ASSERT_EQ(metrics["metrics"].size(), h.map.metrics.size());
  EXPECT_EQ(metrics["metrics"][0]["label"], h.map.metrics[0].label);
  EXPECT_EQ(metrics["selected"], h.map.selected);

  // Nothing may leave the page.
  const auto metas = tags(html, "meta");
  bool csp = false;
  for (const auto& meta : metas) {
    const auto attrs = attributes(meta);
    if (attrs.count("http-equiv") && attrs.at("http-equiv") == "Content-Security-Policy") {
      csp = has(attrs.at("content"), "default-src 'none'");
    }
  }
  EXPECT_TRUE(csp) << "no CSP meta with default-src 'none'";

  // The inline SVG's cells are whole, and so is every element of the page carrying an attribute
  // that came from the bundle.
  expect_cells_intact(html, h.map);
  for (const char* element : {"li", "tr", "section", "g", "option", "code", "p"}) {
    for (const auto& tag : tags(html, element)) {
      EXPECT_FALSE(attributes(tag).empty()) << "broken tag: " << tag;
    }
  }
}

TEST(HtmlReport, WithoutAMapThePageSaysWhy) {
  report::HtmlReport page;
  page.diagnosis = hostile_diagnosis("node01");
  page.map_missing = "the capture had no topology " + k_img;
  const std::string html = report::render_html(page);
  EXPECT_FALSE(has(html, "id=\"fabric-map\""));
  EXPECT_TRUE(has(html, "No map: the capture had no topology &lt;img"));
  expect_nothing_raw(html);
}

TEST(HtmlText, EscapeAndScriptJsonLeaveNoMarkup) {
  const std::string hostile = k_img + k_quotes + k_script_end + k_esc + "\n\tok";
  const std::string escaped = report::html_escape(hostile);
  for (char c : {'<', '>', '"', '\'', '\x1b'}) {
    EXPECT_EQ(escaped.find(c), std::string::npos) << c;
  }
  EXPECT_TRUE(has(escaped, "\n\tok"));  // layout kept
  EXPECT_EQ(count_of(escaped, "&"), count_of(escaped, "&amp;") + count_of(escaped, "&lt;") +
                                        count_of(escaped, "&gt;") + count_of(escaped, "&quot;") +
                                        count_of(escaped, "&#39;"));

  const nlohmann::json doc = {{"label", hostile + "<!--"}, {"n", 1}};
  const std::string safe = report::script_json(doc.dump());
  for (char c : {'<', '>', '&'}) {
    EXPECT_EQ(safe.find(c), std::string::npos) << c;
  }
  EXPECT_EQ(nlohmann::json::parse(safe), doc);
}

report::MapMetric metric(double max, bool log_scale) {
  report::MapMetric m;
  m.id = "pause-tx";
  m.max = max;
  m.log_scale = log_scale;
  return m;
}

int green(const std::string& colour) {
  return std::stoi(colour.substr(3, 2), nullptr, 16);
}

TEST(ColourScale, NoDataIsGreyAndEveryFigureAViridisColour) {
  const auto m = metric(1000.0, true);
  EXPECT_EQ(report::colour_of(std::nullopt, m), report::k_no_data_colour);
  EXPECT_EQ(report::colour_of(0.0, m), report::k_viridis.front());
  EXPECT_EQ(report::colour_of(1000.0, m), report::k_viridis.back());
  EXPECT_NE(report::colour_of(0.0, m), report::k_no_data_colour);
  const std::regex hex("#[0-9a-f]{6}");
  for (double v : {0.0, 0.3, 7.0, 99.0, 640.0, 1e9, -5.0}) {
    EXPECT_TRUE(std::regex_match(report::colour_of(v, m), hex)) << v;
  }
}

TEST(ColourScale, MonotoneInValueOnBothScales) {
  for (bool log_scale : {true, false}) {
    const auto m = metric(1e6, log_scale);
    double last_position = -1.0;
    int last_green = -1;
    for (double v = 0.0; v <= 1e6; v = v < 1.0 ? v + 0.25 : v * 1.7) {
      const double p = report::scale_position(v, m);
      EXPECT_GE(p, last_position) << v;
      const int g = green(report::colour_of(v, m));  // viridis' green rises end to end
      EXPECT_GE(g, last_green) << v;
      last_position = p;
      last_green = g;
    }
    EXPECT_DOUBLE_EQ(report::scale_position(1e6, m), 1.0);
  }
}

TEST(ColourScale, LogSpreadsDecadesLinearIsProportional) {
  const auto lin = metric(1000.0, false);
  const auto log = metric(1000.0, true);
  EXPECT_NEAR(report::scale_position(10.0, lin), 0.01, 1e-12);
  EXPECT_NEAR(report::scale_position(500.0, lin), 0.5, 1e-12);
  // On a log scale ten is a third of the way to a thousand, far above linear's hundredth.
  EXPECT_GT(report::scale_position(10.0, log), 0.3);
  EXPECT_LT(report::scale_position(10.0, log), 0.4);
  for (double v : {1.0, 10.0, 100.0, 500.0}) {
    EXPECT_GT(report::scale_position(v, log), report::scale_position(v, lin)) << v;
  }
  // Decades take about equal steps.
  const double d1 = report::scale_position(100.0, log) - report::scale_position(10.0, log);
  const double d2 = report::scale_position(1000.0, log) - report::scale_position(100.0, log);
  EXPECT_NEAR(d1, d2, 0.02);
}

TEST(ColourScale, ClampedAndMagnitudes) {
  for (bool log_scale : {true, false}) {
    const auto m = metric(50.0, log_scale);
    EXPECT_DOUBLE_EQ(report::scale_position(5e3, m), 1.0);
    EXPECT_EQ(report::colour_of(5e3, m), report::k_viridis.back());
    EXPECT_DOUBLE_EQ(report::scale_position(-20.0, m), report::scale_position(20.0, m));
    EXPECT_GE(report::scale_position(-1e9, m), 0.0);
    EXPECT_LE(report::scale_position(-1e9, m), 1.0);
  }
  report::MapMetric none;  // no cell holds it: no top
  EXPECT_DOUBLE_EQ(report::scale_position(7.0, none), 0.0);
  EXPECT_EQ(report::colour_of(7.0, none), report::k_viridis.front());
  EXPECT_DOUBLE_EQ(report::scale_position(3.0, metric(0.0, true)), 0.0);
}

}  // namespace
}  // namespace netdoctor::testing
