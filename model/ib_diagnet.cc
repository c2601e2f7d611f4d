// apply_ibdiagnet: nodes, ports, links, firmware, managers and log lines of ibdiagnet's files.
#include "model/ib_diagnet.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "model/ib_diagnet_detail.h"
#include "model/ib_names.h"
#include "model/source_names.h"

namespace netdoctor::model {
namespace {

using ibdiagnet_detail::NodeIndex;
using ibdiagnet_detail::port_of;

std::optional<IbNodeKind> kind_of(std::optional<std::uint32_t> type) {
  if (!type) {
    return std::nullopt;
  }
  switch (*type) {
    case 1:
      return IbNodeKind::Ca;
    case 2:
      return IbNodeKind::Switch;
    case 3:
      return IbNodeKind::Router;
    default:
      return std::nullopt;
  }
}

std::string hex_id(std::optional<std::uint32_t> id) {
  return id ? fmt::format("0x{:x}", *id) : std::string();
}

void fill(std::string& field, const std::string& value) {
  if (field.empty()) {
    field = value;
  }
}

template <typename T>
void fill(std::optional<T>& field, const std::optional<T>& value) {
  if (!field && value) {
    field = value;
  }
}

void apply_nodes(const parsers::IbdiagDbCsv& db, NodeIndex& index) {
  for (const auto& n : db.nodes) {
    auto kind = kind_of(n.type);
    if (!kind) {
      continue;
    }
    IbNode& node = index.node(index.add(n.guid, *kind));
    fill(node.description, n.description);
    fill(node.system_image_guid, n.system_image_guid);
    fill(node.port_count, n.ports);
    fill(node.vendor_id, hex_id(n.vendor_id));
    fill(node.device_id, hex_id(n.device_id));
    fill(node.model, parse_switch_description(n.description).model);
    ibdiagnet_detail::mark_observed(node);
  }
  for (const auto& info : db.node_info) {
    if (auto at = index.find(info.guid)) {
      IbNode& node = index.node(*at);
      fill(node.firmware, info.firmware);
      fill(node.device_id, hex_id(info.device_id));
    }
  }
}

void apply_port(const parsers::IbdiagPort& row, IbNode& node) {
  if (row.port == 0) {  // a switch's management port: its LID is the switch's
    fill(node.lid, row.lid);
    return;
  }
  IbPort& port = port_of(node, row.port);
  if (port.guid == 0 && row.port_guid) {
    port.guid = *row.port_guid;
  }
  if (node.kind == IbNodeKind::Ca) {
    if (row.lid && *row.lid != 0) {
      fill(port.lid, row.lid);
      fill(node.lid, row.lid);
    }
  } else {
    fill(port.lid, node.lid);
  }
  if (port.state == RdmaPortState::Unknown && row.state) {
    port.state = ib_port_state(*row.state);
  }
  if (port.phys == PhysState::Unknown && row.phys_state) {
    port.phys = ib_phys_state(*row.phys_state);
  }
  bool up = row.state && *row.state >= 2;  // Init, Armed, Active: the link trained
  if (up) {
    ibdiagnet_detail::fill_speed(
        port, row.speed_active ? ib_active_speed(*row.speed_active) : std::nullopt,
        row.width_active ? ib_width_lanes(*row.width_active) : std::nullopt);
    if (!port.mtu && row.mtu) {
      port.mtu = ib_mtu_bytes(*row.mtu);
    }
  }
  ibdiagnet_detail::fill_supported(
      port, row.speed_supported ? ib_fastest_speed(*row.speed_supported) : std::nullopt,
      row.width_supported ? ib_widest_lanes(*row.width_supported) : std::nullopt);
}

void apply_ports(const parsers::IbdiagDbCsv& db, NodeIndex& index) {
  // Port 0 first: a switch's LID is needed by its other ports.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& row : db.ports) {
      auto at = index.find(row.node_guid);
      if (at && ((row.port == 0) == (pass == 0))) {
        apply_port(row, index.node(*at));
      }
    }
  }
  for (const auto& link : db.links) {
    auto a = index.find(link.guid1);
    auto b = index.find(link.guid2);
    if (!a || !b) {
      continue;
    }
    IbPort& pa = port_of(index.node(*a), link.port1);
    fill(pa.peer_guid, std::optional(link.guid2));
    fill(pa.peer_port, std::optional(link.port2));
    IbPort& pb = port_of(index.node(*b), link.port2);
    fill(pb.peer_guid, std::optional(link.guid1));
    fill(pb.peer_port, std::optional(link.port1));
  }
}

