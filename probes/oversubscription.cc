// oversubscription: per leaf, downlink capacity (ports to hosts) against uplink capacity (ports
// to switches), and whether the uplinks are saturated.
//
// Reads each switch port's speed and oper state (show interfaces status), its role from LLDP
// (show lldp table: a host behind it makes a downlink, a switch an uplink) and the uplinks'
// transmit utilisation (show interfaces counters). Training fabrics are built non-blocking: in
// a healthy fleet every leaf has as much uplink as downlink capacity, so its down:up ratio is
// 1:1 give or take a port of reporting, and its uplinks are not saturated.
//
// A leaf with more downlink than uplink capacity congests whenever its hosts talk across the
// spine (oversubscribed-leaf): the higher the ratio, the clearer. Uplinks measured well below
// saturation show that this job does not cross the leaf enough to suffer it, so that leaf is
// ruled out; without utilisation figures the ratio alone is a design observation and weighs
// less.
#include <fmt/format.h>

#include <optional>

#include "probes/fleet_probe.h"
#include "probes/switch_topology.h"

namespace netdoctor::probes {
namespace {

// The design a leaf's down:up ratio is measured from (1:1), not a tunable: how far above it a
// leaf may go is max_balanced_ratio.
constexpr double k_non_blocking = 1.0;

// One leaf's capacity: the active ports with a speed on each side.
struct Leaf {
  PortRoles roles;
  double down = 0.0;  // Gb/s
  double up = 0.0;    // Gb/s
  std::size_t up_active = 0;
  std::optional<double> mean_util;  // of the uplinks, 0..1, when any shows utilisation
  double ratio = 0.0;               // down / up
};

struct Survey {
  std::size_t leaves = 0;
  std::vector<Leaf> judged;  // leaves with a known capacity on both sides
};

Leaf leaf_capacity(const PortRoles& roles) {
  Leaf leaf;
  leaf.roles = roles;
  for (const model::SwitchPort* port : roles.downlinks) {
    if (port->speed_gbps && !model::is_down(port->oper)) {
      leaf.down += *port->speed_gbps;
    }
  }
  double util_sum = 0.0;
  std::size_t util_count = 0;
  for (const model::SwitchPort* port : roles.uplinks) {
    if (port->speed_gbps && !model::is_down(port->oper)) {
      leaf.up += *port->speed_gbps;
      ++leaf.up_active;
    }
    if (auto util = tx_utilisation(*port)) {
      util_sum += *util;
      ++util_count;
    }
  }
  if (util_count > 0) {
    leaf.mean_util = util_sum / static_cast<double>(util_count);
  }
  if (leaf.up > 0.0) {
    leaf.ratio = leaf.down / leaf.up;
  }
  return leaf;
}

std::string capacity_text(const Leaf& leaf) {
  return fmt::format("{}: {} Gb/s down ({} ports) vs {} Gb/s up ({} ports) = {:.2g}:1",
                     leaf.roles.sw->name, human(leaf.down), leaf.roles.downlinks.size(),
                     human(leaf.up), leaf.up_active, leaf.ratio);
}

// The examined-and-normal line for a leaf that is not oversubscribed where it matters (a
// balanced ratio, or uplinks measured below saturation); nothing for one that is.
std::optional<std::string> balanced(const Leaf& leaf, const Judgement& judgement) {
  if (leaf.ratio <= judgement.limit("max_balanced_ratio")) {
    return capacity_text(leaf);
  }
  if (leaf.mean_util && *leaf.mean_util < judgement.limit("saturated_utilisation")) {
    return capacity_text(leaf) +
           fmt::format(", uplinks at {} (not saturated)", percent(*leaf.mean_util));
  }
  return std::nullopt;
}

void judge_leaf(const Leaf& leaf, Judgement& judgement) {
  if (auto line = balanced(leaf, judgement)) {
    judgement.rule_out(std::move(*line));
    return;
  }
  double strength =
      saturating(leaf.ratio - k_non_blocking, judgement.limit("excess_half_strength"));
  if (!leaf.mean_util) {
    strength *= judgement.limit("ratio_only_weight");
  }
  const model::Switch& sw = *leaf.roles.sw;
  std::vector<std::string> entities{sw.entity()};
  for (const model::SwitchPort* port : leaf.roles.uplinks) {
    entities.push_back(port_entity(sw.name, port->name));
  }
  const std::string load =
      leaf.mean_util ? fmt::format(", uplinks at {} of line rate", percent(*leaf.mean_util))
                     : std::string(", uplink load unknown");
  judgement.find("oversubscribed-leaf", entities, strength, capacity_text(leaf) + load, leaf.ratio,
                 k_non_blocking, "down:up");
}

class OversubscriptionProbe final : public FleetProbe<Survey> {
 public:
  OversubscriptionProbe()
      : FleetProbe(
            {.id = "oversubscription",
             .description = "Per leaf: downlink vs uplink capacity and uplink load",
             .cost = CostClass::Config,
             .reads = {source::k_show_interfaces_status, source::k_show_lldp_table,
                       source::k_show_interfaces_counters},
             .findings = {"oversubscribed-leaf"},
             .clearing = "capacity-balanced",
             .thresholds = {"max_balanced_ratio", "saturated_utilisation", "excess_half_strength",
                            "ratio_only_weight", "balanced_strength"},
             .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    const std::vector<PortRoles> leaves = leaf_roles(judgement.fabric());
    fleet.leaves = leaves.size();
    for (const auto& roles : leaves) {
      Leaf leaf = leaf_capacity(roles);
      if (leaf.down > 0.0 && leaf.up > 0.0) {
        fleet.judged.push_back(leaf);
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"leaves", "port speeds (show interfaces status, show lldp table)", fleet.judged.size(),
             fleet.leaves}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const Leaf& leaf : fleet.judged) {
      judge_leaf(leaf, judgement);
    }
  }

  // Every leaf was ruled out by judge; the clearing finding lists them.
  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    healthy.summary = "leaf capacity balanced: ";
    for (std::size_t i = 0; i < fleet.judged.size(); ++i) {
      healthy.summary += (i == 0 ? "" : "; ") + balanced(fleet.judged[i], judgement).value_or("");
    }
    healthy.strength = judgement.limit("balanced_strength");
    healthy.ruled_out = false;
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_oversubscription_probe() {
  return std::make_unique<OversubscriptionProbe>();
}

}  // namespace netdoctor::probes
