#include "probes/ib_links.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/entity_names.h"

namespace netdoctor::probes {

std::string IbEnd::entity() const {
  return known() ? node->port_entity(port->number) : std::string();
}

std::string IbEnd::label() const {
  if (!known()) {
    return "?";
  }
  if (!is_ca()) {
    return fmt::format("{}/{}", node->name, port->number);
  }
  return port->number == 1 ? node->name : fmt::format("{} port {}", node->name, port->number);
}

std::vector<IbEnd> ib_ports(const model::IbFabric& ib) {
  std::vector<IbEnd> out;
  for (const auto& node : ib.nodes) {
    for (const auto& port : node.ports) {
      out.push_back(IbEnd{&node, &port});
    }
  }
  return out;
}

IbEnd ib_peer_end(const model::IbFabric& ib, const IbEnd& end) {
  if (!end.known() || !end.port->peer_port) {
    return {};
  }
  const model::IbNode* peer = ib.peer_of(*end.port);
  if (peer == nullptr) {
    return {};
  }
  return IbEnd{peer, peer->find_port(*end.port->peer_port)};
}

std::string ib_link_name(const model::IbFabric& ib, const IbEnd& end) {
  const IbEnd peer = ib_peer_end(ib, end);
  return peer.known() ? model::link_entity(end.entity(), peer.entity()) : std::string();
}

std::vector<std::string> ib_link_entities(const model::IbFabric& ib, const IbEnd& end,
                                          bool peer_first) {
  const IbEnd peer = ib_peer_end(ib, end);
  std::vector<std::string> out;
  if (peer.known() && peer_first) {
    out.push_back(peer.entity());
  }
  out.push_back(end.entity());
  if (peer.known() && !peer_first) {
    out.push_back(peer.entity());
  }
  if (peer.known()) {
    out.push_back(model::link_entity(end.entity(), peer.entity()));
  }
  return out;
}

std::vector<std::string> ib_port_and_link(const model::IbFabric& ib, const IbEnd& end) {
  std::vector<std::string> out{end.entity()};
  if (const std::string link = ib_link_name(ib, end); !link.empty()) {
    out.push_back(link);
  }
  return out;
}

std::string ib_tier(const IbEnd& end, const IbEnd& peer) {
  const auto kind = [](const IbEnd& e) {
    if (!e.known()) {
      return std::string("unknown");
    }
    return e.is_ca() ? std::string("ca") : std::string("switch");
  };
  std::string a = kind(end);
  std::string b = kind(peer);
  if (b < a) {
    std::swap(a, b);
  }
  return a + "-" + b;
}

const model::IbNode* ib_node_with_guid(const model::IbFabric& ib, std::uint64_t guid) {
  if (const model::IbNode* node = ib.find_node(guid)) {
    return node;
  }
  for (const auto& node : ib.nodes) {
    if (std::any_of(node.ports.begin(), node.ports.end(),
                    [guid](const model::IbPort& port) { return port.guid == guid; })) {
      return &node;
    }
  }
  return nullptr;
}

bool ib_port_held(const model::IbPort& port) {
  return port.phys == model::PhysState::LinkUp &&
         (port.state == model::RdmaPortState::Init || port.state == model::RdmaPortState::Armed);
}

}  // namespace netdoctor::probes
