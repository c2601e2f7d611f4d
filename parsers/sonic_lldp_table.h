// SONiC `show lldp table`.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct SonicLldpEntry {
  std::string local_port;      // "Ethernet0"
  std::string remote_device;   // system name: "node01"
  std::string remote_port_id;  // "ens1f0np0"
  std::string capability;      // "BR", "R", may be empty
  std::string remote_port_descr;
};

struct SonicLldpTable {
  std::vector<SonicLldpEntry> entries;
  std::optional<std::uint64_t> total_entries;  // "Total entries displayed:  N"
};

// Fails when no table with LocalPort and RemoteDevice columns is found.
Result<SonicLldpTable> parse_sonic_lldp_table(std::string_view text);

nlohmann::json to_json(const SonicLldpTable& table);

}  // namespace netdoctor::parsers
