#include "model/ib_topology.h"

#include <algorithm>
#include <charconv>

#include "base/strings.h"
#include "model/ib_names.h"
#include "model/ib_port_views.h"
#include "model/source_names.h"
#include "model/source_reading.h"

namespace netdoctor::model {
namespace {

IbNodeKind kind_named(std::string_view type) {
  const std::string lower = to_lower(trim(type));
  if (lower == "switch" || lower == "sw") {
    return IbNodeKind::Switch;
  }
  if (lower == "rt" || lower == "router") {
    return IbNodeKind::Router;
  }
  return IbNodeKind::Ca;
}

// "S-f4521403001165a0", "H-0000000000100006" -> the GUID after the dash.
std::optional<std::uint64_t> guid_of_id(std::string_view id) {
  const auto dash = id.find('-');
  if (dash == std::string_view::npos || dash + 1 >= id.size()) {
    return std::nullopt;
  }
  const auto hex = id.substr(dash + 1);
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
  if (error != std::errc() || end != hex.data() + hex.size()) {
    return std::nullopt;
  }
  return value;
}

IbPort& port_of(std::map<std::uint32_t, IbPort>& ports, std::uint32_t number) {
  auto [it, inserted] = ports.try_emplace(number);
  if (inserted) {
    it->second.number = number;
  }
  return it->second;
}

bool sorted_before(const IbNode& a, const IbNode& b) {
  const bool a_ca = a.kind == IbNodeKind::Ca;
  const bool b_ca = b.kind == IbNodeKind::Ca;
  if (a_ca != b_ca) {
    return b_ca;  // switches (and routers) first
  }
  return a.name != b.name ? a.name < b.name : a.guid < b.guid;
}

}  // namespace

IbTopologyBuilder::Draft& IbTopologyBuilder::node(std::uint64_t guid, IbNodeKind kind,
                                                  const std::string& source) {
  auto [it, inserted] = m_nodes.try_emplace(guid);
  Draft& draft = it->second;
  if (inserted) {
    draft.node.guid = guid;
    draft.node.kind = kind;
  } else if (kind != IbNodeKind::Ca) {
    draft.node.kind = kind;  // a view that knows it is a switch wins over a guess
  }
  record_source(draft.node.sources, source, Availability::Observed);
  return draft;
}

void IbTopologyBuilder::describe(Draft& draft, const std::string& description, bool authoritative) {
  if (description.empty() || (!authoritative && !draft.node.description.empty())) {
    return;
  }
  if (draft.guessed_guid && draft.node.description != description) {
    m_guessed_by_description.emplace(std::string(trim(description)), draft.node.guid);
  }
  draft.node.description = description;
}

void IbTopologyBuilder::note_port_guid(std::uint64_t port_guid, std::uint64_t node_guid,
                                       std::uint32_t port) {
  m_port_guids.insert_or_assign(port_guid, std::make_pair(node_guid, port));
}

std::uint64_t IbTopologyBuilder::canonical(std::uint64_t guid) const {
  // adopt() never aliases to a GUID that is itself aliased, so one hop suffices.
  auto it = m_aliases.find(guid);
  return it == m_aliases.end() ? guid : it->second;
}

void IbTopologyBuilder::adopt(std::uint64_t guessed, std::uint64_t real) {
  if (guessed == real || m_nodes.count(real) > 0 || m_aliases.count(real) > 0 ||
      m_aliases.count(guessed) > 0) {
    return;
  }
  auto handle = m_nodes.extract(guessed);
  if (handle.empty() || !handle.mapped().guessed_guid) {
    if (!handle.empty()) {
      m_nodes.insert(std::move(handle));
    }
    return;
  }
  handle.key() = real;
  handle.mapped().node.guid = real;
  handle.mapped().guessed_guid = false;
  m_nodes.insert(std::move(handle));
  m_aliases[guessed] = real;
}

void IbTopologyBuilder::adopt_by_port_guids(std::uint64_t node_guid,
                                            const parsers::IbnetNode& found) {
  for (const auto& link : found.links) {
    if (!link.port_guid) {
      continue;
    }
    if (auto it = m_port_guids.find(*link.port_guid); it != m_port_guids.end()) {
      adopt(canonical(it->second.first), node_guid);
    }
  }
}

IbTopologyBuilder::Draft& IbTopologyBuilder::ca_by_port_guid(std::uint64_t port_guid,
                                                             std::uint32_t port,
                                                             const std::string& description,
                                                             const std::string& source) {
  if (auto it = m_port_guids.find(port_guid); it != m_port_guids.end()) {
    return node(canonical(it->second.first), IbNodeKind::Ca, source);
  }
  if (auto it = m_nodes.find(port_guid); it != m_nodes.end()) {
    return node(port_guid, IbNodeKind::Ca, source);  // node GUID = port GUID (mlx5)
  }
  Draft& draft = node(port_guid, IbNodeKind::Ca, source);
  draft.guessed_guid = true;
  m_port_guids.try_emplace(port_guid, port_guid, port);
  describe(draft, description, false);
  return draft;
}

void IbTopologyBuilder::add_topology(const parsers::IbNetDiscover& net) {
  for (const auto& found : net.nodes) {
    auto guid = found.guid ? found.guid : guid_of_id(found.id);
    if (!guid) {
      continue;
    }
    if (kind_named(found.type) == IbNodeKind::Ca) {
      adopt_by_port_guids(*guid, found);
    }
    Draft& draft = node(*guid, kind_named(found.type), source::k_ibnetdiscover);
    describe(draft, found.description, true);
    IbNode& n = draft.node;
    n.system_image_guid = found.system_image_guid ? found.system_image_guid : n.system_image_guid;
    n.port_count = found.ports ? found.ports : n.port_count;
    n.vendor_id = found.vendor_id.empty() ? n.vendor_id : found.vendor_id;
    n.device_id = found.device_id.empty() ? n.device_id : found.device_id;
    n.lid = found.lid ? found.lid : n.lid;
    for (const auto& link : found.links) {
      IbPort& port = port_of(draft.ports, link.port);
      if (n.kind == IbNodeKind::Ca && link.port_guid) {
        port.guid = *link.port_guid;
        note_port_guid(*link.port_guid, *guid, link.port);
      }
      port.lid = n.kind == IbNodeKind::Ca ? link.lid : n.lid;
      set_trained(port, link.width, link.speed);
      if (port.phys == PhysState::Unknown) {
        port.phys = PhysState::LinkUp;  // listed with a peer: the link trained
      }
      m_peers.push_back(PendingPeer{*guid, link.port, guid_of_id(link.remote_id), std::nullopt,
                                    link.remote_port});
    }
  }
}

void IbTopologyBuilder::add_port_lines(const parsers::IbNetDiscover& net) {
  for (const auto& line : net.port_lines) {
    if (!line.port) {
      continue;
    }
    const IbNodeKind kind = kind_named(line.type);
    Draft& draft = kind == IbNodeKind::Ca ? ca_by_port_guid(line.guid, *line.port, line.description,
                                                            source::k_ibnetdiscover)
                                          : node(line.guid, kind, source::k_ibnetdiscover);
    describe(draft, line.description, false);
    if (kind != IbNodeKind::Ca && line.lid) {
      draft.node.lid = line.lid;
    }
    IbPort& port = port_of(draft.ports, *line.port);
    port.guid = line.guid;
    port.lid = line.lid;
    if (!line.connected) {
      continue;  // an unconnected port's width and speed are what it would try, not trained
    }
    set_trained(port, line.width, line.speed);
    if (port.phys == PhysState::Unknown) {
      port.phys = PhysState::LinkUp;
    }
    m_peers.push_back(PendingPeer{draft.node.guid, *line.port, line.remote_guid, line.remote_lid,
                                  line.remote_port});
  }
}

void IbTopologyBuilder::add_link_line(const parsers::IbLink& link, bool is_switch) {
  if (!link.guid || !link.port) {
    return;
  }
  Draft& draft = is_switch ? node(*link.guid, IbNodeKind::Switch, source::k_iblinkinfo)
                           : ca_by_port_guid(*link.guid, *link.port, link.node_description,
                                             source::k_iblinkinfo);
  describe(draft, link.node_description, false);
  if (is_switch && link.lid) {
    draft.node.lid = link.lid;
  }
  IbPort& port = port_of(draft.ports, *link.port);
  port.guid = *link.guid;
  port.lid = link.lid ? link.lid : port.lid;
  port.state = ib_port_state_named(link.state);
  port.phys = phys_state_named(link.physical_state);
  set_trained_lane_rate(port, link.width, link.speed_gbps);
  set_supported(port, link.comment);
  if (link.remote_guid || link.remote_lid) {
    m_peers.push_back(PendingPeer{draft.node.guid, *link.port, link.remote_guid, link.remote_lid,
                                  link.remote_port});
  }
}

void IbTopologyBuilder::add_links(const parsers::IbLinkInfo& info) {
  // The -l form prints no node type: a GUID on lines of several port numbers is a switch (an
  // HCA's ports each have a GUID of their own).
  std::map<std::uint64_t, std::set<std::uint32_t>> ports_of_guid;
  for (const auto& link : info.links) {
    if (link.node_type.empty() && link.guid && link.port) {
      ports_of_guid[*link.guid].insert(*link.port);
    }
  }
  for (const auto& link : info.links) {
    bool is_switch = link.node_type == "Switch";
    if (link.node_type.empty() && link.guid) {
      auto known = m_nodes.find(*link.guid);
      is_switch = (known != m_nodes.end() && known->second.node.kind != IbNodeKind::Ca) ||
                  (known == m_nodes.end() && m_port_guids.count(*link.guid) == 0 &&
                   ports_of_guid[*link.guid].size() > 1);
    }
    add_link_line(link, is_switch);
  }
}

void IbTopologyBuilder::add_nodes(const std::vector<parsers::IbNode>& nodes) {
  for (const auto& found : nodes) {
    const IbNodeKind kind = kind_named(found.type);
    if (kind == IbNodeKind::Ca && m_nodes.count(found.guid) == 0) {
      // A node first met by a port GUID, now with its node GUID: one node.
      auto range = m_guessed_by_description.equal_range(std::string(trim(found.description)));
      if (range.first != range.second && std::next(range.first) == range.second) {
        adopt(range.first->second, found.guid);
      }
    }
    Draft& draft = node(found.guid, kind, source::k_ibnodes);
    describe(draft, found.description, true);
    draft.node.port_count = found.ports ? found.ports : draft.node.port_count;
    if (kind != IbNodeKind::Ca && found.lid) {
      draft.node.lid = found.lid;
    }
  }
}

void IbTopologyBuilder::add_error_nodes(const parsers::IbQueryErrors& errors) {
  for (const auto& found : errors.nodes) {
    if (!found.guid) {
      continue;  // an HCA: only a description and port GUIDs, matched when counters are read
    }
    Draft& draft = node(*found.guid, IbNodeKind::Switch, source::k_ibqueryerrors);
    describe(draft, found.description, false);
    for (const auto& port : found.ports) {
      if (port.port_number && *port.port_number > 0) {
        port_of(draft.ports, *port.port_number).guid = port.guid;
      }
    }
  }
}

std::optional<std::uint64_t> IbTopologyBuilder::node_of_guid(std::uint64_t guid) const {
  if (auto it = m_port_guids.find(guid); it != m_port_guids.end()) {
    return canonical(it->second.first);
  }
  if (m_nodes.count(canonical(guid)) > 0) {
    return canonical(guid);
  }
  return std::nullopt;
}

void IbTopologyBuilder::resolve_peers() {
  std::map<std::uint32_t, std::uint64_t> by_lid;  // switch LIDs and HCA port LIDs
  for (const auto& [guid, draft] : m_nodes) {
    if (draft.node.kind != IbNodeKind::Ca && draft.node.lid) {
      by_lid.emplace(*draft.node.lid, guid);
    }
    for (const auto& [number, port] : draft.ports) {
      if (draft.node.kind == IbNodeKind::Ca && port.lid) {
        by_lid.emplace(*port.lid, guid);
      }
    }
  }
  for (const auto& peer : m_peers) {
    std::optional<std::uint64_t> remote;
    if (peer.guid) {
      remote = node_of_guid(*peer.guid);
    }
    if (!remote && peer.lid) {
      if (auto it = by_lid.find(*peer.lid); it != by_lid.end()) {
        remote = it->second;
      }
    }
    if (!remote && peer.guid) {
      remote = peer.guid;  // cabled to a node no view lists: still cabled
    }
    auto local = m_nodes.find(canonical(peer.node));
    if (!remote || local == m_nodes.end()) {
      continue;
    }
    IbPort& port = port_of(local->second.ports, peer.port);
    port.peer_guid = remote;
    port.peer_port = peer.remote_port ? peer.remote_port : port.peer_port;
    auto far = m_nodes.find(*remote);
    if (far == m_nodes.end() || !peer.remote_port) {
      continue;
    }
    IbPort& back = port_of(far->second.ports, *peer.remote_port);
    if (!back.peer_guid) {
      back.peer_guid = local->first;
      back.peer_port = peer.port;
    }
  }
  m_peers.clear();
}

std::vector<IbNode> IbTopologyBuilder::finish() {
  resolve_peers();
  std::vector<IbNode> nodes;
  nodes.reserve(m_nodes.size());
  for (auto& [guid, draft] : m_nodes) {
    IbNode& n = draft.node;
    for (auto& [number, port] : draft.ports) {
      if (n.kind != IbNodeKind::Ca) {
        port.guid = port.guid == 0 ? n.guid : port.guid;
        port.lid = n.lid ? n.lid : port.lid;
      }
      n.ports.push_back(std::move(port));
    }
    nodes.push_back(std::move(n));
  }
  m_nodes.clear();
  m_port_guids.clear();
  m_guessed_by_description.clear();
  m_aliases.clear();
  name_ib_nodes(nodes);
  std::sort(nodes.begin(), nodes.end(), sorted_before);
  return nodes;
}

std::map<std::uint32_t, IbLidTarget> index_lids(const std::vector<IbNode>& nodes) {
  std::map<std::uint32_t, IbLidTarget> out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != IbNodeKind::Ca) {
      if (nodes[i].lid) {
        out.try_emplace(*nodes[i].lid, IbLidTarget{i, std::nullopt});
      }
      continue;
    }
    for (const auto& port : nodes[i].ports) {
      if (port.lid) {
        out.try_emplace(*port.lid, IbLidTarget{i, port.number});
      }
    }
  }
  return out;
}

std::map<std::uint64_t, IbLidTarget> index_port_guids(const std::vector<IbNode>& nodes) {
  std::map<std::uint64_t, IbLidTarget> out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != IbNodeKind::Ca) {
      out.try_emplace(nodes[i].guid, IbLidTarget{i, std::nullopt});
      continue;
    }
    for (const auto& port : nodes[i].ports) {
      if (port.guid != 0) {
        out.try_emplace(port.guid, IbLidTarget{i, port.number});
      }
    }
  }
  return out;
}

}  // namespace netdoctor::model