void add_manager(IbFabricSample& sample, IbSubnetManager sm) {
  for (const auto& known : sample.managers) {
    if (known.source == sm.source && known.guid == sm.guid) {
      return;
    }
  }
  sample.managers.push_back(std::move(sm));
}

std::optional<std::uint32_t> lid_of(NodeIndex& index, std::uint64_t node_guid,
                                    std::optional<std::uint32_t> port) {
  auto at = index.find(node_guid);
  if (!at) {
    return std::nullopt;
  }
  IbNode& node = index.node(*at);
  if (node.kind == IbNodeKind::Ca && port) {
    if (const IbPort* p = node.find_port(*port)) {
      return p->lid;
    }
  }
  return node.lid;
}

// The SMs ibdiagnet's log or SM report names, by role (master: SMInfo state 3, else standby 2).
void add_reported(const std::vector<parsers::IbdiagLogSm>& reported, IbFabricSample& sample) {
  for (const auto& line : reported) {
    if (!line.guid) {
      continue;
    }
    IbSubnetManager sm;
    sm.guid = *line.guid;
    sm.lid = line.lid;
    sm.priority = line.priority;
    sm.state =
        line.role == "master" ? std::optional<std::uint32_t>(3) : std::optional<std::uint32_t>(2);
    sm.source = source::k_ibdiagnet;
    add_manager(sample, std::move(sm));
    sample.sm_answered = true;
  }
}

void apply_managers(const IbDiagnetViews& views, IbFabricSample& sample, NodeIndex& index) {
  if (views.db_csv) {
    for (const auto& row : views.db_csv->managers) {
      IbSubnetManager sm;
      sm.guid = row.guid.value_or(row.port_guid.value_or(row.node_guid));
      sm.lid = lid_of(index, row.node_guid, row.port);
      sm.priority = row.priority;
      sm.state = row.state;
      sm.activity_count = row.activity_count;
      sm.source = source::k_ibdiagnet;
      add_manager(sample, std::move(sm));
      sample.sm_answered = true;
    }
  }
  if (views.sm) {
    sample.sm_queried = true;  // ibdiagnet looked for SMs: an empty report found none
    add_reported(views.sm->managers, sample);
  }
  if (!views.log) {
    return;
  }
  add_reported(views.log->managers, sample);
  for (const auto& e : views.log->errors) {
    sample.diagnet_errors.push_back("-E- " + e.text);
  }
  for (const auto& w : views.log->warnings) {
    sample.diagnet_warnings.push_back("-W- " + w.text);
  }
}

int kind_rank(IbNodeKind kind) {
  switch (kind) {
    case IbNodeKind::Switch:
      return 0;
    case IbNodeKind::Router:
      return 1;
    case IbNodeKind::Ca:
      return 2;
  }
  return 2;
}

void sort_nodes(IbFabric& ib) {
  std::stable_sort(ib.nodes.begin(), ib.nodes.end(), [](const IbNode& a, const IbNode& b) {
    return std::tuple(kind_rank(a.kind), a.name, a.guid) <
           std::tuple(kind_rank(b.kind), b.name, b.guid);
  });
}

void record_sources(const IbDiagnetViews& views, IbFabric& ib, std::vector<Problem>& problems) {
  SourceState observed{Availability::Observed, views.dir};
  ib.sources[source::k_ibdiagnet] = observed;
  if (views.db_csv && views.db_csv->truncated) {
    std::string fragment = views.db_csv->fragment.substr(0, 80);
    problems.push_back(
        {"", source::k_ibdiagnet,
         make_error(ErrorCode::Parse,
                    fmt::format("ibdiagnet2.db_csv is truncated (a section without its END_ "
                                "line{}); what it held whole was read",
                                fragment.empty() ? "" : ", last line cut: " + fragment),
                    views.dir + "/ibdiagnet2.db_csv")});
  }
}

}  // namespace

void apply_ibdiagnet(const IbDiagnetViews& views, std::size_t sample, IbFabric& ib,
                     std::vector<Problem>& problems) {
  if (views.empty()) {
    return;
  }
  if (ib.samples.size() <= sample) {
    ib.samples.resize(sample + 1);
  }
  NodeIndex index(ib);
  if (views.db_csv) {
    apply_nodes(*views.db_csv, index);
    apply_ports(*views.db_csv, index);
  }
  if (views.net_dump) {
    ibdiagnet_detail::apply_net_dump(*views.net_dump, index);
  }
  name_ib_nodes(ib.nodes);
  apply_managers(views, ib.samples[sample], index);
  ibdiagnet_detail::apply_counters(views, sample, index);
  record_sources(views, ib, problems);
  if (index.added()) {
    sort_nodes(ib);
    ib.reindex();
  }
}

}  // namespace netdoctor::model
