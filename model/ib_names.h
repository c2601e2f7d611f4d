// The names the diagnosis gives InfiniBand nodes (spec/bundle.md, "Entity names"): a switch by
// its node description without the "MF0;" prefix and the ":<model>/<unit>" suffix, an HCA whose
// description is "<host> <dev>" (the Linux default) as "<host>/<dev>", anything else, and any
// name two nodes would share, as "0x" and the node GUID in 16 hex digits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/ib_fabric.h"

namespace netdoctor::model {

struct IbSwitchDescription {
  std::string name;   // "leaf-03" of "MF0;leaf-03:MQM8700/U1"; the trimmed text otherwise
  std::string model;  // "MQM8700"; "" when the description has no ":<model>/<unit>" suffix
};
IbSwitchDescription parse_switch_description(std::string_view description);

struct IbCaDescription {
  std::string host;
  std::string device;
};
// "node01 mlx5_0" -> {node01, mlx5_0}; nullopt unless exactly two words.
std::optional<IbCaDescription> parse_ca_description(std::string_view description);

// "0x0000000000200001".
std::string ib_guid_name(std::uint64_t guid);

// Sets name, host, device (and a switch's model where its description gives one and no view
// did) of every node. Names are unique among switches and routers and among HCAs: a name two
// nodes would share is replaced by both nodes' GUID names (and those HCAs keep no host/device,
// so no host is joined to the wrong one). O(n log n).
void name_ib_nodes(std::vector<IbNode>& nodes);

}  // namespace netdoctor::model
