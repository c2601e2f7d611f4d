// build_fabric_map over the hand-built fabrics: every NIC and switch port a cell exactly once,
// grouped under the leaf it is cabled to (RoCE by LLDP, InfiniBand by the subnet's cabling),
// leaves told from spines; the top cause's metric selected, its culprits outlined and its
// victims marked by the kb/map rules; one-sample totals never mixed with rates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/pipeline.h"
#include "model/entity_names.h"
#include "report/map_rules.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/report/report_test_util.h"

namespace netdoctor::testing {
namespace {

using report::CellKind;
using report::FabricMap;
using report::MapCell;

std::size_t nics_of(const model::Fabric& fabric) {
  std::size_t n = 0;
  for (const auto& host : fabric.hosts) {
    n += host.nics.size();
  }
  return n;
}

std::map<std::string, int> port_cell_counts(const FabricMap& map) {
  std::map<std::string, int> counts;
  for (const MapCell* cell : report::all_cells(map)) {
    if (cell->kind == CellKind::Port) {
      ++counts[cell->entity];
    }
  }
  return counts;
}

std::size_t nic_cells(const FabricMap& map) {
  const auto cells = report::all_cells(map);
  return static_cast<std::size_t>(std::count_if(
      cells.begin(), cells.end(), [](const MapCell* c) { return c->kind == CellKind::Nic; }));
}

// The panel (title -> role) each entity sits in, as a cell of its cells list.
std::map<std::string, const report::MapPanel*> panel_of_cells(const FabricMap& map) {
  std::map<std::string, const report::MapPanel*> out;
  for (const auto& panel : map.panels) {
    for (const auto& cell : panel.cells) {
      out[cell.entity] = &panel;
    }
  }
  return out;
}

const report::MapPanel* panel_titled(const FabricMap& map, const std::string& title) {
  for (const auto& panel : map.panels) {
    if (panel.title == title) {
      return &panel;
    }
  }
  return nullptr;
}

TEST(FabricMap, RoceLeafSpineHasEveryNicAndSwitchPortOnceUnderItsLeaf) {
  FleetSpec spec;
  spec.hosts = 6;
  spec.nics_per_host = 3;
  spec.leaves = 3;
  const model::Fabric fabric = healthy_fleet(spec);
  const FabricMap map = map_of(fabric, engine::Diagnosis{});

  EXPECT_EQ(map.fabric, "roce");
  EXPECT_EQ(map.nic_count, nics_of(fabric));
  EXPECT_EQ(nic_cells(map), nics_of(fabric));

  std::map<std::string, int> expected_ports;
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      ++expected_ports[model::port_entity(sw.name, port.name)];
    }
  }
  EXPECT_EQ(port_cell_counts(map), expected_ports);
  EXPECT_EQ(map.port_count, expected_ports.size());

  // A switch with NICs cabled to it is a leaf; the others are spines, drawn first.
  std::set<std::string> leaves;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      leaves.insert(nic.switch_name);
    }
  }
  ASSERT_EQ(leaves.size(), 3u);
  bool seen_leaf = false;
  for (const auto& sw : fabric.switches) {
    const report::MapPanel* panel = panel_titled(map, sw.name);
    ASSERT_NE(panel, nullptr) << sw.name;
    EXPECT_EQ(panel->role, leaves.count(sw.name) ? "leaf" : "spine") << sw.name;
    ASSERT_TRUE(panel->head.has_value());
    EXPECT_EQ(panel->head->entity, model::switch_entity(sw.name));
    EXPECT_EQ(panel->head->kind, CellKind::Switch);
    EXPECT_EQ(panel->ports.size(), sw.ports.size());
  }
  for (const auto& panel : map.panels) {
    if (panel.role == "leaf") {
      seen_leaf = true;
    }
    if (panel.role == "spine") {
      EXPECT_FALSE(seen_leaf) << "spine " << panel.title << " after a leaf";
    }
  }

  // Each NIC cell sits in the panel of the leaf its LLDP names.
  const auto where = panel_of_cells(map);
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      auto found = where.find(nic.nic_entity());
      ASSERT_NE(found, where.end()) << nic.nic_entity();
      EXPECT_EQ(found->second->title, nic.switch_name) << nic.nic_entity();
      EXPECT_EQ(found->second->role, "leaf");
    }
    // Hosts are cells of the hosts panel.
    auto host_cell = where.find(host.entity());
    ASSERT_NE(host_cell, where.end());
    EXPECT_EQ(host_cell->second->role, "hosts");
  }
}

