// apply_ibdiagnet internals: the node index and the fill-if-unset port helpers.
#include <algorithm>

#include "model/ib_diagnet_detail.h"
#include "model/source_names.h"

namespace netdoctor::model::ibdiagnet_detail {

NodeIndex::NodeIndex(IbFabric& ib) : m_ib(ib) {
  for (std::size_t i = 0; i < ib.nodes.size(); ++i) {
    m_at.emplace(ib.nodes[i].guid, i);
  }
}

std::optional<std::size_t> NodeIndex::find(std::uint64_t guid) const {
  auto it = m_at.find(guid);
  return it == m_at.end() ? std::nullopt : std::optional(it->second);
}

std::optional<std::size_t> NodeIndex::find_port_guid(std::uint64_t guid) const {
  if (auto at = find(guid)) {
    return at;
  }
  if (!m_port_at) {
    m_port_at.emplace();
    for (std::size_t i = 0; i < m_ib.nodes.size(); ++i) {
      for (const auto& port : m_ib.nodes[i].ports) {
        if (port.guid != 0) {
          m_port_at->emplace(port.guid, i);
        }
      }
    }
  }
  auto it = m_port_at->find(guid);
  return it == m_port_at->end() ? std::nullopt : std::optional(it->second);
}

std::size_t NodeIndex::add(std::uint64_t guid, IbNodeKind kind) {
  if (auto at = find(guid)) {
    return *at;
  }
  IbNode node;
  node.guid = guid;
  node.kind = kind;
  m_ib.nodes.push_back(std::move(node));
  m_at.emplace(guid, m_ib.nodes.size() - 1);
  m_port_at.reset();
  m_added = true;
  return m_ib.nodes.size() - 1;
}

IbPort& port_of(IbNode& node, std::uint32_t number) {
  auto it = std::lower_bound(node.ports.begin(), node.ports.end(), number,
                             [](const IbPort& p, std::uint32_t n) { return p.number < n; });
  if (it != node.ports.end() && it->number == number) {
    return *it;
  }
  IbPort port;
  port.number = number;
  return *node.ports.insert(it, std::move(port));
}

void fill_speed(IbPort& port, std::optional<IbSpeed> speed, std::optional<int> lanes) {
  if (!port.width && lanes) {
    port.width = lanes;
  }
  if (port.speed.empty() && speed) {
    port.speed = std::string(speed->name);
    port.lane_gbps = speed->lane_gbps;
  }
  if (!port.data_gbps && port.width && speed && port.speed == speed->name) {
    port.data_gbps = *port.width * speed->data_gbps;
  }
}

void fill_supported(IbPort& port, std::optional<IbSpeed> speed, std::optional<int> lanes) {
  if (!port.supported_width && lanes) {
    port.supported_width = lanes;
  }
  if (port.supported_speed.empty() && speed) {
    port.supported_speed = std::string(speed->name);
  }
  if (!port.supported_data_gbps && port.supported_width && speed &&
      port.supported_speed == speed->name) {
    port.supported_data_gbps = *port.supported_width * speed->data_gbps;
  }
}

void mark_observed(IbNode& node) {
  node.sources[source::k_ibdiagnet] = SourceState{Availability::Observed, ""};
}

}  // namespace netdoctor::model::ibdiagnet_detail
