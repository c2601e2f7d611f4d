// The names of InfiniBand nodes (spec/bundle.md, "Entity names", InfiniBand 1.1): what every
// fabric view calls a switch or an HCA, so that diagnoses name them the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/ib_fabric.h"

namespace netdoctor::model {

// A switch description without the "MF0;" prefix and the ":<model>/<unit>" suffix:
// "MF0;leaf-03:MQM8700/U1" -> "leaf-03"; "Quantum-2 Mellanox Technologies" unchanged; spaces at
// either end trimmed. "" for an empty description.
std::string ib_switch_base_name(std::string_view description);

// The model of a "<name>:<model>/<unit>" description: "MF0;leaf-03:MQM8700/U1" -> "MQM8700";
// "" when the description has no such suffix.
std::string ib_model_from_description(std::string_view description);

// "0x" and the 16 hex digits of `guid`: the name of a node whose description cannot name it.
std::string ib_guid_name(std::uint64_t guid);

// An HCA description of the Linux default form "<host> <dev>" ("node01 mlx5_0"): its host and
// RDMA device; both empty when the description is not of that form (one word, three words...).
struct IbCaName {
  std::string host;
  std::string device;
};
IbCaName ib_ca_name(std::string_view description);

// The name of one node: a switch's (or router's) base name, an HCA's "<host>/<dev>", or
// ib_guid_name(guid) when that is empty or `unique` is false (another node of the fabric has the
// same base name).
std::string ib_node_name(IbNodeKind kind, std::uint64_t guid, std::string_view description,
                         bool unique);

// Fills `name` (and an HCA's `host` / `device`) of every node of `ib` whose name is empty,
// judging uniqueness against the base names of all nodes. Nodes already named keep their names.
void name_ib_nodes(IbFabric& ib);

}  // namespace netdoctor::model
