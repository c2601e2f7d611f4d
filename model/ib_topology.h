// The InfiniBand subnet's nodes, ports and cabling merged from the fabric views of every sample
// (model/ib_loader.h): ibnetdiscover (topology and -p forms), iblinkinfo (plain and -l forms),
// ibnodes / ibswitches / ibhosts, and the switches ibqueryerrors names. A node is one node by
// its GUID whichever view names it; views that print a CA's port GUID (iblinkinfo, -p) are
// joined to its node through the port GUIDs ibnetdiscover prints. A later view overwrites a
// port's state, width and speed (the latest sample is the port's state). Every lookup is through
// a map: building is O(n log n) in ports.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/ib_fabric.h"
#include "parsers/iblinkinfo.h"
#include "parsers/ibnetdiscover.h"
#include "parsers/ibnodes.h"
#include "parsers/ibqueryerrors.h"

namespace netdoctor::model {

class IbTopologyBuilder {
 public:
  void add_topology(const parsers::IbNetDiscover& net);    // topology-form nodes
  void add_port_lines(const parsers::IbNetDiscover& net);  // -p lines
  void add_links(const parsers::IbLinkInfo& info);
  void add_nodes(const std::vector<parsers::IbNode>& nodes);
  // Switches (their header names the node GUID) and their ports; HCAs are only matched.
  void add_error_nodes(const parsers::IbQueryErrors& errors);

  // The nodes, named (model/ib_names.h), switches first then HCAs, each by name; peers resolved
  // both ways. Leaves the builder empty.
  std::vector<IbNode> finish();

 private:
  struct Draft {
    IbNode node;
    std::map<std::uint32_t, IbPort> ports;
    bool guessed_guid = false;  // keyed by a port GUID: no view printed the node GUID
  };
  // The other end of a port as a view names it, resolved once every node is known.
  struct PendingPeer {
    std::uint64_t node = 0;
    std::uint32_t port = 0;
    std::optional<std::uint64_t> guid;  // node or port GUID
    std::optional<std::uint32_t> lid;
    std::optional<std::uint32_t> remote_port;
  };

  Draft& node(std::uint64_t guid, IbNodeKind kind, const std::string& source);
  // The node of an HCA port GUID: its node when some view tied them, else a node keyed by the
  // port GUID itself (marked guessed), created with `description`.
  Draft& ca_by_port_guid(std::uint64_t port_guid, std::uint32_t port,
                         const std::string& description, const std::string& source);
  void note_port_guid(std::uint64_t port_guid, std::uint64_t node_guid, std::uint32_t port);
  // A guessed node re-keyed under the node GUID a later view printed; what named it by the
  // guessed GUID follows the alias.
  void adopt(std::uint64_t guessed, std::uint64_t real);
  // Before `node_guid` is created from a view printing its port GUIDs: a node guessed from
  // one of them becomes this node.
  void adopt_by_port_guids(std::uint64_t node_guid, const parsers::IbnetNode& found);
  std::uint64_t canonical(std::uint64_t guid) const;
  void describe(Draft& draft, const std::string& description, bool authoritative);
  void add_link_line(const parsers::IbLink& link, bool is_switch);
  void resolve_peers();
  std::optional<std::uint64_t> node_of_guid(std::uint64_t guid) const;

  std::map<std::uint64_t, Draft> m_nodes;  // by node GUID
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint32_t>> m_port_guids;
  std::multimap<std::string, std::uint64_t> m_guessed_by_description;
  std::map<std::uint64_t, std::uint64_t> m_aliases;  // guessed GUID -> node GUID
  std::vector<PendingPeer> m_peers;
};

// Where a LID leads: a switch (every port shares port 0's LID) or one HCA port.
struct IbLidTarget {
  std::size_t node = 0;               // index into IbFabric::nodes
  std::optional<std::uint32_t> port;  // nullopt for a switch
};
std::map<std::uint32_t, IbLidTarget> index_lids(const std::vector<IbNode>& nodes);

// Node and port of a port GUID (HCA ports; a switch's port 0 GUID gives the switch with no port).
std::map<std::uint64_t, IbLidTarget> index_port_guids(const std::vector<IbNode>& nodes);

}  // namespace netdoctor::model
