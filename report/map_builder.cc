// Builds the fabric map (report/fabric_map.h): one cell per host, NIC, switch and switch port,
// grouped as the topology is, coloured by the figure behind the top cause (kb/map/map.toml).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "model/entity_names.h"
#include "probes/fleet_stats.h"
#include "probes/ib_traffic.h"
#include "report/fabric_map.h"
#include "report/map_metrics.h"
#include "report/map_rules.h"

namespace netdoctor::report {
namespace {

std::size_t at(MetricId id) {
  return static_cast<std::size_t>(id);
}

// A cell while the map is built: its figures by MetricId, before the fleet's metrics are chosen.
struct Draft {
  MapCell cell;
  CellFigures figures{};
};

struct DraftPanel {
  std::string title;
  std::string role;
  std::optional<Draft> head;
  std::vector<Draft> ports;
  std::vector<Draft> cells;
};

std::string speed_text(std::optional<double> gbps) {
  return gbps ? fmt::format("{:g}G", *gbps) : std::string("speed ?");
}

// A NIC's speed, its state only when it is not the usual (active / up), and where it is cabled:
// short, because a 4,096-NIC page carries it on every cell.
std::string nic_detail(const model::Nic& nic) {
  std::string detail = speed_text(nic.speed_gbps);
  if (nic.state != model::RdmaPortState::Active && nic.state != model::RdmaPortState::Unknown) {
    detail += std::string(" ") + model::to_string(nic.state);
  } else if (nic.state == model::RdmaPortState::Unknown && nic.operstate != model::LinkState::Up &&
             nic.operstate != model::LinkState::Unknown) {
    detail += std::string(" ") + model::to_string(nic.operstate);
  }
  if (!nic.switch_name.empty()) {
    detail += ", to " + nic.switch_name + (nic.switch_port.empty() ? "" : "/" + nic.switch_port);
  }
  return detail;
}

std::string ib_port_detail(const model::IbPort& port, const model::IbFabric& ib) {
  std::string detail = port.width && !port.speed.empty()
                           ? fmt::format("{}x {}", *port.width, port.speed)
                           : std::string(model::to_string(port.state));
  if (const model::IbNode* peer = ib.peer_of(port)) {
    detail += ", to " + peer->name + (port.peer_port ? fmt::format("/{}", *port.peer_port) : "");
  }
  return detail;
}

// The switch head's figures: each metric's worst port (the lowest state, the highest of the rest).
CellFigures aggregate(const std::vector<Draft>& ports) {
  CellFigures out{};
  for (const Draft& port : ports) {
    for (std::size_t m = 0; m < k_metric_count; ++m) {
      const auto& figure = port.figures[m];
      if (!figure) {
        continue;
      }
      const bool lowest =
          m == at(MetricId::State) || m == at(MetricId::SpeedShare) || m == at(MetricId::PcieShare);
      if (!out[m] || (lowest ? figure->value < out[m]->value : figure->value > out[m]->value)) {
        out[m] = figure;
      }
    }
  }
  return out;
}

Draft switch_head(const std::string& name, const std::vector<Draft>& ports) {
  Draft head;
  head.cell.entity = model::switch_entity(name);
  head.cell.kind = CellKind::Switch;
  head.cell.label = name;
  head.cell.detail = fmt::format("{} ports; coloured by its worst port", ports.size());
  head.figures = aggregate(ports);
  return head;
}

class Builder {
 public:
  Builder(const model::Fabric& fabric, const MapOptions& options)
      : m_fabric(fabric), m_options(options) {
    const auto& book = options.thresholds;
    if (auto probe = book.find("ib-congestion"); probe != book.end()) {
      if (auto t = probe->second.find("tick_symbol_times"); t != probe->second.end()) {
        m_tick.tick_symbol_times = t->second;
      }
      if (auto t = probe->second.find("fallback_tick_ns"); t != probe->second.end()) {
        m_tick.fallback_tick_s = t->second * 1e-9;
      }
    }
  }

