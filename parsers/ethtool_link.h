// `ethtool <if>`: link settings (speed, duplex, link modes, FEC, link detected).
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

struct EthtoolLink {
  std::string interface;  // from "Settings for X:"; empty when the header is missing
  std::string speed_raw;  // as printed: "200000Mb/s", "Unknown!"
  std::optional<std::uint64_t> speed_mbps;  // Mb/s; nullopt when unknown
  std::string duplex;                       // "Full", "Half", "Unknown! (255)"
  std::optional<bool> link_detected;
  std::string port;                               // "Direct Attach Copper", "FIBRE"
  std::string auto_negotiation;                   // "on" / "off"
  std::vector<std::string> supported_ports;       // "[ Backplane ]" -> {"Backplane"}
  std::vector<std::string> supported_link_modes;  // "200000baseCR4/Full", ...
  std::vector<std::string> advertised_link_modes;
  std::vector<std::string> supported_fec_modes;  // "None", "RS", "BASER"
  std::vector<std::string> advertised_fec_modes;
  std::optional<std::uint64_t> max_supported_speed_mbps;   // highest speed among supported modes
  std::optional<std::uint64_t> max_advertised_speed_mbps;  // same for advertised modes
  std::map<std::string, std::string> fields;  // every "Key: value" line (lists space-joined)
};

// Speed in Mb/s encoded in a link mode name: "200000baseCR4/Full" -> 200000; nullopt otherwise.
std::optional<std::uint64_t> link_mode_speed_mbps(std::string_view mode);

// Requires a "Settings for" header or at least one of Speed / Link detected.
Result<EthtoolLink> parse_ethtool_link(std::string_view text);

nlohmann::json to_json(const EthtoolLink& link);

}  // namespace netdoctor::parsers