TEST(FabricMap, ALeafNamedOnlyByLldpIsAPanelWithoutPorts) {
  model::Fabric fabric = healthy_fleet();
  fabric.switches.erase(std::remove_if(fabric.switches.begin(), fabric.switches.end(),
                                       [](const model::Switch& sw) { return sw.name == "leaf2"; }),
                        fabric.switches.end());
  const FabricMap map = map_of(fabric, engine::Diagnosis{});
  const report::MapPanel* leaf2 = panel_titled(map, "leaf2");
  ASSERT_NE(leaf2, nullptr);
  EXPECT_EQ(leaf2->role, "leaf");
  EXPECT_TRUE(leaf2->ports.empty());
  EXPECT_EQ(map.nic_count, nics_of(fabric));
  std::size_t leaf2_nics = 0;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      leaf2_nics += nic.switch_name == "leaf2" ? 1 : 0;
    }
  }
  EXPECT_GT(leaf2_nics, 0u);
  EXPECT_EQ(leaf2->cells.size(), leaf2_nics);
}

TEST(FabricMap, InfinibandFatTreeTiersAndHcasUnderTheirLeaf) {
  IbSpec spec;
  spec.leaves = 3;
  spec.spines = 2;
  spec.hosts_per_leaf = 2;
  spec.hcas_per_host = 2;
  const model::Fabric fabric = ib_fat_tree(spec);
  const FabricMap map = map_of(fabric, engine::Diagnosis{});
  EXPECT_EQ(map.fabric, "ib");

  std::size_t cas = 0;
  std::map<std::string, int> expected_ports;
  std::map<std::string, std::string> leaf_of;  // CA entity -> switch it is cabled to
  std::set<std::string> switches;
  for (const auto& node : fabric.ib.nodes) {
    if (node.kind == model::IbNodeKind::Ca) {
      ++cas;
      ASSERT_FALSE(node.ports.empty());
      const model::IbNode* peer = fabric.ib.peer_of(node.ports.front());
      ASSERT_NE(peer, nullptr);
      leaf_of[node.entity()] = peer->name;
    } else {
      switches.insert(node.name);
      for (const auto& port : node.ports) {
        ++expected_ports[node.port_entity(port.number)];
      }
    }
  }
  ASSERT_EQ(cas, static_cast<std::size_t>(spec.leaves * spec.hosts_per_leaf * spec.hcas_per_host));
  EXPECT_EQ(map.nic_count, cas);
  EXPECT_EQ(nic_cells(map), cas);
  EXPECT_EQ(port_cell_counts(map), expected_ports);

  std::set<std::string> leaves;
  for (const auto& [ca, leaf] : leaf_of) {
    leaves.insert(leaf);
  }
  EXPECT_EQ(leaves.size(), static_cast<std::size_t>(spec.leaves));
  for (const auto& name : switches) {
    const report::MapPanel* panel = panel_titled(map, name);
    ASSERT_NE(panel, nullptr) << name;
    EXPECT_EQ(panel->role, leaves.count(name) ? "leaf" : "spine") << name;
  }
  std::size_t spines = 0;
  for (const auto& panel : map.panels) {
    spines += panel.role == "spine" ? 1 : 0;
  }
  EXPECT_EQ(spines, static_cast<std::size_t>(spec.spines));

  // Each HCA's cell is in the panel of the leaf its cable reaches (the host's NIC or, when no
  // host capture joins it, the subnet's own node).
  const auto where = panel_of_cells(map);
  std::size_t placed = 0;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      const model::IbNode& ca = ib_ca(const_cast<model::Fabric&>(fabric), host.name, nic.device);
      auto found = where.find(nic.nic_entity());
      ASSERT_NE(found, where.end()) << nic.nic_entity();
      EXPECT_EQ(found->second->title, leaf_of.at(ca.entity())) << nic.nic_entity();
      ++placed;
    }
  }
  EXPECT_EQ(placed, cas);
  EXPECT_LT(metric_index(map, "xmit-wait"), map.metrics.size());
  EXPECT_EQ(metric_index(map, "pause-tx"), map.metrics.size()) << "no IB cell has PFC";
}

