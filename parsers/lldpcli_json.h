// `lldpcli show neighbors -f json`: one neighbour per local interface.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct LldpNeighbor {
  std::string local_interface;  // our side: "ens1f0np0"
  std::string via;              // "LLDP", "CDPv2", ...
  std::string chassis_name;     // remote system name: "leaf1"
  std::string chassis_id_type;  // "mac", "local", ...
  std::string chassis_id;
  std::string chassis_descr;
  std::vector<std::string> mgmt_ips;  // "mgmt-ip" may be a string or a list
  std::string port_id_type;           // "local", "mac", "ifname"
  std::string port_id;                // "Ethernet0"
  std::string port_descr;
  std::optional<std::uint32_t> ttl;  // seconds
};

struct LldpNeighbors {
  std::vector<LldpNeighbor> neighbors;  // in printed order
};

// Accepts both the list form ("interface": [ {...}, ... ]) and the single-object form
// ("interface": {"eth0": {...}}), and "lldp": {} (no neighbours) as an empty list.
Result<LldpNeighbors> parse_lldpcli_json(std::string_view text);

nlohmann::json to_json(const LldpNeighbors& neighbors);

}  // namespace netdoctor::parsers
