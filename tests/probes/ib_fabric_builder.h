// Hand-built InfiniBand fabrics for probe tests: a healthy two-tier fat tree (leaves, spines,
// hosts with HDR HCAs) whose model::Fabric carries both the hosts' view of their HCAs and the
// subnet's (fabric.ib) over N samples, with realistic traffic, a little normal PortXmitWait
// and frozen error history; and helpers to perturb one port.
#pragma once

#include <cstdint>
#include <string>

#include "model/fabric.h"

namespace netdoctor::testing {

struct IbSpec {
  int leaves = 2;
  int spines = 2;
  int hosts_per_leaf = 4;
  int hcas_per_host = 2;      // each HCA port cabled to its host's leaf
  int uplinks_per_spine = 0;  // leaf ports to each spine; 0 = non-blocking (downlinks / spines)
  std::string speed = "HDR";  // "HDR" (50 Gb/s per lane) or "NDR" (100)
  int samples = 2;
  double window_s = 30.0;
  bool subnet_manager = true;  // a master SM in every sample (sminfo answered)
};

// Leaves "leaf-01".., spines "spine-01".. (descriptions "MF0;leaf-01:MQM8700/U1"), hosts
// "node01".. with HCAs mlx5_0.. (descriptions "node01 mlx5_0"). Leaf ports 1..N face HCAs, the
// ones after them face spines. Every port Active/LinkUp at 4x, HCAs and switch ports MTU 4096,
// one switch firmware and one HCA firmware.
model::Fabric ib_fat_tree(const IbSpec& spec = {});

// The switch port / HCA node by name; throws std::out_of_range when absent.
model::IbPort& ib_switch_port(model::Fabric& fabric, const std::string& switch_name,
                              std::uint32_t port);
model::IbNode& ib_node_named(model::Fabric& fabric, const std::string& name);
model::IbNode& ib_ca(model::Fabric& fabric, const std::string& host, const std::string& device);
// The peer end of a port (the other side of its cable).
model::IbPort& ib_peer(model::Fabric& fabric, const model::IbPort& port);

// Rewrites an ib_* counter of a port so it grows at `per_second` from `base`.
void set_ib_rate(model::IbPort& port, const std::string& metric, double per_second,
                 double base = 1e6);
// Marks a counter saturated from sample `from` on (its values removed from those samples).
void saturate(model::IbPort& port, const std::string& metric, std::size_t from = 0);

}  // namespace netdoctor::testing
