// SONiC `show pfc counters`: a "Port Rx" table and a "Port Tx" table, PFC0..PFC7 frame counts.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct SonicPfcPort {
  std::string port;
  std::array<std::optional<std::uint64_t>, 8> frames;  // index = priority; nullopt for N/A
};

struct SonicPfcCounters {
  std::string last_cached_time;  // after "Last cached time was", empty when absent
  std::vector<SonicPfcPort> rx;  // PFC frames received
  std::vector<SonicPfcPort> tx;  // PFC frames sent

  const SonicPfcPort* find_rx(std::string_view port) const;
  const SonicPfcPort* find_tx(std::string_view port) const;
};

// Fails when neither a "Port Rx" nor a "Port Tx" table is found.
Result<SonicPfcCounters> parse_sonic_pfc_counters(std::string_view text);

nlohmann::json to_json(const SonicPfcCounters& counters);

}  // namespace netdoctor::parsers
