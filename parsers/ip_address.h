// `ip [-d] address` / `ip [-d] link`: interfaces with flags, MTU, state, MAC and addresses.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IpAddr {
  std::string family;            // "inet" or "inet6"
  std::string address;           // without the prefix: "10.10.0.10"
  std::uint32_t prefix_len = 0;  // bits
  std::string scope;             // "global", "link", "host"
};

struct IpInterface {
  std::uint32_t index = 0;
  std::string name;                      // "ens1f0np0" (without "@parent")
  std::string parent;                    // "eth0" for "vlan10@eth0"; empty otherwise
  std::vector<std::string> flags;        // "BROADCAST", "UP", "LOWER_UP", ...
  std::optional<std::uint64_t> mtu;      // bytes
  std::string state;                     // "UP", "DOWN", "UNKNOWN"
  std::string master;                    // bond/bridge master, if any
  std::string link_type;                 // "ether", "loopback", "infiniband", ...
  std::string mac;                       // link/ether address, lower case as printed
  std::optional<std::uint32_t> vlan_id;  // from "vlan protocol 802.1Q id N" (-d)
  std::string parent_dev;                // "parentdev 0000:1a:00.0" (-d)
  std::vector<IpAddr> addresses;

  bool has_flag(std::string_view flag) const;
};

struct IpAddressList {
  std::vector<IpInterface> interfaces;  // in printed order

  const IpInterface* find(std::string_view name) const;  // nullptr when absent
};

// Accepts a leading shell prompt. Fails when no "N: name: <FLAGS>" line is found.
Result<IpAddressList> parse_ip_address(std::string_view text);

nlohmann::json to_json(const IpAddressList& list);

}  // namespace netdoctor::parsers
