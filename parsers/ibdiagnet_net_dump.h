// ibdiagnet2.net_dump (NVIDIA ibdiagnet): every switch's port table
//   "MF0;leaf-01:MQM8700/U1", Mellanox, 0xb8cef603001bf9de, LID 1
//   #  : IB# : Sta : PhysSta : MTU : LWA : LSA : FEC mode : Retran : Neighbor Guid : N# : NLID :
//   Neighbor Description
//   1  : 1   : ACT : LINK UP : 5   : 4x  : 50  : MLNX-RS-FEC ...  : NO-RTR : 0x... : 1 : 7 :
//   "node01 mlx5_0"
// Columns are ' : '-separated and read by their header names (older versions lack FEC mode and
// Retran; unknown ones are kept in `extra`); the neighbour description is last and may itself
// hold ':'. Sta is DOWN / INI / ARM / ACT, PhysSta the IBTA names as ibdiagnet prints them
// ("LINK UP", "POLL", "DISABLE"), MTU the IBTA code, LWA the width ("4x"), LSA the per-lane
// speed in Gb/s ("2.5" .. "200", "FDR10", "EDR20"). A down port has empty neighbour columns.
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

struct NetDumpPort {
  std::string label;                  // the "#" column as printed: "1", "1/1", "sw1p1"
  std::optional<std::uint32_t> port;  // IB#: the IB port number
  std::string state;                  // "ACT", "DOWN", "INI", "ARM"
  std::string phys_state;             // "LINK UP", "POLL", "DISABLE", ...
  std::optional<std::uint32_t> mtu;   // IBTA code (5 = 4096)
  std::string width;                  // "4x"
  std::string speed;                  // "25", "FDR10"
  std::string fec;                    // "FEC mode" as printed
  std::string retransmission;         // "Retran": "NO-RTR", "LLR64", ...
  std::optional<std::uint64_t> peer_guid;
  std::string peer_port;  // "N#" as printed ("1", or a label such as "B141D0F0/0/0")
  std::optional<std::uint32_t> peer_lid;
  std::string peer_description;              // unquoted, spaces kept
  std::map<std::string, std::string> extra;  // columns of other names, as printed
};

struct NetDumpNode {
  std::string description;  // "MF0;leaf-01:MQM8700/U1"
  std::string vendor;       // "Mellanox"
  std::uint64_t guid = 0;
  std::optional<std::uint32_t> lid;
  std::vector<std::string> columns;  // the block's header, trimmed
  std::vector<NetDumpPort> ports;
};

struct IbdiagNetDump {
  std::vector<NetDumpNode> nodes;
  std::vector<std::string> unparsed;  // other non-comment lines
};

// Fails when no `"<description>", <vendor>, 0x<guid>, LID <n>` block header is found.
Result<IbdiagNetDump> parse_ibdiagnet_net_dump(std::string_view text);

nlohmann::json to_json(const IbdiagNetDump& dump);

}  // namespace netdoctor::parsers
