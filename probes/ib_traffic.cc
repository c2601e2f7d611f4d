#include "probes/ib_traffic.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace netdoctor::probes::ib {
namespace {

// Bits per byte: a unit conversion, not a judgement.
constexpr double k_bits_per_byte = 8.0;

std::string label(const model::IbNode& node, const model::IbPort& port) {
  if (node.kind == model::IbNodeKind::Ca) {
    return node.name;
  }
  return fmt::format("{}/{}", node.name, port.number);
}

}  // namespace

std::vector<LinkEnd> cabled_ends(const model::IbFabric& ib) {
  std::vector<LinkEnd> out;
  for (const auto& node : ib.nodes) {
    for (const auto& port : node.ports) {
      if (!port.is_up() || !port.cabled() || !port.peer_port) {
        continue;
      }
      const model::IbNode* peer = ib.peer_of(port);
      const model::IbPort* peer_port = peer == nullptr ? nullptr : peer->find_port(*port.peer_port);
      if (peer_port != nullptr) {
        out.push_back(LinkEnd{&node, &port, peer, peer_port});
      }
    }
  }
  return out;
}

std::vector<const LinkEnd*> ends_of(const std::vector<LinkEnd>& ends, const model::IbNode* node) {
  std::vector<const LinkEnd*> out;
  for (const auto& end : ends) {
    if (end.node == node) {
      out.push_back(&end);
    }
  }
  return out;
}

std::string end_entity(const LinkEnd& end) {
  return end.node->port_entity(end.port->number);
}

std::string peer_entity(const LinkEnd& end) {
  return end.peer->port_entity(end.peer_port->number);
}

std::string end_label(const LinkEnd& end) {
  return label(*end.node, *end.port);
}

std::string peer_label(const LinkEnd& end) {
  return label(*end.peer, *end.peer_port);
}

// Breadth first from the leaves: a switch one hop further from the HCAs than any neighbour
// already placed sits one tier higher.
std::map<std::uint64_t, int> switch_tiers(const std::vector<LinkEnd>& ends) {
  std::map<std::uint64_t, int> tiers;
  std::deque<const model::IbNode*> queue;
  for (const auto& end : ends) {
    if (end.on_switch() && end.faces_ca() && tiers.emplace(end.node->guid, 1).second) {
      queue.push_back(end.node);
    }
  }
  while (!queue.empty()) {
    const model::IbNode* node = queue.front();
    queue.pop_front();
    const int tier = tiers.at(node->guid);
    for (const LinkEnd* end : ends_of(ends, node)) {
      if (end->peer->kind != model::IbNodeKind::Ca &&
          tiers.emplace(end->peer->guid, tier + 1).second) {
        queue.push_back(end->peer);
      }
    }
  }
  return tiers;
}

bool is_up_port(const LinkEnd& end, const std::map<std::uint64_t, int>& tiers) {
  if (!end.on_switch() || end.faces_ca()) {
    return false;
  }
  const auto own = tiers.find(end.node->guid);
  const auto peer = tiers.find(end.peer->guid);
  return own != tiers.end() && peer != tiers.end() && peer->second > own->second;
}

Reading port_counter(const model::IbPort& port, const char* metric) {
  return read_counter(port.samples, metric);
}

std::optional<std::size_t> saturated_from(const model::IbPort& port, const char* metric) {
  const auto it = port.saturated.find(metric);
  if (it == port.saturated.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::optional<double> value_at(const model::IbPort& port, const char* metric, std::size_t sample) {
  if (sample >= port.samples.size()) {
    return std::nullopt;
  }
  return port.samples[sample].get(model::MetricKey{metric, -1});
}

double gbps(double bytes_per_second) {
  return bytes_per_second * k_bits_per_byte / 1e9;
}

std::optional<double> lane_data_gbps(const model::IbPort& port) {
  if (!port.data_gbps || !port.width || *port.width <= 0 || *port.data_gbps <= 0.0) {
    return std::nullopt;
  }
  return *port.data_gbps / *port.width;
}

}  // namespace netdoctor::probes::ib
