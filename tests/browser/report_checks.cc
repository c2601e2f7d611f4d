#include "tests/browser/report_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "tests/browser/headless_browser.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

// A map page's screenshot at 1400x1600 is far above this; a blank page of that size is below.
constexpr std::size_t k_min_screenshot_bytes = 30'000;

// The map's state as the DOM holds it: the metrics the selector offers and every cell.
struct MapState {
  nlohmann::json metrics;  // the page's #map-metrics: [{id, label, unit, max, ...}]
  std::size_t selected = 0;
  std::vector<const DomElement*> cells;
};

MapState map_state(const std::vector<DomElement>& dom) {
  MapState state;
  if (const DomElement* data = find_id(dom, "map-metrics")) {
    const auto scale = nlohmann::json::parse(data->text, nullptr, false);
    if (!scale.is_discarded() && scale.contains("metrics")) {
      state.metrics = scale["metrics"];
      state.selected = scale.value("selected", std::size_t{0});
    }
  }
  state.cells = with_class(dom, "cell");
  return state;
}

// The cell's figure for metric k as the server wrote it in data-values ("" when none; "=" is the
// metric's fleet normal, docs/report.md).
std::string value_at(const DomElement& cell, std::size_t k, const nlohmann::json& metrics) {
  std::istringstream values(cell.get("data-values"));
  std::string value;
  for (std::size_t i = 0; i <= k; ++i) {
    if (!std::getline(values, value, ',')) {
      return {};
    }
  }
  if (value == "=" && metrics.is_array() && k < metrics.size() &&
      metrics[k].contains("fleet_normal") && metrics[k]["fleet_normal"].is_number()) {
    return metrics[k]["fleet_normal"].dump();
  }
  return value;
}

bool same_figure(const std::string& shown, const std::string& expected) {
  if (shown.empty() || expected.empty()) {
    return shown == expected;
  }
  const double a = std::strtod(shown.c_str(), nullptr);
  const double b = std::strtod(expected.c_str(), nullptr);
  return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

// Every cell's data-value is its figure for metric k, as the script keeps it.
void expect_cells_show(const MapState& state, std::size_t k, const std::string& where) {
  std::size_t wrong = 0;
  for (const DomElement* cell : state.cells) {
    if (!cell->has("data-value") ||
        !same_figure(cell->get("data-value"), value_at(*cell, k, state.metrics))) {
      if (++wrong <= 3) {
        ADD_FAILURE() << where << ": " << cell->get("data-entity") << " shows data-value '"
                      << cell->get("data-value") << "', its figure for metric " << k << " is '"
                      << value_at(*cell, k, state.metrics) << "'";
      }
    }
  }
  EXPECT_EQ(wrong, 0u) << where << ": cells not showing metric " << k;
}

// The page as loaded, checked: the script ran, the map and its NIC cells, what is outlined.
MapState check_first_load(const std::vector<DomElement>& dom, const std::vector<DomElement>& file,
                          const ReportUnderTest& report) {
  MapState state = map_state(dom);
  const DomElement* html = dom.empty() || dom.front().name != "html" ? nullptr : &dom.front();
  EXPECT_TRUE(html != nullptr && html->has("data-map-ready"))
      << report.name << ": <html data-map-ready> missing: the page's script did not run to its end";
  EXPECT_NE(find_id(dom, "fabric-map"), nullptr) << report.name << ": no #fabric-map";
  EXPECT_TRUE(state.metrics.is_array() && state.selected < state.metrics.size())
      << report.name << ": no usable #map-metrics";
  if (html == nullptr || !state.metrics.is_array() || state.selected >= state.metrics.size()) {
    return state;
  }
  EXPECT_EQ(html->get("data-map-ready"), state.metrics[state.selected].value("id", ""))
      << report.name;
  std::size_t nics = 0;
  for (const DomElement* cell : state.cells) {
    nics += cell->has_class("nic") ? 1 : 0;
  }
  EXPECT_EQ(nics, report.nics) << report.name << ": NIC cells against the fabric's NICs";
  expect_no_injected_markup(dom);
  expect_cells_show(state, state.selected, report.name);
  // The script's colours are the server's (report/colour_scale.cc): same cells, same fills.
  const auto written = with_class(file, "cell");
  EXPECT_EQ(written.size(), state.cells.size()) << report.name;
  for (std::size_t i = 0; i < std::min(written.size(), state.cells.size()); ++i) {
    EXPECT_EQ(state.cells[i]->get("fill"), written[i]->get("fill"))
        << report.name << ": the script coloured " << written[i]->get("data-entity")
        << " unlike the server";
  }
  // The map outlines every entity the reported causes name (each cause's "At:" list) ...
  auto outlined = [&](const std::string& entity) {
    for (const DomElement* cell : state.cells) {
      const bool named = cell->get("data-entity") == entity || cell->get("data-netdev") == entity;
      if (named && cell->has_class("culprit")) {
        return true;
      }
    }
    return false;
  };
  std::vector<std::string> named;
  for (const DomElement* code : with_class(dom, "entity")) {
    named.push_back(code->text);
  }
  for (const std::string& entity : map_entities(named)) {
    EXPECT_TRUE(outlined(entity)) << report.name << ": the causes name " << entity
                                  << ", no outlined cell is it";
  }
  // ... and one of those the scenario expects (culprits_any: the top cause names one of them).
  const auto expected = map_entities(report.culprits);
  EXPECT_TRUE(expected.empty() || std::any_of(expected.begin(), expected.end(), outlined))
      << report.name << ": none of the expected culprits is outlined, e.g. " << expected.front();
  for (const DomElement* culprit : with_class(dom, "culprit")) {
    if (culprit->has_class("cell")) {
      EXPECT_TRUE(culprit->has("data-value")) << culprit->get("data-entity");
    }
  }
  return state;
}

// A metric other than the one the page opens on whose figures differ on some cell.
std::optional<std::size_t> another_metric(const MapState& state) {
  for (std::size_t k = 0; k < state.metrics.size(); ++k) {
    if (k == state.selected) {
      continue;
    }
    for (const DomElement* cell : state.cells) {
      if (value_at(*cell, k, state.metrics) != value_at(*cell, state.selected, state.metrics)) {
        return k;
      }
    }
  }
  return std::nullopt;
}

// "#metric=<id>" opens the page on that metric: data-map-ready names it, the cells show it.
void check_recoloured(const ReportUnderTest& report, const MapState& first) {
  const auto k = another_metric(first);
  ASSERT_TRUE(k.has_value()) << report.name << ": no second metric to select";
  const std::string id = first.metrics[*k].value("id", "");
  PageLoad load;
  load.fragment = "#metric=" + id;
  load.timeout_s = report.timeout_s;
  const LoadedPage page = load_page(report.html_path, load);
  ASSERT_TRUE(page.ran);
  EXPECT_TRUE(page.console.empty()) << report.name << load.fragment << ":\n" << page.log;
  const auto dom = scan_elements(page.dom);
  const MapState state = map_state(dom);
  ASSERT_FALSE(dom.empty());
  EXPECT_EQ(dom.front().get("data-map-ready"), id) << report.name << load.fragment;
  ASSERT_EQ(state.cells.size(), first.cells.size());
  expect_cells_show(state, *k, report.name + load.fragment);
  std::size_t recoloured = 0;
  for (std::size_t i = 0; i < state.cells.size(); ++i) {
    recoloured += state.cells[i]->get("fill") != first.cells[i]->get("fill") ? 1 : 0;
  }
  EXPECT_GT(recoloured, 0u) << report.name << load.fragment << " recoloured no cell";
}

}  // namespace

