#include "plan/fabric_sizing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/strings.h"
#include "plan/units.h"

namespace netdoctor::plan {
namespace {

constexpr double k_epsilon = 1e-9;

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}
int ceil_to_int(double value) {
  return static_cast<int>(std::ceil(value - k_epsilon));
}
int round_up(int value, int multiple) {
  return ceil_div(value, multiple) * multiple;
}
Error invalid(std::string message) {
  return make_error(ErrorCode::InvalidArgument, std::move(message));
}
Error refused(std::string message) {
  return make_error(ErrorCode::Refused, std::move(message));
}

Status validate(const FabricInputs& in) {
  if (in.nodes <= 0) {
    return invalid("--nodes must be a positive number of nodes");
  }
  if (in.gpus_per_node <= 0) {
    return invalid("--gpus-per-node must be positive");
  }
  if (!(in.nic_gbps > 0)) {
    return invalid("--nic-gbps must be a positive speed in Gb/s");
  }
  if (in.nics_per_node < 0 || in.leaf_ports <= 0 || in.breakout < 0 || in.nodes_per_leaf < 0 ||
      in.spines < 0 || in.spine_ports < 0) {
    return invalid("port, NIC, breakout, spine and per-leaf counts cannot be negative");
  }
  if (!(in.leaf_port_gbps > 0)) {
    return invalid("--leaf-port-gbps must be a positive speed in Gb/s");
  }
  if (!(in.oversubscription >= 1.0)) {
    return invalid("--oversubscription must be a ratio like 1:1 or 1:3");
  }
  if (!(in.spare >= 0.0 && in.spare < 1.0)) {
    return invalid("--spare must be between 0% and 100% (exclusive)");
  }
  return {};
}

// Fills in the defaults that depend on other inputs; refuses a breakout that cannot carry the NIC.
Result<FabricInputs> resolve(FabricInputs in) {
  ND_TRY(validate(in));
  if (in.nics_per_node == 0) {
    in.nics_per_node = in.gpus_per_node;
  }
  if (in.spine_ports == 0) {
    in.spine_ports = in.leaf_ports;
  }
  if (in.nic_gbps > in.leaf_port_gbps + k_epsilon) {
    return refused(fmt::format("a {} NIC cannot run on a {} leaf port: choose faster leaf ports",
                               gbps(in.nic_gbps), gbps(in.leaf_port_gbps)));
  }
  if (in.breakout == 0) {
    const double lanes = in.leaf_port_gbps / in.nic_gbps;
    const double whole = std::round(lanes);
    in.breakout = std::abs(lanes - whole) < 1e-6 ? static_cast<int>(whole) : 1;
  } else if (in.nic_gbps * in.breakout > in.leaf_port_gbps + k_epsilon) {
    return refused(fmt::format("a {} port split {} ways gives {} per leg, less than the {} NIC",
                               gbps(in.leaf_port_gbps), in.breakout,
                               gbps(in.leaf_port_gbps / in.breakout), gbps(in.nic_gbps)));
  }
  return in;
}

int downlinks_per_leaf(const FabricInputs& in, int nodes_per_leaf) {
  return in.rail_optimized ? nodes_per_leaf : nodes_per_leaf * in.nics_per_node;
}

// Uplinks (at leaf-port speed) a leaf needs to keep the oversubscription target.
int uplinks_needed(const FabricInputs& in, int downlinks) {
  return ceil_to_int(downlinks * in.nic_gbps / (in.oversubscription * in.leaf_port_gbps));
}

LeafDesign make_leaf(const FabricInputs& in, int nodes_per_leaf, int uplinks) {
  LeafDesign leaf;
  leaf.nodes = nodes_per_leaf;
  leaf.downlinks = downlinks_per_leaf(in, nodes_per_leaf);
  leaf.downlink_ports = ceil_div(leaf.downlinks, in.breakout);
  leaf.uplinks = uplinks;
  leaf.ports_used = leaf.downlink_ports + uplinks;
  leaf.spare_ports = in.leaf_ports - leaf.ports_used;
  leaf.spare_fraction = static_cast<double>(leaf.spare_ports) / in.leaf_ports;
  leaf.downlink_gbps = leaf.downlinks * in.nic_gbps;
  leaf.uplink_gbps = uplinks * in.leaf_port_gbps;
  leaf.oversubscription = uplinks > 0 ? leaf.downlink_gbps / leaf.uplink_gbps : 0.0;
  return leaf;
}

int usable_leaf_ports(const FabricInputs& in) {
  return in.leaf_ports - ceil_to_int(in.spare * in.leaf_ports);
}

int groups_for(const FabricInputs& in, int nodes_per_leaf) {
  return ceil_div(in.nodes, nodes_per_leaf);
}

int leaves_for(const FabricInputs& in, int groups) {
  return in.rail_optimized ? groups * in.nics_per_node : groups;
}

// The most nodes per leaf (per rail group) that fit the leaf with the spare target kept.
Result<int> max_nodes_per_leaf(const FabricInputs& in) {
  const int usable = usable_leaf_ports(in);
  const bool one_leaf_possible = !in.rail_optimized || in.nics_per_node == 1;
  if (one_leaf_possible && ceil_div(downlinks_per_leaf(in, in.nodes), in.breakout) <= usable) {
    return in.nodes;  // everything on one leaf, no spine tier
  }
  int best = 0;
  for (int npl = 1; npl <= in.nodes; ++npl) {
    const int down = downlinks_per_leaf(in, npl);
    const bool single_leaf = leaves_for(in, groups_for(in, npl)) == 1;
    const int up = single_leaf ? 0 : uplinks_needed(in, down);
    if (ceil_div(down, in.breakout) + up > usable) {
      break;
    }
    best = npl;
  }
  if (best == 0) {
    const int down = downlinks_per_leaf(in, 1);
    return refused(fmt::format(
        "one node needs {} leaf ports ({} downlinks + {} uplinks at {}) but a {}-port leaf "
        "keeps only {} usable with {:g}% spare: needs bigger switches",
        ceil_div(down, in.breakout) + uplinks_needed(in, down), down, uplinks_needed(in, down),
        format_ratio(in.oversubscription), in.leaf_ports, usable, in.spare * 100));
  }
  return best;
}

std::string third_tier_reason(const FabricInputs& in, int leaves, int uplinks) {
  return fmt::format(
      "{} leaves x {} uplinks = {} spine ports at {} oversubscription, but every leaf must reach "
      "every spine and {}-port spines take at most {} leaves: needs a third tier / bigger "
      "switches",
      leaves, uplinks, leaves * uplinks, format_ratio(in.oversubscription), in.spine_ports,
      in.spine_ports);
}

// Picks the spine count and the uplinks per leaf, a multiple of it so that ECMP spreads
// evenly. Auto: the fewest spines (at least two, for redundancy) whose ports hold every leaf,
// rounding the uplinks up rather than settling for an odd spine count.
Status choose_spines(const FabricInputs& in, int leaves, int downlink_ports, int uplinks_min,
                     int& spines, int& uplinks) {
  uplinks_min = std::max(uplinks_min, 1);
  const auto fits_spines = [&](int s, int u) { return leaves * (u / s) <= in.spine_ports; };
  if (in.spines > 0) {
    spines = in.spines;
    uplinks = round_up(uplinks_min, spines);
    if (!fits_spines(spines, uplinks)) {
      return refused(fmt::format("{} spines of {} ports cannot take {} leaves x {} uplinks: {}",
                                 spines, in.spine_ports, leaves, uplinks,
                                 third_tier_reason(in, leaves, uplinks)));
    }
    return {};
  }
  const int lowest = std::max(2, ceil_div(leaves * uplinks_min, in.spine_ports));
  const int usable = usable_leaf_ports(in);
  // First pass keeps the spare target; the second only needs the ports to exist.
  for (const int limit : {usable, in.leaf_ports}) {
    for (int s = lowest; s <= std::max(lowest, uplinks_min); ++s) {
      const int u = round_up(uplinks_min, s);
      if (downlink_ports + u <= limit && fits_spines(s, u)) {
        spines = s;
        uplinks = u;
        return {};
      }
    }
  }
  return refused(third_tier_reason(in, leaves, uplinks_min));
}

void describe(FabricDesign& d) {
  const FabricInputs& in = d.inputs;
  d.assumptions.push_back(
      in.nics_per_node == in.gpus_per_node
          ? fmt::format("one NIC per GPU: {} NICs per node", in.nics_per_node)
          : fmt::format("{} NICs per node for {} GPUs", in.nics_per_node, in.gpus_per_node));
  d.assumptions.push_back(
      fmt::format("every NIC takes its own leaf downlink at {}", gbps(in.nic_gbps)));
  d.assumptions.push_back(
      in.breakout > 1
          ? fmt::format("breakout: one {} leaf port splits into {} x {} downlinks",
                        gbps(in.leaf_port_gbps), in.breakout, gbps(in.leaf_port_gbps / in.breakout))
          : fmt::format("no breakout: each NIC uses a whole {} leaf port",
                        gbps(in.leaf_port_gbps)));
  d.assumptions.push_back(
      fmt::format("uplinks run at the leaf port speed, {}", gbps(in.leaf_port_gbps)));
  d.assumptions.push_back(
      fmt::format("oversubscription = downlink capacity : uplink capacity of a leaf; target {}",
                  format_ratio(in.oversubscription)));
  d.assumptions.push_back(fmt::format(
      "spines have {} ports of {}; two tiers, every leaf has the same number of links to every "
      "spine (ECMP)",
      in.spine_ports, gbps(in.leaf_port_gbps)));
  d.assumptions.push_back(fmt::format(
      "the {:g}% spare target applies to leaf ports; spine spare is reported, not enforced",
      in.spare * 100));
  d.assumptions.push_back(
      "every leaf is provisioned for a full complement of nodes (uplinks included)");
  if (in.rail_optimized) {
    d.assumptions.push_back(fmt::format(
        "rail-optimized: NIC i of every node in a rail group goes to leaf i of that group "
        "({} leaves per group, one downlink per node on each)",
        in.nics_per_node));
  }
  if (!in.rail_optimized && in.nics_per_node > 1) {
    d.notes.push_back(fmt::format(
        "downlinks are counted per NIC: {} nodes x {} NICs = {} x {} per leaf. Counting one "
        "port per node ({} x {}, as the source article's section 3 does for its 32-node "
        "example) undercounts the leaf's downlinks, its uplinks and the spine ports by {}x",
        d.leaf.nodes, in.nics_per_node, d.leaf.downlinks, gbps(in.nic_gbps), d.leaf.nodes,
        gbps(in.nic_gbps), in.nics_per_node));
  }
  if (in.rail_optimized && in.nics_per_node > 1) {
    d.notes.push_back(fmt::format(
        "a rail leaf has one downlink per node, but each group of {} nodes needs {} rail "
        "leaves: {} downlinks in all, not {}",
        d.leaf.nodes, in.nics_per_node, d.leaf.nodes * in.nics_per_node, d.leaf.nodes));
  }
  if (d.nodes_on_last_leaf != d.leaf.nodes) {
    d.notes.push_back(
        fmt::format("the last {} holds {} of its {} nodes; its free ports are room "
                    "to grow",
                    in.rail_optimized ? "rail group" : "leaf", d.nodes_on_last_leaf, d.leaf.nodes));
  }
  if (!d.spare_met) {
    d.warnings.push_back(fmt::format(
        "each leaf keeps {} of {} ports spare ({:.1f}%), below the {:g}% target: fewer nodes "
        "per leaf (at most {} fit with the target kept) or bigger switches",
        d.leaf.spare_ports, in.leaf_ports, d.leaf.spare_fraction * 100, in.spare * 100,
        max_nodes_per_leaf(in).value_or(0)));
  }
  if (d.leaf.uplinks > 0 && d.leaf.oversubscription > in.oversubscription + k_epsilon) {
    d.warnings.push_back(fmt::format("resulting oversubscription {} is above the {} target",
                                     format_ratio(d.leaf.oversubscription),
                                     format_ratio(in.oversubscription)));
  }
}

}  // namespace

