// The fabric map: every NIC, switch port, switch and host of a diagnosed fabric as a cell,
// laid out as the topology is (spines, then each leaf with its ports and the NICs cabled to it;
// on InfiniBand the fat tree's tiers), each cell holding the figures the map can be coloured by.
// Built once from the fabric model and the diagnosis (report/map_builder.cc), kept in the
// incident store as JSON (report/map_json.cc), drawn as SVG (report/map_svg.h).
//
// Figures are per second over the capture window where the capture has two samples or more;
// with one sample a counter's figure is its total since the last reset, and the metric's unit
// says so. A cell without a figure for a metric holds nullopt ("no data", never zero).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/diagnosis.h"
#include "engine/engine.h"
#include "model/fabric.h"
#include "probes/probe.h"

namespace netdoctor::report {

enum class CellKind { Nic, Port, Switch, Host };
const char* to_string(CellKind kind);  // "nic", "port", "switch", "host" (the DOM classes)

// What a metric is and how this fleet looks in it.
struct MapMetric {
  std::string id;                      // "pause-tx", "link-errors", "xmit-wait", ...
  std::string label;                   // "PFC pause sent"
  std::string unit;                    // "frames/s", "frames (total)", "%", "ms"
  bool log_scale = true;               // counts and rates spread over decades
  std::optional<double> fleet_normal;  // median of the cells holding it
  std::optional<double> max;           // the highest cell
  std::size_t cells = 0;               // cells holding it
};

struct MapCell {
  std::string entity;  // spec entity name: nic:, port:, switch:, host:
  std::string netdev;  // a NIC's netdev entity, when it has one (culprits named by netdev)
  CellKind kind = CellKind::Nic;
  std::string label;                          // short: "mlx5_0", "Ethernet16", "leaf2"
  std::string detail;                         // "200 Gb/s, up"; shown on hover
  std::vector<std::optional<double>> values;  // by FabricMap::metrics position
  bool culprit = false;
  bool victim = false;
};

// One box of the map: a switch with its ports, and (for a leaf) the NICs cabled to it; or a
// host whose NICs have no known switch; or the hosts themselves.
struct MapPanel {
  std::string title;
  std::string role;             // "spine", "leaf", "host", "hosts"
  std::optional<MapCell> head;  // the switch (or host) cell the panel is about
  std::vector<MapCell> ports;   // the switch's ports, in its own order
  std::vector<MapCell> cells;   // NICs (by host, then device), or hosts
};

struct FabricMap {
  std::string fabric;  // "roce", "ib" or "mixed"
  std::string title;   // the fabric's name
  std::vector<MapMetric> metrics;
  std::size_t selected = 0;           // the metric the map opens on: the top cause's
  std::string reason;                 // why that metric ("pfc-storm: pause frames sent")
  std::vector<MapPanel> panels;       // spines first, then leaves, then hosts
  std::vector<std::string> culprits;  // entities outlined, as the causes named them
  std::vector<std::string> victims;   // entities marked
  std::size_t nic_count = 0;
  std::size_t port_count = 0;
};

struct MapOptions {
  int roce_priority = 3;
  // The resolved probe thresholds (engine::resolve_thresholds): the XmitWait tick is the
  // ib-congestion probe's.
  probes::ThresholdBook thresholds;
};

// The map of `fabric` for `diagnosis`: culprits are the entities of every reported cause;
// victims the cells of the top cause's victim metric standing out from the fleet (kb/map/).
Result<FabricMap> build_fabric_map(const model::Fabric& fabric, const engine::Diagnosis& diagnosis,
                                   const MapOptions& options);

// The same with the thresholds `diagnose` ran with: the kb's, with `options`' settings applied.
Result<FabricMap> map_for_diagnosis(const model::Fabric& fabric, const engine::Diagnosis& diagnosis,
                                    const engine::DiagnoseOptions& options);

// Every cell of the map, panel by panel (heads, ports, cells), for tests and renderers.
std::vector<const MapCell*> all_cells(const FabricMap& map);

}  // namespace netdoctor::report
