// ibdiagnet2.db_csv (NVIDIA ibdiagnet): the fabric database, one CSV table per section
//   START_NODES
//   NodeDesc,NumPorts,NodeType,...,NodeGUID,PortGUID,DeviceID,...
//   "MF0;ib-switch-sequoia:MQM9700/U1",65,2,1,1,0xb0cf0e0300d33fc0,...
//   END_NODES
// Columns are found by their header name (case-insensitive, order free); quoted fields may hold
// commas; "N/A" (and -1 in some counters) means not available. Every section is kept as header
// and rows (`sections`); NODES, PORTS, LINKS, SM_INFO, PM_INFO, PM_DELTA and NODES_INFO are also
// read into typed rows. A truncated file (a section without its END_ line, a last line cut
// short) keeps what is whole: the cut line is `fragment`, never a row.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IbdiagSection {
  std::string name;                 // "PM_INFO" (from START_PM_INFO)
  std::vector<std::string> header;  // column names, trimmed
  std::vector<std::vector<std::string>> rows;
  bool complete = false;  // its END_<name> line was seen
  // Position of column `name` in `header` (case-insensitive); nullopt when absent.
  std::optional<std::size_t> column(std::string_view column_name) const;
};

// NODES: one row per node (NodeType 1 CA, 2 switch, 3 router).
struct IbdiagNode {
  std::uint64_t guid = 0;
  std::string description;
  std::optional<std::uint32_t> ports;
  std::optional<std::uint32_t> type;
  std::optional<std::uint64_t> port_guid;
  std::optional<std::uint64_t> system_image_guid;
  std::optional<std::uint32_t> device_id;  // decimal as printed (54002 = 0xd2f2)
  std::optional<std::uint32_t> vendor_id;  // 713 = 0x2c9
  std::optional<std::uint32_t> revision;
};

// PORTS: PortInfo as read from the wire. Widths are the IBTA bit masks (1 1x, 2 4x, 4 8x, 8 12x,
// 16 2x); speeds the 32-bit masks this file documents (byte 1 SDR/DDR/QDR, byte 2 the extended
// speeds FDR/EDR/HDR/NDR/XDR, byte 3 Mellanox FDR10/EDR20; a separate LinkSpeedExt* column, where
// a file has one, is folded into byte 2); MTUs the IBTA codes (1 256 .. 5
// 4096); states the IBTA numbers (PortState 1 Down .. 4 Active; PortPhyState 5 LinkUp).
struct IbdiagPort {
  std::uint64_t node_guid = 0;
  std::optional<std::uint64_t> port_guid;
  std::uint32_t port = 0;
  std::optional<std::uint32_t> lid;
  std::optional<std::uint32_t> state;
  std::optional<std::uint32_t> phys_state;
  std::optional<std::uint32_t> width_active, width_supported, width_enabled;
  std::optional<std::uint32_t> speed_active, speed_supported, speed_enabled;
  std::optional<std::uint32_t> mtu;      // NMTU: the operational (neighbour) MTU code
  std::optional<std::uint32_t> mtu_cap;  // MTUCap
};

// LINKS: one row per cable, each end once.
struct IbdiagLink {
  std::uint64_t guid1 = 0;
  std::uint32_t port1 = 0;
  std::uint64_t guid2 = 0;
  std::uint32_t port2 = 0;
};

// PM_INFO (absolute PMA counters) and PM_DELTA (their change over ibdiagnet's PM interval): every
// numeric column but the keys, by its header name. 32-bit PortXmitData etc. sit beside the 64-bit
// *Extended / *Ext columns; data columns count 4-octet words, as the PMA does.
struct IbdiagPmRow {
  std::uint64_t node_guid = 0;
  std::optional<std::uint64_t> port_guid;
  std::uint32_t port = 0;
  std::map<std::string, std::uint64_t> counters;  // header name -> value
  std::vector<std::string> not_available;         // columns that were N/A, -1 or a N/A marker
};

// SM_INFO: every subnet manager ibdiagnet found (SmState 3 master, 2 standby, ...).
struct IbdiagSm {
  std::uint64_t node_guid = 0;
  std::optional<std::uint64_t> port_guid;
  std::optional<std::uint32_t> port;
  std::optional<std::uint64_t> guid;  // the SM's GUID
  std::optional<std::uint64_t> activity_count;
  std::optional<std::uint32_t> state;
  std::optional<std::uint32_t> priority;
};

// NODES_INFO (and GENERAL_INFO_SMP where NODES_INFO lacks the node): firmware and hardware.
struct IbdiagNodeInfo {
  std::uint64_t guid = 0;
  std::string firmware;  // "31.2012.1024" from FWInfo_Extended_* (else FWInfo_Major/Minor/SubMinor)
  std::string psid;      // "MT_0000000579"
  std::optional<std::uint32_t> device_id;    // HWInfo_DeviceID (0xd2f2)
  std::optional<std::uint32_t> hw_revision;  // HWInfo_DeviceHWRevision
  std::string source;                        // "NODES_INFO" or "GENERAL_INFO_SMP"
};

struct IbdiagDbCsv {
  std::vector<IbdiagSection> sections;  // every section, in file order (typed ones too)
  std::vector<IbdiagNode> nodes;
  std::vector<IbdiagPort> ports;
  std::vector<IbdiagLink> links;
  std::vector<IbdiagSm> managers;
  std::vector<IbdiagPmRow> pm_info;
  std::vector<IbdiagPmRow> pm_delta;
  std::vector<IbdiagNodeInfo> node_info;
  std::vector<std::string> unparsed;  // non-comment lines outside any section
  std::string fragment;               // the cut last line of a truncated file
  bool truncated = false;             // a section without END_, or a cut last line
  // Rows of typed sections that lacked their key columns (GUID, port): kept in `sections` only.
  std::size_t skipped_rows = 0;

  const IbdiagSection* find(std::string_view name) const;
};

// Fails when the text holds no "START_<NAME>" line.
Result<IbdiagDbCsv> parse_ibdiagnet_db_csv(std::string_view text);

nlohmann::json to_json(const IbdiagDbCsv& db);

namespace detail {
// Fills the typed rows of `db` from its sections (parse_ibdiagnet_db_csv calls it).
void read_typed_sections(IbdiagDbCsv& db);
}  // namespace detail

}  // namespace netdoctor::parsers