  std::vector<DraftPanel> panels() {
    std::map<std::string, DraftPanel> leaves;      // by switch name
    std::map<std::string, DraftPanel> lone_hosts;  // NICs with no known switch, by host
    std::map<std::string, int> tier;               // IB switches' fat-tree tier
    std::set<std::string> ib_ca_seen;
    const auto& ib = m_fabric.ib;
    std::map<std::pair<std::string, std::string>, const model::IbNode*> cas;
    for (const auto& node : ib.nodes) {
      if (node.kind == model::IbNodeKind::Ca && !node.host.empty()) {
        cas[{node.host, node.device}] = &node;
      }
    }
    const auto ends = probes::ib::cabled_ends(ib);
    for (const auto& [guid, t] : probes::ib::switch_tiers(ends)) {
      if (const model::IbNode* node = ib.find_node(guid)) {
        tier[node->name] = t;
      }
    }

    DraftPanel hosts;
    hosts.title = "Hosts";
    hosts.role = "hosts";
    for (const auto& host : m_fabric.hosts) {
      Draft cell;
      cell.cell.entity = host.entity();
      cell.cell.kind = CellKind::Host;
      cell.cell.label = host.name;
      cell.cell.detail = fmt::format("{} NICs", host.nics.size());
      if (host.clock.offset_s) {
        cell.cell.detail += fmt::format(", clock offset {:.3f} ms ({})", *host.clock.offset_s * 1e3,
                                        host.clock.source);
      }
      cell.figures = host_figures(host);
      hosts.cells.push_back(std::move(cell));
      for (const auto& nic : host.nics) {
        Draft nic_cell;
        nic_cell.cell.entity = nic.nic_entity();
        if (!nic.netdev.empty() && !nic.device.empty()) {
          nic_cell.cell.netdev = nic.netdev_entity();
        }
        nic_cell.cell.kind = CellKind::Nic;
        nic_cell.cell.label = nic.device.empty() ? nic.netdev : nic.device;
        nic_cell.cell.detail = nic_detail(nic);
        nic_cell.figures = nic_figures(nic, m_options.roce_priority);
        std::string leaf = nic.switch_name;
        if (auto ca = cas.find({host.name, nic.device}); ca != cas.end()) {
          ib_ca_seen.insert(ca->second->name);
          if (const model::IbPort* port =
                  ca->second->find_port(static_cast<std::uint32_t>(nic.port))) {
            add_ib_port_figures(*port, m_tick, nic_cell.figures);
            if (const model::IbNode* peer = ib.peer_of(*port); peer && leaf.empty()) {
              leaf = peer->name;
            }
          }
        }
        place(leaf.empty() ? lone_hosts[host.name] : leaves[leaf], std::move(nic_cell));
        if (leaf.empty()) {
          lone_hosts[host.name].title = host.name;
          lone_hosts[host.name].role = "host";
        }
      }
    }
    // HCAs the subnet shows that no host capture joins.
    for (const auto& node : ib.nodes) {
      if (node.kind != model::IbNodeKind::Ca || ib_ca_seen.count(node.name) > 0) {
        continue;
      }
      for (const auto& port : node.ports) {
        Draft cell;
        cell.cell.entity = node.entity();
        cell.cell.kind = CellKind::Nic;
        cell.cell.label = node.device.empty() ? node.name : node.device;
        cell.cell.detail = ib_port_detail(port, ib) + " (seen only in the subnet views)";
        add_ib_port_figures(port, m_tick, cell.figures);
        const model::IbNode* peer = ib.peer_of(port);
        if (peer != nullptr) {
          place(leaves[peer->name], std::move(cell));
        } else {
          lone_hosts[node.name].title = node.name;
          lone_hosts[node.name].role = "host";
          place(lone_hosts[node.name], std::move(cell));
        }
        break;  // one cell per HCA: its first port
      }
    }

    std::vector<DraftPanel> spines;
    std::set<std::string> switches_done;
    auto fill_switch = [&](const std::string& name, std::vector<Draft> ports) {
      bool is_leaf = leaves.count(name) > 0;
      if (auto t = tier.find(name); t != tier.end() && t->second == 1) {
        is_leaf = true;
      }
      DraftPanel& panel = is_leaf ? leaves[name] : spines.emplace_back();
      panel.title = name;
      panel.role = is_leaf ? "leaf" : "spine";
      panel.head = switch_head(name, ports);
      panel.ports = std::move(ports);
      switches_done.insert(name);
    };
    for (const auto& sw : m_fabric.switches) {
      std::vector<Draft> ports;
      for (const auto& port : sw.ports) {
        Draft cell;
        cell.cell.entity = model::port_entity(sw.name, port.name);
        cell.cell.kind = CellKind::Port;
        cell.cell.label = port.name;
        cell.cell.detail =
            speed_text(port.speed_gbps) +
            (port.oper == model::LinkState::Up ? std::string()
                                               : " " + std::string(model::to_string(port.oper))) +
            (port.peer_device.empty() ? "" : ", to " + port.peer_device + "/" + port.peer_port);
        cell.figures = switch_port_figures(port, m_options.roce_priority);
        ports.push_back(std::move(cell));
      }
      fill_switch(sw.name, std::move(ports));
    }
    for (const auto& node : ib.nodes) {
      if (node.kind == model::IbNodeKind::Ca || switches_done.count(node.name) > 0) {
        continue;
      }
      std::vector<Draft> ports;
      for (const auto& port : node.ports) {
        Draft cell;
        cell.cell.entity = node.port_entity(port.number);
        cell.cell.kind = CellKind::Port;
        cell.cell.label = std::to_string(port.number);
        cell.cell.detail = ib_port_detail(port, ib);
        add_ib_port_figures(port, m_tick, cell.figures);
        ports.push_back(std::move(cell));
      }
      fill_switch(node.name, std::move(ports));
    }
    // A leaf named by LLDP whose switch was not captured: its head, without ports.
    for (auto& [name, panel] : leaves) {
      if (!panel.head) {
        panel.title = name;
        panel.role = "leaf";
        panel.head = switch_head(name, {});
        panel.head->cell.detail = "not captured: named by the NICs' LLDP";
      }
    }
    std::stable_sort(spines.begin(), spines.end(), [&](const DraftPanel& a, const DraftPanel& b) {
      const int ta = tier.count(a.title) ? tier.at(a.title) : 0;
      const int tb = tier.count(b.title) ? tier.at(b.title) : 0;
      return ta != tb ? ta > tb : a.title < b.title;
    });
    std::vector<DraftPanel> out = std::move(spines);
    for (auto& [name, panel] : leaves) {
      out.push_back(std::move(panel));
    }
    for (auto& [name, panel] : lone_hosts) {
      out.push_back(std::move(panel));
    }
    if (!hosts.cells.empty()) {
      out.push_back(std::move(hosts));
    }
    return out;
  }

