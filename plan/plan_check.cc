#include "plan/plan_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "base/strings.h"
#include "model/entity_names.h"
#include "plan/units.h"

namespace netdoctor::plan {
namespace {

constexpr double k_tolerance = 1e-6;

enum class Role { Unknown, Host, Switch };

// One switch port as the topology sees it, from both ends' LLDP and the hosts' LLDP.
struct PortView {
  const model::SwitchPort* port = nullptr;
  Role role = Role::Unknown;
  std::string peer;                // switch or host name
  std::string peer_port;           // its port or netdev
  std::optional<double> nic_gbps;  // the host NIC's own speed, when the host saw this port
  bool up() const { return role != Role::Unknown && !model::is_down(port->oper); }
  std::optional<double> speed() const { return port->speed_gbps ? port->speed_gbps : nic_gbps; }
};

struct SwitchView {
  const model::Switch* sw = nullptr;
  std::vector<PortView> ports;
  bool has_hosts() const {
    return std::any_of(ports.begin(), ports.end(),
                       [](const PortView& p) { return p.up() && p.role == Role::Host; });
  }
  bool has_switches() const {
    return std::any_of(ports.begin(), ports.end(),
                       [](const PortView& p) { return p.up() && p.role == Role::Switch; });
  }
  PortView* find(const std::string& name) {
    for (PortView& p : ports) {
      if (p.port->name == name) {
        return &p;
      }
    }
    return nullptr;
  }
};

// LLDP may report "spine1.dc.example" for the switch captured as "spine1".
std::string short_name(std::string_view name) {
  const std::string lower = to_lower(trim(name));
  return lower.substr(0, lower.find('.'));
}

bool same_speed(double a, double b) {
  return std::abs(a - b) < 1e-3;
}

class Checker {
 public:
  Checker(const model::Fabric& fabric, const CheckTargets& targets)
      : m_fabric(fabric), m_targets(targets) {}

  CheckReport run() {
    m_report.fabric = m_fabric.name;
    m_report.targets = m_targets;
    build_views();
    classify();
    measure_leaves();
    measure_spines();
    check_targets();
    check_speeds();
    if (m_targets.plan) {
      check_plan(*m_targets.plan);
    }
    std::stable_sort(m_report.findings.begin(), m_report.findings.end(),
                     [](const CheckFinding& a, const CheckFinding& b) {
                       return static_cast<int>(a.severity) < static_cast<int>(b.severity);
                     });
    return std::move(m_report);
  }

 private:
  void add(Severity severity, std::string code, std::string entity, std::string message) {
    m_report.findings.push_back({severity, std::move(code), std::move(entity), std::move(message)});
  }

  SwitchView* find_switch(std::string_view name) {
    const auto it = m_by_name.find(short_name(name));
    return it == m_by_name.end() ? nullptr : &m_views[it->second];
  }

  void build_views() {
    m_views.reserve(m_fabric.switches.size());
    for (const model::Switch& sw : m_fabric.switches) {
      SwitchView view;
      view.sw = &sw;
      for (const model::SwitchPort& port : sw.ports) {
        view.ports.push_back(PortView{&port, Role::Unknown, {}, {}, std::nullopt});
      }
      m_by_name.emplace(short_name(sw.name), m_views.size());
      m_views.push_back(std::move(view));
    }
    // The switch's own LLDP table first.
    for (SwitchView& view : m_views) {
      for (PortView& p : view.ports) {
        if (p.port->peer_device.empty()) {
          continue;
        }
        const SwitchView* peer = find_switch(p.port->peer_device);
        p.role = peer ? Role::Switch : Role::Host;
        p.peer = peer ? peer->sw->name : p.port->peer_device;
        p.peer_port = p.port->peer_port;
      }
    }
    // Then what the other end saw: a spine's LLDP names the leaf port, a host's names its port.
    for (SwitchView& view : m_views) {
      for (const PortView& p : view.ports) {
        if (p.role != Role::Switch) {
          continue;
        }
        SwitchView* other = find_switch(p.peer);
        PortView* back = other ? other->find(p.peer_port) : nullptr;
        if (back && back->role == Role::Unknown) {
          back->role = Role::Switch;
          back->peer = view.sw->name;
          back->peer_port = p.port->name;
        }
      }
    }
    for (const model::Host& host : m_fabric.hosts) {
      for (const model::Nic& nic : host.nics) {
        if (nic.switch_name.empty() || nic.switch_port.empty()) {
          continue;
        }
        SwitchView* sw = find_switch(nic.switch_name);
        PortView* p = sw ? sw->find(nic.switch_port) : nullptr;
        if (!p) {
          if (!sw) {
            m_uncaptured.insert(nic.switch_name);
          }
          continue;
        }
        if (p->role == Role::Unknown) {
          p->role = Role::Host;
          p->peer = host.name;
          p->peer_port = nic.netdev.empty() ? nic.device : nic.netdev;
        }
        if (p->role == Role::Host) {
          p->nic_gbps = nic.speed_gbps;
          m_nic_entity[p] = nic.netdev.empty() ? nic.nic_entity() : nic.netdev_entity();
        }
      }
    }
    for (const std::string& name : m_uncaptured) {
      m_report.notes.push_back(fmt::format(
          "hosts are cabled to switch {} but it was not captured: its figures are missing", name));
    }
  }