const DomElement* find_id(const std::vector<DomElement>& dom, const std::string& id) {
  for (const DomElement& element : dom) {
    if (element.get("id") == id) {
      return &element;
    }
  }
  return nullptr;
}

std::vector<const DomElement*> with_class(const std::vector<DomElement>& dom,
                                          std::string_view token) {
  std::vector<const DomElement*> out;
  for (const DomElement& element : dom) {
    if (element.has_class(token)) {
      out.push_back(&element);
    }
  }
  return out;
}

std::size_t count_named(const std::vector<DomElement>& dom, const std::string& name) {
  std::size_t n = 0;
  for (const DomElement& element : dom) {
    n += element.name == name ? 1 : 0;
  }
  return n;
}

void expect_no_injected_markup(const std::vector<DomElement>& dom) {
  EXPECT_EQ(count_named(dom, "img"), 0u) << "an <img> element in the page";
  EXPECT_EQ(count_named(dom, "script"), 2u) << "the page has its own two scripts only";
  EXPECT_EQ(count_named(dom, "iframe") + count_named(dom, "object") + count_named(dom, "embed"),
            0u);
  for (const DomElement& element : dom) {
    for (const auto& [name, value] : element.attrs) {
      EXPECT_FALSE(name.rfind("on", 0) == 0)
          << "<" << element.name << "> carries the event attribute " << name << "=" << value;
      EXPECT_EQ(value.find("javascript:"), std::string::npos)
          << "<" << element.name << " " << name << "> holds a javascript: address";
    }
  }
}

std::vector<std::string> map_entities(const std::vector<std::string>& entities) {
  std::vector<std::string> out;
  for (const std::string& entity : entities) {
    for (const char* kind : {"nic:", "port:", "netdev:", "host:", "switch:"}) {
      if (entity.rfind(kind, 0) == 0) {
        out.push_back(entity);
      }
    }
  }
  return out;
}

std::string artifact_dir() {
  const std::string dir = std::string(NETDOCTOR_BINARY_DIR) + "/test-artifacts/browser";
  std::filesystem::create_directories(dir);
  return dir;
}

std::vector<DomElement> check_report_in_browser(const ReportUnderTest& report) {
  const auto file = scan_elements(read_text(report.html_path));
  PageLoad load;
  load.screenshot_path = artifact_dir() + "/" + report.name + ".png";
  load.net_log_path = make_temp_dir("net-log-" + report.name) + "/net-log.json";
  load.timeout_s = report.timeout_s;
  std::filesystem::remove(load.screenshot_path);
  const LoadedPage page = load_page(report.html_path, load);
  if (!page.ran) {
    return {};
  }
  EXPECT_TRUE(page.console.empty()) << report.name << ": the page wrote to the console:\n"
                                    << page.log;
  const auto requests = network_urls(load.net_log_path);
  EXPECT_TRUE(requests.empty()) << report.name << ": the page requested " << requests.front();
  expect_screenshot(load.screenshot_path, 1400, 1600, k_min_screenshot_bytes);
  auto dom = scan_elements(page.dom);
  const MapState state = check_first_load(dom, file, report);
  if (state.metrics.is_array() && !state.metrics.empty()) {
    check_recoloured(report, state);
  }
  return dom;
}

}  // namespace netdoctor::testing