Result<double> parse_oversubscription(std::string_view text) {
  const auto parts = split(trim(text), ':');
  if (parts.size() == 1) {
    const auto value = parse_double(parts[0]);
    if (!value || *value < 1.0) {
      return invalid(
          fmt::format("oversubscription '{}' is not a ratio like 1:1, 1:3 or 3:1", text));
    }
    return *value;
  }
  if (parts.size() != 2) {
    return invalid(fmt::format("oversubscription '{}' is not a ratio like 1:1, 1:3 or 3:1", text));
  }
  const auto a = parse_double(parts[0]);
  const auto b = parse_double(parts[1]);
  if (!a || !b || *a <= 0 || *b <= 0) {
    return invalid(fmt::format("oversubscription '{}' is not a ratio like 1:1, 1:3 or 3:1", text));
  }
  return std::max(*a, *b) / std::min(*a, *b);
}

Result<double> parse_fraction(std::string_view text) {
  std::string_view body = trim(text);
  const bool percent = ends_with(body, "%");
  if (percent) {
    body.remove_suffix(1);
  }
  const auto value = parse_double(trim(body));
  if (!value || *value < 0) {
    return invalid(fmt::format("'{}' is not a fraction like 20% or 0.2", text));
  }
  return (percent || *value > 1.0) ? *value / 100.0 : *value;
}