  void classify() {
    for (size_t i = 0; i < m_views.size(); ++i) {
      if (m_views[i].has_hosts()) {
        m_leaves.push_back(i);
      } else if (m_views[i].has_switches()) {
        m_spines.push_back(i);
      } else {
        m_report.other_switches.push_back(m_views[i].sw->name);
      }
    }
    for (const std::string& name : m_report.other_switches) {
      m_report.notes.push_back(fmt::format(
          "switch {} has no neighbour in the capture (no LLDP table, or nothing up): not "
          "counted as leaf or spine",
          name));
    }
  }

  bool is_spine(const std::string& name) const {
    return std::any_of(m_spines.begin(), m_spines.end(),
                       [&](size_t i) { return m_views[i].sw->name == name; });
  }

  void measure_leaves() {
    for (size_t index : m_leaves) {
      const SwitchView& view = m_views[index];
      LeafFigures leaf;
      leaf.name = view.sw->name;
      leaf.ports_listed = static_cast<int>(view.ports.size());
      std::set<std::string> spines;
      int unknown_speed = 0;
      int unidentified = 0;
      for (const PortView& p : view.ports) {
        if (!p.up()) {
          // An up port without any neighbour is neither spare nor countable.
          if (p.role == Role::Unknown && p.port->oper == model::LinkState::Up) {
            ++unidentified;
          } else {
            ++leaf.ports_unused;
          }
          continue;
        }
        const std::optional<double> speed = p.speed();
        unknown_speed += speed ? 0 : 1;
        if (p.role == Role::Host) {
          ++leaf.downlinks;
          leaf.downlink_gbps += speed.value_or(0);
        } else if (is_spine(p.peer)) {
          ++leaf.uplinks;
          leaf.uplink_gbps += speed.value_or(0);
          spines.insert(p.peer);
        } else {
          m_report.notes.push_back(fmt::format(
              "{} links leaf {} to leaf {}: a peer link, not counted as uplink",
              model::link_entity_keeping_kinds(model::port_entity(leaf.name, p.port->name),
                                               model::port_entity(p.peer, p.peer_port)),
              leaf.name, p.peer));
        }
      }
      if (unknown_speed > 0) {
        m_report.notes.push_back(
            fmt::format("{} ports of {} in use have no known speed: the capacities leave them out",
                        unknown_speed, leaf.name));
      }
      if (unidentified > 0) {
        m_report.notes.push_back(
            fmt::format("{} ports of {} are up with no LLDP neighbour on either end: not counted",
                        unidentified, leaf.name));
      }
      leaf.spines.assign(spines.begin(), spines.end());
      if (leaf.uplink_gbps > 0) {
        leaf.oversubscription = leaf.downlink_gbps / leaf.uplink_gbps;
      }
      measure_spare(view, leaf);
      m_report.leaves.push_back(std::move(leaf));
    }
  }

  // Spare from the plan's port count when there is one; otherwise from unused ports the
  // capture lists. A capture that lists only ports in use cannot tell the chassis size.
  void measure_spare(const SwitchView& view, LeafFigures& leaf) const {
    if (m_targets.plan) {
      const FabricInputs& in = m_targets.plan->inputs;
      double used = 0;
      for (const PortView& p : view.ports) {
        if (p.up()) {
          const double speed = p.speed().value_or(in.leaf_port_gbps);
          used += speed + k_tolerance < in.leaf_port_gbps ? 1.0 / in.breakout : 1.0;
        }
      }
      leaf.spare_fraction = (in.leaf_ports - std::ceil(used - k_tolerance)) / in.leaf_ports;
      leaf.spare_basis = fmt::format(
          "{} of the plan's {} ports in use (ports slower than {} count 1/{} of a port)",
          std::ceil(used - k_tolerance), in.leaf_ports, gbps(in.leaf_port_gbps), in.breakout);
      return;
    }
    if (leaf.ports_unused > 0) {
      leaf.spare_fraction = static_cast<double>(leaf.ports_unused) / leaf.ports_listed;
      leaf.spare_basis =
          fmt::format("{} of the {} listed ports unused", leaf.ports_unused, leaf.ports_listed);
      return;
    }
    leaf.spare_basis = fmt::format(
        "all {} listed ports are in use and the capture does not give the switch's port count: "
        "give a plan with leaf_ports to check spare",
        leaf.ports_listed);
  }

