// Two-tier leaf/spine sizing for a GPU training fabric: how many leaves and spines, how many
// downlinks and uplinks per leaf, cables and optics, the resulting oversubscription and spare
// ports. Counts NICs, not nodes: a node with 8 NICs takes 8 leaf downlinks (the source
// article's section 3 counted one per node).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::plan {

// "1:1", "1:3", "3:1", "3" -> downlink capacity per unit of uplink capacity (>= 1). The
// article writes 1:3 for "uplink is a third of downlink"; 3:1 means the same here.
Result<double> parse_oversubscription(std::string_view text);
// "20%", "0.2", "20" -> 0.2. Values above 1 are read as percent.
Result<double> parse_fraction(std::string_view text);
// 3.0 -> "3:1", 1.5 -> "1.5:1".
std::string format_ratio(double ratio);

struct FabricInputs {
  int nodes = 0;
  int gpus_per_node = 8;
  double nic_gbps = 0;
  int nics_per_node = 0;          // 0: one NIC per GPU
  int leaf_ports = 64;            // physical ports of a leaf switch
  double leaf_port_gbps = 400;    // their speed; uplinks run at this speed
  int breakout = 0;               // downlinks per physical port; 0: leaf_port_gbps / nic_gbps
  double oversubscription = 1.0;  // target downlink : uplink capacity per leaf
  double spare = 0.2;             // fraction of leaf ports kept free
  bool rail_optimized = false;    // NIC i of every node goes to the rail-i leaf of its group
  int nodes_per_leaf = 0;         // per leaf (per rail group when rail-optimized); 0: most that fit
  int spines = 0;                 // 0: fewest that fit
  int spine_ports = 0;            // 0: same switch model as the leaves
};

struct LeafDesign {
  int nodes = 0;           // nodes attached (per rail group when rail-optimized)
  int downlinks = 0;       // host links at nic_gbps
  int downlink_ports = 0;  // physical leaf ports they occupy (after breakout)
  int uplinks = 0;         // links to spines at leaf_port_gbps
  int ports_used = 0;
  int spare_ports = 0;
  double spare_fraction = 0;
  double downlink_gbps = 0;     // capacity towards hosts
  double uplink_gbps = 0;       // capacity towards spines
  double oversubscription = 0;  // downlink_gbps / uplink_gbps; 0 when there is no spine tier
};

struct FabricDesign {
  FabricInputs inputs;  // resolved: nics_per_node, breakout and spine_ports filled in
  int gpus = 0;
  int nics = 0;
  int rail_groups = 0;  // rail-optimized: groups of nics_per_node leaves; else 0
  int leaves = 0;
  int nodes_on_last_leaf = 0;  // when nodes do not divide evenly
  LeafDesign leaf;             // every leaf is provisioned the same
  int spines = 0;
  int links_per_leaf_per_spine = 0;
  int spine_ports_used = 0;  // per spine
  int spine_spare_ports = 0;
  int max_leaves_two_tier = 0;  // with this leaf design and spine size
  int host_cables = 0;          // one per NIC (breakout legs included)
  int leaf_down_ports = 0;      // physical leaf ports cabled to hosts, all leaves
  int breakout_cables = 0;      // 1-to-breakout cables/optics on the leaf side
  int leaf_spine_cables = 0;
  int optics = 0;  // transceivers: NIC ends + leaf down ports + both uplink ends
  bool spare_met = true;
  std::vector<std::string> assumptions;
  std::vector<std::string> notes;     // things to know (the article's undercount, uneven leaves)
  std::vector<std::string> warnings;  // the design works but misses a target
};

// InvalidArgument for meaningless inputs (zero nodes, bad ratio); Refused for a design that
// cannot be built with two tiers of these switches, with the reason.
Result<FabricDesign> size_fabric(const FabricInputs& inputs);

struct GrowthStep {
  int nodes = 0;
  bool possible = false;
  std::string refusal;  // why, when not possible
  FabricDesign design;  // when possible
  int added_leaves = 0;
  int added_spines = 0;
  int added_host_cables = 0;
  int added_leaf_spine_cables = 0;
  int added_optics = 0;
  bool recable_existing_uplinks = false;  // links per leaf per spine change
  std::vector<std::string> summary;
};

// The same leaf design (nodes per leaf kept) grown to `nodes`; spines never shrink.
GrowthStep plan_growth(const FabricDesign& current, int nodes);

}  // namespace netdoctor::plan