 private:
  static void place(DraftPanel& panel, Draft cell) { panel.cells.push_back(std::move(cell)); }

  const model::Fabric& m_fabric;
  const MapOptions& m_options;
  TickRule m_tick;
};

template <typename F>
void for_each_draft(std::vector<DraftPanel>& panels, F&& f) {
  for (auto& panel : panels) {
    if (panel.head) {
      f(*panel.head);
    }
    for (auto& d : panel.ports) {
      f(d);
    }
    for (auto& d : panel.cells) {
      f(d);
    }
  }
}

// The metric catalog of this fleet: the metrics some cell holds, each a rate where any cell has
// one (one-sample totals dropped then), else totals.
std::vector<MetricId> settle_metrics(std::vector<DraftPanel>& panels,
                                     std::vector<MapMetric>& metrics) {
  std::array<bool, k_metric_count> any_rate{};
  std::array<bool, k_metric_count> any{};
  for_each_draft(panels, [&](Draft& d) {
    for (std::size_t m = 0; m < k_metric_count; ++m) {
      if (d.figures[m]) {
        any[m] = true;
        any_rate[m] = any_rate[m] || !d.figures[m]->total;
      }
    }
  });
  std::vector<MetricId> kept;
  const auto& defs = metric_defs();
  for (std::size_t m = 0; m < k_metric_count; ++m) {
    if (!any[m]) {
      continue;
    }
    const bool totals = !any_rate[m];
    if (totals && defs[m].total_unit.empty()) {
      continue;
    }
    for_each_draft(panels, [&](Draft& d) {
      if (d.figures[m] && d.figures[m]->total != totals) {
        d.figures[m].reset();
      }
    });
    kept.push_back(static_cast<MetricId>(m));
    MapMetric metric;
    metric.id = std::string(defs[m].id);
    metric.label = std::string(defs[m].label);
    metric.unit = std::string(totals ? defs[m].total_unit : defs[m].unit);
    metric.log_scale = defs[m].log_scale;
    metrics.push_back(std::move(metric));
  }
  return kept;
}

MapCell finish_cell(Draft& d, const std::vector<MetricId>& kept) {
  MapCell cell = std::move(d.cell);
  cell.values.reserve(kept.size());
  for (MetricId id : kept) {
    const auto& figure = d.figures[at(id)];
    cell.values.push_back(figure ? std::optional<double>(figure->value) : std::nullopt);
  }
  return cell;
}

// Each metric's fleet normal (median, of magnitudes for the clock) and maximum, over the cells
// that measure something themselves (not the switch heads, which repeat their worst port).
void fleet_figures(FabricMap& map) {
  for (std::size_t m = 0; m < map.metrics.size(); ++m) {
    std::vector<double> values;
    for (const MapCell* cell : all_cells(map)) {
      if (cell->kind != CellKind::Switch && cell->values[m]) {
        values.push_back(map.metrics[m].id == "clock-offset" ? std::abs(*cell->values[m])
                                                             : *cell->values[m]);
      }
    }
    map.metrics[m].cells = values.size();
    if (!values.empty()) {
      map.metrics[m].max = *std::max_element(values.begin(), values.end());
      map.metrics[m].fleet_normal = probes::median_of(std::move(values));
    }
  }
}

std::optional<std::size_t> position_of(const FabricMap& map, MetricId id) {
  const auto name = metric_defs()[at(id)].id;
  for (std::size_t m = 0; m < map.metrics.size(); ++m) {
    if (map.metrics[m].id == name) {
      return m;
    }
  }
  return std::nullopt;
}

// The cells the causes' entities name: a link marks both its ends.
void mark_culprits(FabricMap& map, const std::vector<std::string>& entities) {
  std::map<std::string, std::vector<MapCell*>, std::less<>> by_name;
  for (auto& panel : map.panels) {
    auto add = [&](MapCell& cell) {
      by_name[cell.entity].push_back(&cell);
      if (!cell.netdev.empty()) {
        by_name[cell.netdev].push_back(&cell);
      }
    };
    if (panel.head) {
      add(*panel.head);
    }
    for (auto& c : panel.ports) {
      add(c);
    }
    for (auto& c : panel.cells) {
      add(c);
    }
  }
  auto mark = [&](const std::string& name) {
    if (auto found = by_name.find(name); found != by_name.end()) {
      for (MapCell* cell : found->second) {
        cell->culprit = true;
      }
      return true;
    }
    return false;
  };
  for (const auto& entity : entities) {
    const auto parts = model::parse_entity(entity);
    if (parts.kind == model::EntityKind::Link) {
      for (const auto& end : {parts.owner, parts.part}) {
        if (!mark(end)) {
          for (const char* kind : {"port:", "netdev:", "nic:"}) {
            if (mark(kind + end)) {
              break;
            }
          }
        }
      }
    } else {
      mark(entity);
    }
  }
}

}  // namespace

const char* to_string(CellKind kind) {
  switch (kind) {
    case CellKind::Nic:
      return "nic";
    case CellKind::Port:
      return "port";
    case CellKind::Switch:
      return "switch";
    case CellKind::Host:
      return "host";
  }
  return "nic";
}

std::vector<const MapCell*> all_cells(const FabricMap& map) {
  std::vector<const MapCell*> cells;
  for (const auto& panel : map.panels) {
    if (panel.head) {
      cells.push_back(&*panel.head);
    }
    for (const auto& c : panel.ports) {
      cells.push_back(&c);
    }
    for (const auto& c : panel.cells) {
      cells.push_back(&c);
    }
  }
  return cells;
}

Result<FabricMap> build_fabric_map(const model::Fabric& fabric, const engine::Diagnosis& diagnosis,
                                   const MapOptions& options) {
  ND_TRY_ASSIGN(MapRules rules, load_map_rules());
  std::vector<DraftPanel> drafts = Builder(fabric, options).panels();
  FabricMap map;
  const bool ib = model::has_infiniband(fabric);
  const bool ethernet = model::has_ethernet(fabric);
  map.fabric = ib && ethernet ? "mixed" : (ib ? "ib" : "roce");
  map.title = fabric.name;
  const std::vector<MetricId> kept = settle_metrics(drafts, map.metrics);
  for (auto& draft : drafts) {
    MapPanel panel;
    panel.title = std::move(draft.title);
    panel.role = std::move(draft.role);
    if (draft.head) {
      panel.head = finish_cell(*draft.head, kept);
    }
    for (auto& d : draft.ports) {
      panel.ports.push_back(finish_cell(d, kept));
    }
    for (auto& d : draft.cells) {
      if (d.cell.kind == CellKind::Nic) {
        ++map.nic_count;
      }
      panel.cells.push_back(finish_cell(d, kept));
    }
    map.port_count += panel.ports.size();
    map.panels.push_back(std::move(panel));
  }
  fleet_figures(map);

  for (const auto& cause : diagnosis.causes) {
    map.culprits.insert(map.culprits.end(), cause.entities.begin(), cause.entities.end());
  }
  mark_culprits(map, map.culprits);  // one index of the cells for every cause
  std::optional<CauseView> view;
  if (!diagnosis.causes.empty()) {
    if (auto found = rules.causes.find(diagnosis.causes.front().id); found != rules.causes.end()) {
      view = found->second;
    }
  }
  auto selected = view ? position_of(map, view->metric) : std::nullopt;
  if (selected) {
    map.reason = fmt::format("{}: {}", diagnosis.causes.front().id, view->why);
  } else {
    selected = position_of(map, rules.default_metric);
    map.reason = diagnosis.causes.empty() ? "no root cause: the fleet's utilisation"
                                          : "the cause has no figure of its own on the map";
  }
  map.selected = selected.value_or(0);
  if (view && view->victims) {
    if (auto m = position_of(map, *view->victims)) {
      const double normal = map.metrics[*m].fleet_normal.value_or(0.0);
      const double floor = std::max(view->victim_floor, view->victim_ratio * normal);
      for (auto& panel : map.panels) {
        for (auto* cells : {&panel.ports, &panel.cells}) {
          for (auto& cell : *cells) {
            if (!cell.culprit && cell.values[*m] && *cell.values[*m] >= floor) {
              cell.victim = true;
              map.victims.push_back(cell.entity);
            }
          }
        }
      }
    }
  }
  return map;
}

}  // namespace netdoctor::report
