// Internals of apply_ibdiagnet (model/ib_diagnet.h), shared by its files: ib_diagnet.cc (nodes,
// ports, links, firmware, managers, log), ib_diagnet_net_dump.cc, ib_diagnet_counters.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "model/ib_diagnet.h"
#include "model/ib_fabric.h"
#include "model/ib_link_speed.h"

namespace netdoctor::model::ibdiagnet_detail {

// The model's nodes by GUID, kept current while nodes are added (positions, not references:
// adding a node may move the others).
class NodeIndex {
 public:
  explicit NodeIndex(IbFabric& ib);
  std::optional<std::size_t> find(std::uint64_t guid) const;
  // The node holding port GUID `guid` (a node GUID or one of its ports' GUIDs).
  std::optional<std::size_t> find_port_guid(std::uint64_t guid) const;
  // The node of `guid`, added with `kind` when absent.
  std::size_t add(std::uint64_t guid, IbNodeKind kind);
  IbNode& node(std::size_t at) { return m_ib.nodes[at]; }
  IbFabric& fabric() { return m_ib; }
  bool added() const { return m_added; }

 private:
  IbFabric& m_ib;
  std::map<std::uint64_t, std::size_t> m_at;
  // Port GUID -> node, built on first use and dropped when a node is added.
  mutable std::optional<std::map<std::uint64_t, std::size_t>> m_port_at;
  bool m_added = false;
};

// Port `number` of `node`, inserted in number order when absent.
IbPort& port_of(IbNode& node, std::uint32_t number);

// Trained speed and width into the port where no earlier view set them.
void fill_speed(IbPort& port, std::optional<IbSpeed> speed, std::optional<int> lanes);
// What the port could do, likewise.
void fill_supported(IbPort& port, std::optional<IbSpeed> speed, std::optional<int> lanes);
// Marks the node as described by ibdiagnet.
void mark_observed(IbNode& node);

// ibdiagnet2.net_dump: switches, their ports and neighbours (nodes and ports left unset by
// the db_csv).
void apply_net_dump(const parsers::IbdiagNetDump& dump, NodeIndex& index);

// PM_INFO, else ibdiagnet2.pm, into each port's samples[sample].
void apply_counters(const IbDiagnetViews& views, std::size_t sample, NodeIndex& index);

}  // namespace netdoctor::model::ibdiagnet_detail
