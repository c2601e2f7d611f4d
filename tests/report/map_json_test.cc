// The fabric map as the store keeps it: map_to_json -> map_from_json gives the same map back
// (no-data figures, culprit and victim flags included), and a document that is not one, or is
// damaged, is an error with a message, never a crash or an exception.
#include "report/map_json.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/report/report_test_util.h"

namespace netdoctor::testing {
namespace {

using report::FabricMap;
using report::MapCell;

report::FabricMap storm_map() {
  model::Fabric fabric = healthy_fleet();
  inject_pfc_storm(fabric);
  remove_metric(nic_at(fabric, 3, 2).samples, "cnp_sent");
  return map_of(
      fabric,
      diagnosis_of({{"pfc-storm",
                     {"nic:node01/mlx5_0", "netdev:node01/ens1f0np0", "port:leaf1/Ethernet0"}}}));
}

void expect_same_cell(const MapCell& a, const MapCell& b) {
  EXPECT_EQ(a.entity, b.entity);
  EXPECT_EQ(a.netdev, b.netdev) << a.entity;
  EXPECT_EQ(a.kind, b.kind) << a.entity;
  EXPECT_EQ(a.label, b.label) << a.entity;
  EXPECT_EQ(a.detail, b.detail) << a.entity;
  EXPECT_EQ(a.values, b.values) << a.entity;
  EXPECT_EQ(a.culprit, b.culprit) << a.entity;
  EXPECT_EQ(a.victim, b.victim) << a.entity;
}

void expect_same(const FabricMap& a, const FabricMap& b) {
  EXPECT_EQ(a.fabric, b.fabric);
  EXPECT_EQ(a.title, b.title);
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t m = 0; m < a.metrics.size(); ++m) {
    EXPECT_EQ(a.metrics[m].id, b.metrics[m].id);
    EXPECT_EQ(a.metrics[m].label, b.metrics[m].label);
    EXPECT_EQ(a.metrics[m].unit, b.metrics[m].unit);
    EXPECT_EQ(a.metrics[m].log_scale, b.metrics[m].log_scale);
    EXPECT_EQ(a.metrics[m].fleet_normal, b.metrics[m].fleet_normal);
    EXPECT_EQ(a.metrics[m].max, b.metrics[m].max);
    EXPECT_EQ(a.metrics[m].cells, b.metrics[m].cells);
  }
  EXPECT_EQ(a.selected, b.selected);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.culprits, b.culprits);
  EXPECT_EQ(a.victims, b.victims);
  EXPECT_EQ(a.nic_count, b.nic_count);
  EXPECT_EQ(a.port_count, b.port_count);
  ASSERT_EQ(a.panels.size(), b.panels.size());
  for (std::size_t p = 0; p < a.panels.size(); ++p) {
    const auto& pa = a.panels[p];
    const auto& pb = b.panels[p];
    EXPECT_EQ(pa.title, pb.title);
    EXPECT_EQ(pa.role, pb.role);
    ASSERT_EQ(pa.head.has_value(), pb.head.has_value()) << pa.title;
    if (pa.head) {
      expect_same_cell(*pa.head, *pb.head);
    }
    ASSERT_EQ(pa.ports.size(), pb.ports.size()) << pa.title;
    for (std::size_t i = 0; i < pa.ports.size(); ++i) {
      expect_same_cell(pa.ports[i], pb.ports[i]);
    }
    ASSERT_EQ(pa.cells.size(), pb.cells.size()) << pa.title;
    for (std::size_t i = 0; i < pa.cells.size(); ++i) {
      expect_same_cell(pa.cells[i], pb.cells[i]);
    }
  }
}

TEST(MapJson, RoundTripGivesTheSameMap) {
  const FabricMap map = storm_map();
  // The case worth round-tripping: no-data figures, culprits, victims and netdevs are all there.
  bool nullopt = false;
  bool culprit = false;
  bool victim = false;
  bool netdev = false;
  for (const MapCell* cell : report::all_cells(map)) {
    for (const auto& v : cell->values) {
      nullopt = nullopt || !v;
    }
    culprit = culprit || cell->culprit;
    victim = victim || cell->victim;
    netdev = netdev || !cell->netdev.empty();
  }
  ASSERT_TRUE(nullopt && culprit && victim && netdev);

  auto back = report::map_from_json(report::map_to_json(map));
  ASSERT_TRUE(back.ok()) << back.error().describe();
  expect_same(map, *back);
  // Through text too, as the store keeps it.
  auto parsed = nlohmann::json::parse(report::map_to_json(map).dump());
  auto again = report::map_from_json(parsed);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  expect_same(map, *again);
}

TEST(MapJson, AnEmptyMapRoundTrips) {
  FabricMap empty;
  empty.fabric = "roce";
  empty.title = "nothing";
  auto back = report::map_from_json(report::map_to_json(empty));
  ASSERT_TRUE(back.ok()) << back.error().describe();
  expect_same(empty, *back);
}

