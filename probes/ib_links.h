// What the InfiniBand subnet probes share (fabric.ib, model/ib_fabric.h): one port seen with
// its node, the port at the other end of its cable, and the names a finding gives them (the
// port, its peer and the link between them, spec/bundle.md "Entity names").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/ib_fabric.h"

namespace netdoctor::probes {

// One port of one node of the subnet. `node` is nullptr for an end the model does not hold.
struct IbEnd {
  const model::IbNode* node = nullptr;
  const model::IbPort* port = nullptr;

  bool known() const { return node != nullptr && port != nullptr; }
  bool is_ca() const { return node != nullptr && node->kind == model::IbNodeKind::Ca; }
  // "port:<switch>/<n>" for a switch port, "nic:<host>/<dev>" for an HCA port.
  std::string entity() const;
  // For summaries: "leaf-01/3", "node01/mlx5_0" (an HCA's second port: "node01/mlx5_0 port 2").
  std::string label() const;
};

// Every port of every node, in the model's order (switches first, then HCAs).
std::vector<IbEnd> ib_ports(const model::IbFabric& ib);

// The other end of `end`'s cable; not known() when nothing is cabled or the peer is not in the
// model.
IbEnd ib_peer_end(const model::IbFabric& ib, const IbEnd& end);

// "link:<a>~<b>" of the cable at `end`; "" when its peer is not known.
std::string ib_link_name(const model::IbFabric& ib, const IbEnd& end);

// What a finding about the cable at `end` names: the port, the peer's port, the link (the
// peer first with `peer_first`, for damage the far end caused). Unknown parts are left out.
std::vector<std::string> ib_link_entities(const model::IbFabric& ib, const IbEnd& end,
                                          bool peer_first = false);

// What a finding about damage one port counts names: that port first, then the link (the
// peer is in the link's name; naming its port beside this one would halve this port's blame).
std::vector<std::string> ib_port_and_link(const model::IbFabric& ib, const IbEnd& end);

// The tier of the link at `end`, to compare like with like: "switch-switch", "ca-switch",
// "ca-ca"; the far kind is "unknown" when the peer is not in the model.
std::string ib_tier(const IbEnd& end, const IbEnd& peer);

// Physically LinkUp but left in Initialize or Armed: a port the subnet manager has not
// activated.
bool ib_port_held(const model::IbPort& port);

// The node owning the port (or the node) with this GUID, e.g. a subnet manager's port GUID;
// nullptr when none does.
const model::IbNode* ib_node_with_guid(const model::IbFabric& ib, std::uint64_t guid);

}  // namespace netdoctor::probes
