// Accessors of the InfiniBand subnet model (model/ib_fabric.h).
#include "model/ib_fabric.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/entity_names.h"

namespace netdoctor::model {

const char* to_string(IbNodeKind kind) {
  switch (kind) {
    case IbNodeKind::Switch:
      return "switch";
    case IbNodeKind::Ca:
      return "ca";
    case IbNodeKind::Router:
      return "router";
  }
  return "ca";
}

std::string IbNode::entity() const {
  if (kind != IbNodeKind::Ca) {
    return switch_entity(name);
  }
  if (!host.empty() && !device.empty()) {
    return nic_entity(host, device);
  }
  return fmt::format("nic:0x{:016x}", guid);
}

std::string IbNode::port_entity(std::uint32_t port) const {
  if (kind == IbNodeKind::Ca) {
    return entity();
  }
  return model::port_entity(name, std::to_string(port));
}

const IbPort* IbNode::find_port(std::uint32_t port) const {
  auto it = std::find_if(ports.begin(), ports.end(),
                         [port](const IbPort& p) { return p.number == port; });
  return it == ports.end() ? nullptr : &*it;
}

std::vector<double> IbFabric::captured_at() const {
  std::vector<double> times;
  times.reserve(samples.size());
  for (const auto& sample : samples) {
    times.push_back(sample.captured_at);
  }
  return times;
}

void IbFabric::reindex() {
  by_guid.clear();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    by_guid.emplace(nodes[i].guid, i);
  }
}

const IbNode* IbFabric::find_node(std::uint64_t guid) const {
  if (auto hit = by_guid.find(guid);
      hit != by_guid.end() && hit->second < nodes.size() && nodes[hit->second].guid == guid) {
    return &nodes[hit->second];
  }
  auto it = std::find_if(nodes.begin(), nodes.end(),
                         [guid](const IbNode& node) { return node.guid == guid; });
  return it == nodes.end() ? nullptr : &*it;
}

const IbNode* IbFabric::find_switch(const std::string& name) const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [&name](const IbNode& node) {
    return node.kind != IbNodeKind::Ca && node.name == name;
  });
  return it == nodes.end() ? nullptr : &*it;
}

const IbNode* IbFabric::find_ca(const std::string& host, const std::string& device) const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [&](const IbNode& node) {
    return node.kind == IbNodeKind::Ca && node.host == host && node.device == device;
  });
  return it == nodes.end() ? nullptr : &*it;
}

const IbNode* IbFabric::peer_of(const IbPort& port) const {
  return port.peer_guid ? find_node(*port.peer_guid) : nullptr;
}

}  // namespace netdoctor::model
