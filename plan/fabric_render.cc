#include <fmt/format.h>

#include <cmath>

#include "plan/render.h"
#include "plan/units.h"

namespace netdoctor::plan {
namespace {

// "32 x 400G (= 64 x 200G)" when the faster ports are whole multiples of the NIC speed.
std::string ports_at(int count, double speed, double nic_speed) {
  std::string out = fmt::format("{} x {}", count, gbps(speed));
  const double factor = speed / nic_speed;
  if (factor > 1.0 && std::abs(factor - std::round(factor)) < 1e-9) {
    out +=
        fmt::format(" (= {} x {})", count * static_cast<int>(std::round(factor)), gbps(nic_speed));
  }
  return out;
}

void list(std::string& out, const char* title, const std::vector<std::string>& items) {
  if (items.empty()) {
    return;
  }
  out += fmt::format("\n{}:\n", title);
  for (const std::string& item : items) {
    out += fmt::format("  - {}\n", item);
  }
}

nlohmann::json leaf_json(const LeafDesign& leaf) {
  return {{"nodes", leaf.nodes},
          {"downlinks", leaf.downlinks},
          {"downlink_ports", leaf.downlink_ports},
          {"uplinks", leaf.uplinks},
          {"ports_used", leaf.ports_used},
          {"spare_ports", leaf.spare_ports},
          {"spare_fraction", leaf.spare_fraction},
          {"downlink_gbps", leaf.downlink_gbps},
          {"uplink_gbps", leaf.uplink_gbps},
          {"oversubscription", leaf.oversubscription}};
}

nlohmann::json design_json(const FabricDesign& d) {
  const FabricInputs& in = d.inputs;
  return {{"inputs",
           {{"nodes", in.nodes},
            {"gpus_per_node", in.gpus_per_node},
            {"nic_gbps", in.nic_gbps},
            {"nics_per_node", in.nics_per_node},
            {"leaf_ports", in.leaf_ports},
            {"leaf_port_gbps", in.leaf_port_gbps},
            {"breakout", in.breakout},
            {"oversubscription", in.oversubscription},
            {"spare", in.spare},
            {"rail_optimized", in.rail_optimized},
            {"nodes_per_leaf", in.nodes_per_leaf},
            {"spines", in.spines},
            {"spine_ports", in.spine_ports}}},
          {"gpus", d.gpus},
          {"nics", d.nics},
          {"rail_groups", d.rail_groups},
          {"leaves", d.leaves},
          {"nodes_on_last_leaf", d.nodes_on_last_leaf},
          {"leaf", leaf_json(d.leaf)},
          {"spines", d.spines},
          {"links_per_leaf_per_spine", d.links_per_leaf_per_spine},
          {"spine_ports_used", d.spine_ports_used},
          {"spine_spare_ports", d.spine_spare_ports},
          {"max_leaves_two_tier", d.max_leaves_two_tier},
          {"host_cables", d.host_cables},
          {"leaf_down_ports", d.leaf_down_ports},
          {"breakout_cables", d.breakout_cables},
          {"leaf_spine_cables", d.leaf_spine_cables},
          {"optics", d.optics},
          {"spare_met", d.spare_met},
          {"assumptions", d.assumptions},
          {"notes", d.notes},
          {"warnings", d.warnings}};
}

}  // namespace

std::string render_fabric_text(const FabricDesign& d, const GrowthStep& growth) {
  const FabricInputs& in = d.inputs;
  const LeafDesign& leaf = d.leaf;
  std::string out;
  out += fmt::format("Fabric plan: {} nodes x {} GPUs = {} GPUs, {} NICs at {}\n", in.nodes,
                     in.gpus_per_node, d.gpus, d.nics, gbps(in.nic_gbps));
  if (in.rail_optimized) {
    out += fmt::format("Rail-optimized: {} rail group(s) of {} nodes x {} rail leaves = {} leaves",
                       d.rail_groups, leaf.nodes, in.nics_per_node, d.leaves);
  } else {
    out += fmt::format("{} leaves of {} nodes", d.leaves, leaf.nodes);
  }
  out += d.spines > 0 ? fmt::format(", {} spines (two tiers)\n", d.spines)
                      : std::string(", no spine tier needed\n");

  out += fmt::format("\nPer leaf ({} ports of {}):\n", in.leaf_ports, gbps(in.leaf_port_gbps));
  out += fmt::format("  downlinks         {} x {} on {} ports{}  = {} to hosts\n", leaf.downlinks,
                     gbps(in.nic_gbps), leaf.downlink_ports,
                     in.breakout > 1 ? fmt::format(" (breakout {})", in.breakout) : "",
                     tbps(leaf.downlink_gbps));
  if (d.spines > 0) {
    out += fmt::format("  uplinks           {} ({} to each spine)  = {} to spines\n",
                       ports_at(leaf.uplinks, in.leaf_port_gbps, in.nic_gbps),
                       d.links_per_leaf_per_spine, tbps(leaf.uplink_gbps));
    out += fmt::format("  oversubscription  {} (target {})\n", format_ratio(leaf.oversubscription),
                       format_ratio(in.oversubscription));
  }
  out += fmt::format("  ports used        {} of {}, spare {} ({:.1f}%, target {:g}%){}\n",
                     leaf.ports_used, in.leaf_ports, leaf.spare_ports, leaf.spare_fraction * 100,
                     in.spare * 100, d.spare_met ? "" : "  BELOW TARGET");
  if (d.spines > 0) {
    out += fmt::format("\nPer spine ({} ports of {}):\n", in.spine_ports, gbps(in.leaf_port_gbps));
    out += fmt::format("  ports used        {} ({} from each of {} leaves), spare {}\n",
                       ports_at(d.spine_ports_used, in.leaf_port_gbps, in.nic_gbps),
                       d.links_per_leaf_per_spine, d.leaves, d.spine_spare_ports);
    out += fmt::format(
        "  two-tier limit    {} leaves with these {} spines; {} at most (one link from "
        "each leaf to each of {} spines)\n",
        d.max_leaves_two_tier, d.spines, in.spine_ports, leaf.uplinks);
  }
  out += "\nCables and optics:\n";
  out += fmt::format("  host links        {}{}\n", d.host_cables,
                     d.breakout_cables > 0
                         ? fmt::format(" ({} breakout cables 1 x {} -> {} x {})", d.breakout_cables,
                                       gbps(in.leaf_port_gbps), in.breakout, gbps(in.nic_gbps))
                         : "");
  out += fmt::format("  leaf-spine links  {}\n", d.leaf_spine_cables);
  out += fmt::format("  optics            {} = {} NIC + {} leaf down-ports + {} uplink ends\n",
                     d.optics, d.nics, d.leaf_down_ports, 2 * d.leaf_spine_cables);

  out += fmt::format("\nNext growth step ({} nodes):\n", growth.nodes);
  for (const std::string& line : growth.summary) {
    out += fmt::format("  {}\n", line);
  }
  list(out, "Notes", d.notes);
  list(out, "Warnings", d.warnings);
  list(out, "Assumptions", d.assumptions);
  return out;
}

nlohmann::json fabric_to_json(const FabricDesign& d, const GrowthStep& growth) {
  nlohmann::json out = design_json(d);
  nlohmann::json next = {{"nodes", growth.nodes}, {"possible", growth.possible}};
  if (growth.possible) {
    next["added_leaves"] = growth.added_leaves;
    next["added_spines"] = growth.added_spines;
    next["added_host_cables"] = growth.added_host_cables;
    next["added_leaf_spine_cables"] = growth.added_leaf_spine_cables;
    next["added_optics"] = growth.added_optics;
    next["recable_existing_uplinks"] = growth.recable_existing_uplinks;
    next["design"] = design_json(growth.design);
  } else {
    next["refusal"] = growth.refusal;
  }
  next["summary"] = growth.summary;
  out["growth"] = std::move(next);
  return out;
}

}  // namespace netdoctor::plan
