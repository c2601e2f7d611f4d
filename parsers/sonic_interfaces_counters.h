// SONiC `show interfaces counters`.
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

// Counts are packets since the last clear; "N/A" cells are nullopt.
struct SonicInterfaceCounters {
  std::string iface;  // "Ethernet0"
  std::string state;  // "U", "D", "X"
  std::optional<std::uint64_t> rx_ok, rx_err, rx_drp, rx_ovr;
  std::optional<std::uint64_t> tx_ok, tx_err, tx_drp, tx_ovr;
  std::optional<double> rx_bytes_per_s;  // "15.75 GB/s" -> 15.75e9 (SONiC uses powers of 1000)
  std::optional<double> tx_bytes_per_s;
  std::optional<double> rx_util_percent;  // "62.98%" -> 62.98
  std::optional<double> tx_util_percent;
  std::map<std::string, std::string> cells;  // header -> cell as printed
};

struct SonicInterfacesCounters {
  std::vector<SonicInterfaceCounters> interfaces;
};

// "286.58 KB/s" -> 286580.0 bytes/s; also B/s, MB/s, GB/s, TB/s; nullopt for N/A or junk.
std::optional<double> sonic_rate_bytes_per_s(std::string_view cell);

// Fails when no table with IFACE and RX_OK columns is found.
Result<SonicInterfacesCounters> parse_sonic_interfaces_counters(std::string_view text);

nlohmann::json to_json(const SonicInterfacesCounters& counters);

}  // namespace netdoctor::parsers
