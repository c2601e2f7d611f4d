// iblinkinfo (infiniband-diags): every port of every node and what it connects to, in the
// plain / -S form (a "CA: <desc>:" or "Switch: 0x<guid> <desc>:" header over its ports)
//   Switch: 0x0c42a103008982a4 Quantum Mellanox Technologies:
//              3    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      20    1[  ] "cu07
//              HCA-1" ( ) 3    5[  ] ==(                Down/ Polling)==>             [  ] "" ( )
// and the -l form (one line per port, GUID and padded description first)
//   0x0000000000100007 "     node03 mlx5_0"      5    1[  ] ==( 4X 2.5 Gbps Active/  LinkUp)==>
//   0x0000000000200001      3    1[  ] "spine-1" (Could be 12X Could be 10.0 Gbps)
// Speed is the per-lane rate in Gb/s as printed (53.125 = HDR, 25.78125 = EDR).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IbLink {
  std::string node_type;              // "CA", "Switch" (from the header; "" in -l form)
  std::string node_description;       // header or -l description, trimmed
  std::optional<std::uint64_t> guid;  // switch GUID, or the CA port GUID printed first
  std::optional<std::uint32_t> lid;
  std::optional<std::uint32_t> port;
  std::string ext;                           // inside "1[  ]": the external port number, if any
  std::string width;                         // "4X"; "" when down
  std::optional<double> speed_gbps;          // per lane, "53.125 Gbps"
  std::string state;                         // "Active", "Down", "Initialize", "Armed"
  std::string physical_state;                // "LinkUp", "Polling", "Disabled"
  std::optional<std::uint64_t> remote_guid;  // -l form
  std::optional<std::uint32_t> remote_lid;
  std::optional<std::uint32_t> remote_port;
  std::string remote_ext;
  std::string remote_description;  // "" when nothing is connected
  std::string comment;             // inside the trailing "( ... )": "Could be 12X ..."
};

struct IbLinkInfo {
  std::vector<IbLink> links;
  std::vector<std::string> unparsed;  // non-blank lines that are no header, link or prompt

  const IbLink* find(std::string_view node_description, std::uint32_t port) const;
};

// Fails when no line has the "==( ... )==>" link arrow.
Result<IbLinkInfo> parse_iblinkinfo(std::string_view text);

nlohmann::json to_json(const IbLinkInfo& info);

}  // namespace netdoctor::parsers