std::string format_ratio(double ratio) {
  const double rounded = std::round(ratio * 100) / 100;
  return fmt::format("{:g}:1", rounded);
}

Result<FabricDesign> size_fabric(const FabricInputs& raw) {
  ND_TRY_ASSIGN(const FabricInputs in, resolve(raw));
  int npl = in.nodes_per_leaf;
  if (npl == 0) {
    ND_TRY_ASSIGN(const int most, max_nodes_per_leaf(in));
    npl = ceil_div(in.nodes, groups_for(in, most));  // balance the leaves
  }
  const int groups = groups_for(in, npl);
  FabricDesign d;
  d.inputs = in;
  d.gpus = in.nodes * in.gpus_per_node;
  d.nics = in.nodes * in.nics_per_node;
  d.rail_groups = in.rail_optimized ? groups : 0;
  d.leaves = leaves_for(in, groups);
  d.nodes_on_last_leaf = in.nodes - (groups - 1) * npl;
  const int down = downlinks_per_leaf(in, npl);
  int uplinks = 0;
  if (d.leaves > 1) {
    ND_TRY(choose_spines(in, d.leaves, ceil_div(down, in.breakout), uplinks_needed(in, down),
                         d.spines, uplinks));
  }
  d.leaf = make_leaf(in, npl, uplinks);
  if (d.leaf.ports_used > in.leaf_ports) {
    return refused(fmt::format(
        "a leaf with {} nodes needs {} ports ({} downlinks on {} ports + {} uplinks) but has "
        "{}: fewer nodes per leaf or bigger switches",
        npl, d.leaf.ports_used, d.leaf.downlinks, d.leaf.downlink_ports, uplinks, in.leaf_ports));
  }
  d.spare_met = d.leaf.spare_fraction + k_epsilon >= in.spare;
  if (d.spines > 0) {
    d.links_per_leaf_per_spine = uplinks / d.spines;
    d.spine_ports_used = d.leaves * d.links_per_leaf_per_spine;
    d.spine_spare_ports = in.spine_ports - d.spine_ports_used;
    d.max_leaves_two_tier = in.spine_ports * d.spines / uplinks;
  }
  d.host_cables = d.nics;
  const int full_leaves = d.leaves - (in.rail_optimized ? in.nics_per_node : 1);
  const int last_downlinks = downlinks_per_leaf(in, d.nodes_on_last_leaf);
  const int last_leaves = d.leaves - full_leaves;
  d.leaf_down_ports =
      full_leaves * d.leaf.downlink_ports + last_leaves * ceil_div(last_downlinks, in.breakout);
  d.breakout_cables = in.breakout > 1 ? d.leaf_down_ports : 0;
  d.leaf_spine_cables = d.leaves * uplinks;
  d.optics = d.nics + d.leaf_down_ports + 2 * d.leaf_spine_cables;
  describe(d);
  return d;
}

