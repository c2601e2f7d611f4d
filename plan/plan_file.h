// The plan file: a fabric plan written down, read by `netdoctor plan check --plan FILE`.
// TOML with the same keys as the `plan fabric` flags (dashes or underscores), at the top
// level or under a [fabric] table. See plan/PLAN_FILE.md.
//
//   nodes = 32
//   gpus_per_node = 8
//   nic_gbps = 200
//   nics_per_node = 8          # default: one per GPU
//   leaf_ports = 64
//   leaf_port_gbps = 400
//   breakout = 2               # default: leaf_port_gbps / nic_gbps
//   oversubscription = "1:1"
//   spare = "20%"              # or 0.2
//   rail_optimized = false
//   nodes_per_leaf = 8         # default: as many as fit
//   spines = 4                 # default: fewest that fit
//   spine_ports = 64           # default: leaf_ports
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "plan/fabric_sizing.h"

namespace netdoctor::plan {

// Parse errors and unknown keys are InvalidArgument with `origin` as the context.
Result<FabricInputs> parse_plan_file(std::string_view text, const std::string& origin);

// The inverse, for `plan fabric --format toml`-style round trips and tests.
std::string write_plan_file(const FabricInputs& inputs);

}  // namespace netdoctor::plan