// Checks the marks of a pfc-storm diagnosis at nic:node01/mlx5_0 against the map's own figures
// and the kb/map rules: culprits outlined, pause-tx selected, victims by the pause-rx floor.
void expect_storm_marks(const FabricMap& map) {
  auto rules = report::load_map_rules();
  ASSERT_TRUE(rules.ok()) << rules.error().describe();
  const report::CauseView& storm = rules->causes.at("pfc-storm");
  ASSERT_TRUE(storm.victims.has_value());

  ASSERT_LT(map.selected, map.metrics.size());
  EXPECT_EQ(map.metrics[map.selected].id, "pause-tx");
  EXPECT_TRUE(has(map.reason, "pfc-storm")) << map.reason;

  const MapCell* origin = cell_named(map, "nic:node01/mlx5_0");
  ASSERT_NE(origin, nullptr);
  EXPECT_TRUE(origin->culprit);
  EXPECT_FALSE(origin->victim);
  const MapCell* port = cell_named(map, "port:leaf1/Ethernet0");
  ASSERT_NE(port, nullptr);
  EXPECT_TRUE(port->culprit);
  EXPECT_FALSE(cell_named(map, "nic:node01/mlx5_1")->culprit);
  EXPECT_FALSE(cell_named(map, "switch:leaf1")->culprit);

  const std::size_t rx = metric_index(map, "pause-rx");
  ASSERT_LT(rx, map.metrics.size());
  ASSERT_TRUE(map.metrics[rx].fleet_normal.has_value());
  const double floor =
      std::max(storm.victim_floor, storm.victim_ratio * *map.metrics[rx].fleet_normal);
  std::size_t victims = 0;
  for (const auto& panel : map.panels) {
    for (const auto* list : {&panel.ports, &panel.cells}) {
      for (const MapCell& cell : *list) {
        const bool loud = cell.values[rx] && *cell.values[rx] >= floor;
        EXPECT_EQ(cell.victim, loud && !cell.culprit) << cell.entity;
        victims += cell.victim ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(map.victims.size(), victims);
  // A NIC receiving thousands of pauses a second behind the same leaf is a victim; one on the
  // other leaf, receiving its usual handful, is not.
  const MapCell* loud = cell_named(map, "nic:node02/mlx5_1");
  const MapCell* quiet = cell_named(map, "nic:node05/mlx5_0");
  ASSERT_TRUE(loud && quiet);
  EXPECT_TRUE(loud->victim);
  EXPECT_FALSE(quiet->victim);
  ASSERT_TRUE(quiet->values[rx].has_value());
  EXPECT_LT(*quiet->values[rx], floor);
}

TEST(FabricMap, HandBuiltPfcStormDiagnosisMarksCulpritsAndVictims) {
  model::Fabric fabric = healthy_fleet();
  inject_pfc_storm(fabric);
  const FabricMap map = map_of(
      fabric,
      diagnosis_of({{"pfc-storm",
                     {"nic:node01/mlx5_0", "netdev:node01/ens1f0np0", "port:leaf1/Ethernet0"}}}));
  expect_storm_marks(map);
  EXPECT_EQ(map.culprits.size(), 3u);
}

TEST(FabricMap, ALinkOrANetdevNamesTheCellsAtItsEnds) {
  model::Fabric fabric = healthy_fleet();
  inject_pfc_storm(fabric);
  const FabricMap map = map_of(
      fabric,
      diagnosis_of({{"pfc-storm",
                     {model::link_entity("netdev:node01/ens1f0np0", "port:leaf1/Ethernet0")}}}));
  expect_storm_marks(map);

  const FabricMap by_netdev =
      map_of(fabric, diagnosis_of({{"pfc-storm", {"netdev:node03/ens2f0np0"}}}));
  EXPECT_TRUE(cell_named(by_netdev, "nic:node03/mlx5_1")->culprit);
  EXPECT_FALSE(cell_named(by_netdev, "nic:node03/mlx5_0")->culprit);
}

TEST(FabricMap, TheEngineDiagnosingAStormOpensTheMapOnIt) {
  model::Fabric fabric = healthy_fleet();
  inject_pfc_storm(fabric);
  engine::DiagnoseOptions options;
  options.symptom = "slowdown";
  auto diagnosis = engine::diagnose_fabric(fabric, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  ASSERT_FALSE(diagnosis->causes.empty());
  ASSERT_EQ(diagnosis->causes.front().id, "pfc-storm");
  auto map = report::map_for_diagnosis(fabric, *diagnosis, options);
  ASSERT_TRUE(map.ok()) << map.error().describe();
  expect_storm_marks(*map);
}

TEST(FabricMap, NoCauseOrACauseWithoutAFigureOpensOnTheDefaultMetric) {
  auto rules = report::load_map_rules();
  ASSERT_TRUE(rules.ok());
  const std::string fallback(
      report::metric_defs()[static_cast<std::size_t>(rules->default_metric)].id);
  const model::Fabric fabric = healthy_fleet();
  for (const auto& diagnosis :
       {engine::Diagnosis{}, diagnosis_of({{"no-such-cause", {"nic:node01/mlx5_0"}}})}) {
    const FabricMap map = map_of(fabric, diagnosis);
    ASSERT_LT(map.selected, map.metrics.size());
    EXPECT_EQ(map.metrics[map.selected].id, fallback);
    EXPECT_TRUE(map.victims.empty());
  }
  const FabricMap skew = map_of(fabric, diagnosis_of({{"clock-skew", {"host:node03"}}}));
  EXPECT_EQ(skew.metrics[skew.selected].id, "clock-offset");
  EXPECT_TRUE(cell_named(skew, "host:node03")->culprit);
}

TEST(FabricMap, OneSampleGivesTotalsInTheirOwnUnit) {
  model::Fabric fabric = healthy_fleet();
  keep_first_sample(fabric);
  const FabricMap map = map_of(fabric, engine::Diagnosis{});
  const std::size_t tx = metric_index(map, "pause-tx");
  ASSERT_LT(tx, map.metrics.size());
  EXPECT_TRUE(has(map.metrics[tx].unit, "(total)")) << map.metrics[tx].unit;
  // The origin's figure is its counter's value, not a rate.
  const auto& nic = nic_at(fabric, 0, 0);
  const double total = nic.samples.front().values.at(model::MetricKey{"pfc_tx_pause_frames", 3});
  ASSERT_TRUE(cell_named(map, nic.nic_entity())->values[tx].has_value());
  EXPECT_DOUBLE_EQ(*cell_named(map, nic.nic_entity())->values[tx], total);
  // A NIC's utilisation needs a rate: with one sample it is no data, never a total.
  const std::size_t util = metric_index(map, "utilisation");
  if (util < map.metrics.size()) {
    EXPECT_FALSE(cell_named(map, nic.nic_entity())->values[util].has_value());
  }
}

TEST(FabricMap, RatesAndTotalsAreNeverMixedInOneMetric) {
  model::Fabric fabric = healthy_fleet();
  auto& lone = nic_at(fabric, 2, 1);
  lone.samples.resize(1);  // this NIC's counters were read once
  const FabricMap map = map_of(fabric, engine::Diagnosis{});
  const std::size_t tx = metric_index(map, "pause-tx");
  ASSERT_LT(tx, map.metrics.size());
  EXPECT_FALSE(has(map.metrics[tx].unit, "total")) << map.metrics[tx].unit;
  EXPECT_FALSE(cell_named(map, lone.nic_entity())->values[tx].has_value());
  EXPECT_TRUE(cell_named(map, nic_at(fabric, 2, 0).nic_entity())->values[tx].has_value());
  // Every figure of the metric is a rate of the same magnitude as the fleet's (not a counter
  // value in the tens of thousands).
  ASSERT_TRUE(map.metrics[tx].max.has_value());
  EXPECT_LT(*map.metrics[tx].max, 1000.0);
}

TEST(FabricMap, AMetricNoCellHoldsIsNotListed) {
  model::Fabric fabric = healthy_fleet();
  const FabricMap before = map_of(fabric, engine::Diagnosis{});
  ASSERT_LT(metric_index(before, "cnp"), before.metrics.size());
  EXPECT_EQ(metric_index(before, "xmit-wait"), before.metrics.size());
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      remove_metric(nic.samples, "cnp_sent");
    }
  }
  const FabricMap after = map_of(fabric, engine::Diagnosis{});
  EXPECT_EQ(metric_index(after, "cnp"), after.metrics.size());
  for (const MapCell* cell : report::all_cells(after)) {
    EXPECT_EQ(cell->values.size(), after.metrics.size()) << cell->entity;
  }
}

TEST(FabricMap, FleetNormalIsTheMedianAndMaxTheHighestOfTheMeasuringCells) {
  model::Fabric fabric = healthy_fleet();
  inject_pfc_storm(fabric);
  const FabricMap map = map_of(fabric, engine::Diagnosis{});
  for (std::size_t m = 0; m < map.metrics.size(); ++m) {
    std::vector<double> values;
    for (const MapCell* cell : report::all_cells(map)) {
      if (cell->kind != CellKind::Switch && cell->values[m]) {
        values.push_back(std::abs(*cell->values[m]));
      }
    }
    EXPECT_EQ(map.metrics[m].cells, values.size()) << map.metrics[m].id;
    ASSERT_FALSE(values.empty()) << map.metrics[m].id;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    ASSERT_TRUE(map.metrics[m].fleet_normal.has_value());
    EXPECT_NEAR(*map.metrics[m].fleet_normal, median, 1e-9 * std::max(1.0, median))
        << map.metrics[m].id;
    EXPECT_DOUBLE_EQ(*map.metrics[m].max, values.back()) << map.metrics[m].id;
  }
  // The switch head repeats its worst port.
  const std::size_t rx = metric_index(map, "pause-rx");
  const report::MapPanel* leaf1 = panel_titled(map, "leaf1");
  ASSERT_TRUE(leaf1 && leaf1->head);
  double worst = 0.0;
  for (const auto& port : leaf1->ports) {
    worst = std::max(worst, port.values[rx].value_or(0.0));
  }
  EXPECT_DOUBLE_EQ(leaf1->head->values[rx].value_or(-1.0), worst);
}

TEST(FabricMap, ClockOffsetIsAFigureOfHostCellsOnly) {
  model::Fabric fabric = healthy_fleet();
  fabric.hosts[2].clock.offset_s = -0.0042;
  fabric.hosts[5].clock.offset_s.reset();
  const FabricMap map = map_of(fabric, engine::Diagnosis{});
  const std::size_t clock = metric_index(map, "clock-offset");
  ASSERT_LT(clock, map.metrics.size());
  for (const MapCell* cell : report::all_cells(map)) {
    if (cell->kind != CellKind::Host) {
      EXPECT_FALSE(cell->values[clock].has_value()) << cell->entity;
    }
  }
  for (const auto& host : fabric.hosts) {
    const MapCell* cell = cell_named(map, host.entity());
    ASSERT_NE(cell, nullptr);
    if (host.clock.offset_s) {
      ASSERT_TRUE(cell->values[clock].has_value()) << host.name;
      EXPECT_DOUBLE_EQ(*cell->values[clock], *host.clock.offset_s * 1e3) << host.name;
    } else {
      EXPECT_FALSE(cell->values[clock].has_value()) << host.name;
    }
  }
  // The far-off host sets the scale's top by its magnitude.
  EXPECT_DOUBLE_EQ(*map.metrics[clock].max, 4.2);
}

}  // namespace
}  // namespace netdoctor::testing