  void measure_spines() {
    for (size_t index : m_spines) {
      const SwitchView& view = m_views[index];
      SpineFigures spine;
      spine.name = view.sw->name;
      std::set<std::string> leaves;
      for (const PortView& p : view.ports) {
        if (p.up() && p.role == Role::Switch) {
          ++spine.links;
          spine.gbps += p.speed().value_or(0);
          leaves.insert(p.peer);
        }
      }
      spine.leaves.assign(leaves.begin(), leaves.end());
      m_report.spines.push_back(std::move(spine));
    }
  }

  void check_targets() {
    const double target =
        m_targets.plan ? m_targets.plan->inputs.oversubscription : m_targets.oversubscription;
    const double spare = m_targets.plan ? m_targets.plan->inputs.spare : m_targets.spare;
    for (const LeafFigures& leaf : m_report.leaves) {
      const std::string figures =
          fmt::format("{} down ({}) : {} up ({})", leaf.downlinks, tbps(leaf.downlink_gbps),
                      leaf.uplinks, tbps(leaf.uplink_gbps));
      if (!leaf.oversubscription && !m_spines.empty()) {
        add(Severity::Problem, "no-uplinks", leaf.entity(),
            fmt::format("leaf {} has {} and no working uplink to a spine", leaf.name, figures));
      } else if (leaf.oversubscription && *leaf.oversubscription > target + k_tolerance) {
        add(Severity::Problem, "oversubscribed", leaf.entity(),
            fmt::format("leaf {} is oversubscribed {}: {}, above the {} target", leaf.name,
                        format_ratio(*leaf.oversubscription), figures, format_ratio(target)));
      }
      check_spine_reach(leaf);
      if (leaf.spare_fraction && *leaf.spare_fraction + k_tolerance < spare) {
        add(Severity::Warning, "spare-below-target", leaf.entity(),
            fmt::format("leaf {} keeps {:.1f}% ports spare ({}), below the {:g}% target", leaf.name,
                        *leaf.spare_fraction * 100, leaf.spare_basis, spare * 100));
      }
    }
  }

  // Two tiers: every leaf reaches every spine with the same number of links (ECMP).
  void check_spine_reach(const LeafFigures& leaf) {
    std::vector<std::string> missing;
    for (const SpineFigures& spine : m_report.spines) {
      if (!std::binary_search(leaf.spines.begin(), leaf.spines.end(), spine.name)) {
        missing.push_back(spine.name);
      }
    }
    if (!missing.empty() && !leaf.spines.empty()) {
      add(Severity::Problem, "missing-link", leaf.entity(),
          fmt::format("leaf {} has no link to {} (it reaches {}): in a two-tier fabric every "
                      "leaf links to every spine",
                      leaf.name, join(missing, ", "), join(leaf.spines, ", ")));
    }
    const SwitchView* view = find_switch_const(leaf.name);
    std::map<std::string, int> per_spine;
    for (const PortView& p : view->ports) {
      if (p.up() && p.role == Role::Switch && is_spine(p.peer)) {
        ++per_spine[p.peer];
      }
    }
    const auto [lo, hi] =
        std::minmax_element(per_spine.begin(), per_spine.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; });
    if (lo != per_spine.end() && lo->second != hi->second) {
      add(Severity::Warning, "uneven-uplinks", leaf.entity(),
          fmt::format("leaf {} has {} link(s) to {} but {} to {}: ECMP spreads flows unevenly",
                      leaf.name, lo->second, lo->first, hi->second, hi->first));
    }
  }

  const SwitchView* find_switch_const(const std::string& name) const {
    const auto it = m_by_name.find(short_name(name));
    return it == m_by_name.end() ? nullptr : &m_views[it->second];
  }

