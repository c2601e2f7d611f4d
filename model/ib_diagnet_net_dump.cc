// apply_ibdiagnet: ibdiagnet2.net_dump's switch blocks, their ports and neighbours.
#include "base/strings.h"
#include "model/ib_diagnet_detail.h"
#include "model/ib_names.h"

namespace netdoctor::model::ibdiagnet_detail {
namespace {

// A neighbour named in a port row: a switch when its description has the "MF0;" / ":<model>/"
// form of switch descriptions or it heads a block of the dump, else an HCA.
IbNodeKind neighbour_kind(const parsers::IbdiagNetDump& dump, const parsers::NetDumpPort& row) {
  for (const auto& block : dump.nodes) {
    if (row.peer_guid && block.guid == *row.peer_guid) {
      return IbNodeKind::Switch;
    }
  }
  if (row.peer_description.starts_with("MF0;") ||
      !parse_switch_description(row.peer_description).model.empty()) {
    return IbNodeKind::Switch;
  }
  return IbNodeKind::Ca;
}

void apply_row(const parsers::NetDumpPort& row, IbNode& node) {
  if (!row.port) {
    return;
  }
  IbPort& port = port_of(node, *row.port);
  if (port.state == RdmaPortState::Unknown) {
    port.state = ib_port_state_word(row.state);
  }
  if (port.phys == PhysState::Unknown) {
    port.phys = ib_phys_state_word(row.phys_state);
  }
  if (!port.lid) {
    port.lid = node.lid;
  }
  if (port.state == RdmaPortState::Active || port.state == RdmaPortState::Armed ||
      port.state == RdmaPortState::Init) {
    fill_speed(port, ib_speed_from_lane_text(row.speed), ib_width_from_text(row.width));
    if (!port.mtu && row.mtu) {
      port.mtu = ib_mtu_bytes(*row.mtu);
    }
  }
  if (!port.peer_guid && row.peer_guid) {
    port.peer_guid = row.peer_guid;
    auto n = parse_u64(row.peer_port);
    if (n && *n <= 0xffffffffu) {
      port.peer_port = static_cast<std::uint32_t>(*n);
    }
  }
}

}  // namespace

void apply_net_dump(const parsers::IbdiagNetDump& dump, NodeIndex& index) {
  for (const auto& block : dump.nodes) {
    std::size_t at = index.add(block.guid, IbNodeKind::Switch);
    {
      IbNode& node = index.node(at);
      if (node.description.empty()) {
        node.description = block.description;
      }
      if (!node.lid) {
        node.lid = block.lid;
      }
      if (node.model.empty()) {
        node.model = parse_switch_description(block.description).model;
      }
      mark_observed(node);
    }
    for (const auto& row : block.ports) {
      if (row.peer_guid) {
        std::size_t peer = index.add(*row.peer_guid, neighbour_kind(dump, row));
        IbNode& peer_node = index.node(peer);
        if (peer_node.description.empty()) {
          peer_node.description = row.peer_description;
        }
        auto peer_port = parse_u64(row.peer_port);
        if (peer_node.kind == IbNodeKind::Ca && peer_port && *peer_port <= 0xffffffffu &&
            row.port) {
          if (!peer_node.lid) {
            peer_node.lid = row.peer_lid;
          }
          IbPort& hca_port = port_of(peer_node, static_cast<std::uint32_t>(*peer_port));
          if (!hca_port.lid) {
            hca_port.lid = row.peer_lid;
          }
          if (!hca_port.peer_guid) {
            hca_port.peer_guid = block.guid;
            hca_port.peer_port = row.port;
          }
        }
      }
      apply_row(row, index.node(at));  // after adding the peer: `at` stays valid, references not
    }
  }
}

}  // namespace netdoctor::model::ibdiagnet_detail
