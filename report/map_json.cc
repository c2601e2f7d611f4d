#include "report/map_json.h"

#include <fmt/format.h>

#include <string>
#include <utility>

namespace netdoctor::report {
namespace {

constexpr const char* k_format = "netdoctor-map";
constexpr int k_version = 1;

nlohmann::json cell_json(const MapCell& cell) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : cell.values) {
    values.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
  }
  nlohmann::json out = {{"entity", cell.entity},
                        {"kind", to_string(cell.kind)},
                        {"label", cell.label},
                        {"detail", cell.detail},
                        {"values", values}};
  if (!cell.netdev.empty()) {
    out["netdev"] = cell.netdev;
  }
  if (cell.culprit) {
    out["culprit"] = true;
  }
  if (cell.victim) {
    out["victim"] = true;
  }
  return out;
}

Error bad(const std::string& what) {
  return make_error(ErrorCode::Parse, fmt::format("fabric map: {}", what), "netdoctor-map");
}

Result<std::string> text_of(const nlohmann::json& object, const char* key, bool required = true) {
  auto found = object.find(key);
  if (found == object.end()) {
    if (required) {
      return bad(fmt::format("'{}' missing", key));
    }
    return std::string();
  }
  if (!found->is_string()) {
    return bad(fmt::format("'{}' is not a string", key));
  }
  return found->get<std::string>();
}

Result<MapCell> cell_from(const nlohmann::json& json, std::size_t metrics) {
  if (!json.is_object()) {
    return bad("a cell is not an object");
  }
  MapCell cell;
  ND_TRY_ASSIGN(cell.entity, text_of(json, "entity"));
  ND_TRY_ASSIGN(std::string kind, text_of(json, "kind"));
  if (kind == "nic") {
    cell.kind = CellKind::Nic;
  } else if (kind == "port") {
    cell.kind = CellKind::Port;
  } else if (kind == "switch") {
    cell.kind = CellKind::Switch;
  } else if (kind == "host") {
    cell.kind = CellKind::Host;
  } else {
    return bad(fmt::format("unknown cell kind '{}'", kind));
  }
  ND_TRY_ASSIGN(cell.label, text_of(json, "label"));
  ND_TRY_ASSIGN(cell.detail, text_of(json, "detail", false));
  ND_TRY_ASSIGN(cell.netdev, text_of(json, "netdev", false));
  const auto values = json.find("values");
  if (values == json.end() || !values->is_array() || values->size() != metrics) {
    return bad(fmt::format("cell {}: 'values' is not one figure per metric", cell.entity));
  }
  for (const auto& v : *values) {
    if (v.is_number()) {
      cell.values.emplace_back(v.get<double>());
    } else if (v.is_null()) {
      cell.values.emplace_back(std::nullopt);
    } else {
      return bad(fmt::format("cell {}: a figure is not a number", cell.entity));
    }
  }
  cell.culprit = json.value("culprit", false);
  cell.victim = json.value("victim", false);
  return cell;
}

std::vector<std::string> strings_of(const nlohmann::json& json, const char* key) {
  std::vector<std::string> out;
  if (auto found = json.find(key); found != json.end() && found->is_array()) {
    for (const auto& item : *found) {
      if (item.is_string()) {
        out.push_back(item.get<std::string>());
      }
    }
  }
  return out;
}

}  // namespace

nlohmann::json map_to_json(const FabricMap& map) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : map.metrics) {
    nlohmann::json metric = {{"id", m.id},
                             {"label", m.label},
                             {"unit", m.unit},
                             {"log_scale", m.log_scale},
                             {"cells", m.cells}};
    if (m.fleet_normal) {
      metric["fleet_normal"] = *m.fleet_normal;
    }
    if (m.max) {
      metric["max"] = *m.max;
    }
    metrics.push_back(std::move(metric));
  }
  nlohmann::json panels = nlohmann::json::array();
  for (const auto& panel : map.panels) {
    nlohmann::json p = {{"title", panel.title}, {"role", panel.role}};
    if (panel.head) {
      p["head"] = cell_json(*panel.head);
    }
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& c : panel.ports) {
      ports.push_back(cell_json(c));
    }
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& c : panel.cells) {
      cells.push_back(cell_json(c));
    }
    p["ports"] = std::move(ports);
    p["cells"] = std::move(cells);
    panels.push_back(std::move(p));
  }
  return {{"format", k_format},     {"version", k_version},  {"fabric", map.fabric},
          {"title", map.title},     {"metrics", metrics},    {"selected", map.selected},
          {"reason", map.reason},   {"panels", panels},      {"culprits", map.culprits},
          {"victims", map.victims}, {"nics", map.nic_count}, {"ports", map.port_count}};
}