  void check_speeds() {
    std::set<std::string> seen;
    for (const SwitchView& view : m_views) {
      for (const PortView& p : view.ports) {
        if (!p.up() || !p.port->speed_gbps) {
          continue;
        }
        const std::string here = model::port_entity(view.sw->name, p.port->name);
        if (p.role == Role::Switch) {
          const SwitchView* other = find_switch_const(p.peer);
          const model::SwitchPort* back = other ? other->sw->find_port(p.peer_port) : nullptr;
          const std::string link =
              model::link_entity_keeping_kinds(here, model::port_entity(p.peer, p.peer_port));
          if (back && back->speed_gbps && !same_speed(*back->speed_gbps, *p.port->speed_gbps) &&
              seen.insert(link).second) {
            add(Severity::Problem, "speed-mismatch", link,
                fmt::format("{} runs at {} on {} but {} on {}", link, gbps(*p.port->speed_gbps),
                            here, gbps(*back->speed_gbps),
                            model::port_entity(p.peer, p.peer_port)));
          }
        } else if (p.role == Role::Host && p.nic_gbps &&
                   !same_speed(*p.nic_gbps, *p.port->speed_gbps)) {
          const auto nic = m_nic_entity.find(&p);
          const std::string other = nic == m_nic_entity.end() ? p.peer : nic->second;
          add(Severity::Problem, "speed-mismatch", model::link_entity_keeping_kinds(here, other),
              fmt::format("{} runs at {} but the host NIC {} reports {}", here,
                          gbps(*p.port->speed_gbps), other, gbps(*p.nic_gbps)));
        }
      }
    }
  }

  void check_plan(const FabricDesign& plan) {
    const FabricInputs& in = plan.inputs;
    const int leaves = static_cast<int>(m_report.leaves.size());
    const int spines = static_cast<int>(m_report.spines.size());
    if (leaves != plan.leaves) {
      add(leaves < plan.leaves ? Severity::Warning : Severity::Info, "leaf-count", "",
          fmt::format("{} leaves found, the plan has {}", leaves, plan.leaves));
    }
    if (spines != plan.spines) {
      add(Severity::Warning, "spine-count", "",
          fmt::format("{} spines found, the plan has {}", spines, plan.spines));
    }
    for (const LeafFigures& leaf : m_report.leaves) {
      if (leaf.uplinks < plan.leaf.uplinks) {
        add(Severity::Problem, "missing-link", leaf.entity(),
            fmt::format("leaf {} has {} uplinks, the plan has {} ({} to each of {} spines)",
                        leaf.name, leaf.uplinks, plan.leaf.uplinks, plan.links_per_leaf_per_spine,
                        plan.spines));
      } else if (leaf.uplinks > plan.leaf.uplinks) {
        add(Severity::Info, "extra-link", leaf.entity(),
            fmt::format("leaf {} has {} uplinks, more than the plan's {}", leaf.name, leaf.uplinks,
                        plan.leaf.uplinks));
      }
      if (leaf.downlinks > plan.leaf.downlinks) {
        add(Severity::Warning, "extra-link", leaf.entity(),
            fmt::format("leaf {} has {} host links, more than the plan's {} ({} nodes)", leaf.name,
                        leaf.downlinks, plan.leaf.downlinks, plan.leaf.nodes));
      }
      const SwitchView* view = find_switch_const(leaf.name);
      for (const PortView& p : view->ports) {
        if (!p.up() || !p.port->speed_gbps) {
          continue;
        }
        const bool host = p.role == Role::Host;
        if (!host && !is_spine(p.peer)) {
          continue;
        }
        const double want = host ? in.nic_gbps : in.leaf_port_gbps;
        if (!same_speed(*p.port->speed_gbps, want)) {
          add(Severity::Problem, "speed-mismatch", model::port_entity(leaf.name, p.port->name),
              fmt::format("{} {} runs at {}, the plan has {} {}", host ? "host link" : "uplink",
                          model::port_entity(leaf.name, p.port->name), gbps(*p.port->speed_gbps),
                          host ? "NICs at" : "uplinks at", gbps(want)));
        }
      }
    }
  }

  const model::Fabric& m_fabric;
  const CheckTargets& m_targets;
  CheckReport m_report;
  std::vector<SwitchView> m_views;
  std::map<std::string, size_t> m_by_name;
  std::vector<size_t> m_leaves;
  std::vector<size_t> m_spines;
  std::set<std::string> m_uncaptured;
  std::map<const PortView*, std::string> m_nic_entity;
};

}  // namespace

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::Problem:
      return "problem";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "info";
  }
  return "info";
}

int CheckReport::problems() const {
  return static_cast<int>(std::count_if(findings.begin(), findings.end(), [](const auto& f) {
    return f.severity == Severity::Problem;
  }));
}

int CheckReport::warnings() const {
  return static_cast<int>(std::count_if(findings.begin(), findings.end(), [](const auto& f) {
    return f.severity == Severity::Warning;
  }));
}

CheckReport check_fabric(const model::Fabric& fabric, const CheckTargets& targets) {
  return Checker(fabric, targets).run();
}

}  // namespace netdoctor::plan