GrowthStep plan_growth(const FabricDesign& current, int nodes) {
  GrowthStep step;
  step.nodes = nodes;
  FabricInputs in = current.inputs;
  in.nodes = nodes;
  in.nodes_per_leaf = current.leaf.nodes;
  Result<FabricDesign> grown = make_error(ErrorCode::Internal, "not tried");
  if (current.spines == 0) {
    in.spines = 0;
    grown = size_fabric(in);
  } else {
    // Keep the spines, add more only when their ports run out.
    for (int s = current.spines; s <= std::max(current.spines, current.leaf.uplinks); ++s) {
      in.spines = s;
      grown = size_fabric(in);
      if (grown.ok()) {
        break;
      }
    }
  }
  if (!grown.ok()) {
    step.refusal = grown.error().message;
    step.summary.push_back(
        fmt::format("{} nodes cannot be reached with this design: {}", nodes, step.refusal));
    return step;
  }
  step.possible = true;
  step.design = std::move(grown).value();
  const FabricDesign& g = step.design;
  step.added_leaves = g.leaves - current.leaves;
  step.added_spines = g.spines - current.spines;
  step.added_host_cables = g.host_cables - current.host_cables;
  step.added_leaf_spine_cables = g.leaf_spine_cables - current.leaf_spine_cables;
  step.added_optics = g.optics - current.optics;
  step.recable_existing_uplinks =
      current.spines > 0 && (g.links_per_leaf_per_spine != current.links_per_leaf_per_spine ||
                             g.leaf.uplinks != current.leaf.uplinks);
  step.summary.push_back(fmt::format("{} nodes: +{} leaves ({} in all), +{} spines ({} in all)",
                                     nodes, step.added_leaves, g.leaves, step.added_spines,
                                     g.spines));
  step.summary.push_back(fmt::format("+{} host cables, +{} leaf-spine cables, +{} optics",
                                     step.added_host_cables, step.added_leaf_spine_cables,
                                     step.added_optics));
  if (g.spines > 0) {
    step.summary.push_back(fmt::format("each spine then uses {} of {} ports", g.spine_ports_used,
                                       g.inputs.spine_ports));
  }
  if (current.spines == 0 && g.spines > 0) {
    step.summary.push_back("adds a spine tier: every existing leaf needs uplinks");
  } else if (step.recable_existing_uplinks) {
    step.summary.push_back(
        fmt::format("re-cable existing leaves: links per leaf per spine go from {} to {}",
                    current.links_per_leaf_per_spine, g.links_per_leaf_per_spine));
  } else if (g.spines > 0) {
    step.summary.push_back("existing leaves and their uplinks stay as they are");
  }
  return step;
}

}  // namespace netdoctor::plan