void expect_refused(const nlohmann::json& json, const std::string& says) {
  auto map = report::map_from_json(json);
  ASSERT_FALSE(map.ok()) << json.dump().substr(0, 200);
  EXPECT_FALSE(map.error().message.empty());
  EXPECT_TRUE(has(map.error().describe(), says)) << map.error().describe();
}

nlohmann::json& first_port(nlohmann::json& doc) {
  for (auto& panel : doc["panels"]) {
    if (!panel["ports"].empty()) {
      return panel["ports"][0];
    }
  }
  ADD_FAILURE() << "no port";
  return doc;
}

TEST(MapJson, AWrongFormatOrVersionIsRefused) {
  const nlohmann::json good = report::map_to_json(storm_map());
  auto doc = good;
  doc["format"] = "netdoctor-diagnosis";
  expect_refused(doc, "not a netdoctor-map");
  doc = good;
  doc.erase("format");
  expect_refused(doc, "not a netdoctor-map");
  doc = good;
  doc["version"] = 2;
  expect_refused(doc, "version 2");
  expect_refused(nlohmann::json::array(), "not a netdoctor-map");
}

TEST(MapJson, ValuesOfTheWrongLengthOrTypeAreRefused) {
  const nlohmann::json good = report::map_to_json(storm_map());
  auto doc = good;
  first_port(doc)["values"].push_back(1.0);
  expect_refused(doc, "one figure per metric");
  doc = good;
  first_port(doc)["values"].erase(0);
  expect_refused(doc, "one figure per metric");
  doc = good;
  first_port(doc)["values"][0] = "12";
  expect_refused(doc, "not a number");
  doc = good;
  first_port(doc)["kind"] = "router";
  expect_refused(doc, "router");
  doc = good;
  doc["selected"] = doc["metrics"].size();
  expect_refused(doc, "selected");
  doc = good;
  doc["metrics"].push_back({{"id", "extra"}, {"label", "Extra"}, {"unit", "x"}});
  expect_refused(doc, "one figure per metric");
}

// Every value of the document replaced by each JSON type, one at a time: an error or a map
// whose cells still have one figure per metric, never an exception.
TEST(MapJson, MistypedFieldsAnywhereAreErrorsNotExceptions) {
  FleetSpec small;  // every kind of cell and field, few of each: thousands of documents to read
  small.hosts = 2;
  small.nics_per_host = 1;
  small.leaves = 1;
  small.uplinks_per_leaf = 1;
  const nlohmann::json good = report::map_to_json(
      map_of(healthy_fleet(small), diagnosis_of({{"pfc-storm", {"nic:node01/mlx5_0"}}})));
  const std::vector<nlohmann::json> replacements = {
      nullptr, true, -1, 2.5, "x", nlohmann::json::array(), nlohmann::json::object()};
  std::vector<nlohmann::json::json_pointer> pointers;
  const nlohmann::json flat = good.flatten();
  for (const auto& [path, value] : flat.items()) {
    pointers.emplace_back(path);
  }
  // The containers too (a list or object replaced whole).
  for (const char* path : {"/metrics", "/metrics/0", "/panels", "/panels/0", "/panels/0/head",
                           "/panels/0/ports", "/panels/0/cells", "/culprits", "/victims"}) {
    pointers.emplace_back(path);
  }
  std::size_t tried = 0;
  for (const auto& pointer : pointers) {
    for (const auto& replacement : replacements) {
      auto doc = good;
      doc[pointer] = replacement;
      ++tried;
      Result<FabricMap> map = report::FabricMap{};
      ASSERT_NO_THROW(map = report::map_from_json(doc)) << pointer.to_string();
      if (map.ok()) {
        for (const MapCell* cell : report::all_cells(*map)) {
          ASSERT_EQ(cell->values.size(), map->metrics.size()) << pointer.to_string();
        }
        EXPECT_TRUE(map->metrics.empty() || map->selected < map->metrics.size())
            << pointer.to_string();
      } else {
        EXPECT_FALSE(map.error().message.empty()) << pointer.to_string();
      }
    }
  }
  EXPECT_GT(tried, 500u);
}

TEST(MapJson, GarbageTextIsRefused) {
  std::mt19937 random(42);
  const std::string text = report::map_to_json(storm_map()).dump();
  for (int round = 0; round < 200; ++round) {
    std::string damaged = text;
    const std::size_t cut = random() % damaged.size();
    damaged.resize(cut);
    for (int flips = 0; flips < 3; ++flips) {
      if (!damaged.empty()) {
        damaged[random() % damaged.size()] = static_cast<char>(random() % 256);
      }
    }
    const auto json = nlohmann::json::parse(damaged, nullptr, /*allow_exceptions=*/false);
    EXPECT_NO_THROW({
      auto map = report::map_from_json(json);
      if (json.is_discarded()) {
        EXPECT_FALSE(map.ok());
      }
    });
  }
}

}  // namespace
}  // namespace netdoctor::testing
