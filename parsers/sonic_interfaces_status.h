// SONiC `show interfaces status`.
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

struct SonicInterfaceStatus {
  std::string interface;  // "Ethernet0"
  std::string lanes;      // as printed: "0,1,2,3"
  std::vector<std::uint32_t> lane_list;
  std::string speed;                        // as printed: "200G", "N/A"
  std::optional<std::uint64_t> speed_mbps;  // "200G" -> 200000, "25G" -> 25000
  std::optional<std::uint32_t> mtu;         // bytes
  std::string fec;                          // "rs", "none", "N/A"
  std::string alias;
  std::string vlan;   // "routed", "trunk", ...
  std::string oper;   // "up" / "down"
  std::string admin;  // "up" / "down"
  std::string type;   // transceiver type, may contain spaces
  std::string asym_pfc;
  std::map<std::string, std::string> cells;  // header -> cell as printed
};

struct SonicInterfacesStatus {
  std::vector<SonicInterfaceStatus> interfaces;
};

// Fails when no table with Interface and Oper columns is found.
Result<SonicInterfacesStatus> parse_sonic_interfaces_status(std::string_view text);

nlohmann::json to_json(const SonicInterfacesStatus& status);

}  // namespace netdoctor::parsers