namespace {

// map_from_json's reading; json.value() throws on a mistyped field ("version": "1").
Result<FabricMap> read_map(const nlohmann::json& json) {
  if (!json.is_object() || json.value("format", "") != k_format) {
    return bad("not a netdoctor-map document");
  }
  if (json.value("version", 0) != k_version) {
    return bad(fmt::format("version {} is not {}", json.value("version", 0), k_version));
  }
  FabricMap map;
  ND_TRY_ASSIGN(map.fabric, text_of(json, "fabric"));
  ND_TRY_ASSIGN(map.title, text_of(json, "title"));
  ND_TRY_ASSIGN(map.reason, text_of(json, "reason", false));
  const auto metrics = json.find("metrics");
  if (metrics == json.end() || !metrics->is_array()) {
    return bad("'metrics' missing");
  }
  for (const auto& m : *metrics) {
    if (!m.is_object()) {
      return bad("a metric is not an object");
    }
    MapMetric metric;
    ND_TRY_ASSIGN(metric.id, text_of(m, "id"));
    ND_TRY_ASSIGN(metric.label, text_of(m, "label"));
    ND_TRY_ASSIGN(metric.unit, text_of(m, "unit"));
    metric.log_scale = m.value("log_scale", true);
    metric.cells = m.value("cells", std::size_t{0});
    if (auto v = m.find("fleet_normal"); v != m.end() && v->is_number()) {
      metric.fleet_normal = v->get<double>();
    }
    if (auto v = m.find("max"); v != m.end() && v->is_number()) {
      metric.max = v->get<double>();
    }
    map.metrics.push_back(std::move(metric));
  }
  map.selected = json.value("selected", std::size_t{0});
  if (!map.metrics.empty() && map.selected >= map.metrics.size()) {
    return bad("'selected' is past the metrics");
  }
  const auto panels = json.find("panels");
  if (panels == json.end() || !panels->is_array()) {
    return bad("'panels' missing");
  }
  for (const auto& p : *panels) {
    if (!p.is_object()) {
      return bad("a panel is not an object");
    }
    MapPanel panel;
    ND_TRY_ASSIGN(panel.title, text_of(p, "title"));
    ND_TRY_ASSIGN(panel.role, text_of(p, "role"));
    if (auto head = p.find("head"); head != p.end()) {
      ND_TRY_ASSIGN(MapCell cell, cell_from(*head, map.metrics.size()));
      panel.head = std::move(cell);
    }
    for (const char* key : {"ports", "cells"}) {
      auto list = p.find(key);
      if (list == p.end() || !list->is_array()) {
        return bad(fmt::format("panel {}: '{}' missing", panel.title, key));
      }
      for (const auto& c : *list) {
        ND_TRY_ASSIGN(MapCell cell, cell_from(c, map.metrics.size()));
        (std::string_view(key) == "ports" ? panel.ports : panel.cells).push_back(std::move(cell));
      }
    }
    map.panels.push_back(std::move(panel));
  }
  map.culprits = strings_of(json, "culprits");
  map.victims = strings_of(json, "victims");
  map.nic_count = json.value("nics", std::size_t{0});
  map.port_count = json.value("ports", std::size_t{0});
  return map;
}

}  // namespace

Result<FabricMap> map_from_json(const nlohmann::json& json) {
  try {
    return read_map(json);
  } catch (const nlohmann::json::exception& e) {
    return bad(fmt::format("a field has the wrong type ({})", e.what()));
  }
}

}  // namespace netdoctor::report
