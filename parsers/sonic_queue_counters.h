// SONiC `show queue counters`: per port and queue, transmitted and dropped packets/bytes.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct SonicQueueCounter {
  std::string port;                           // "Ethernet0"
  std::string queue;                          // as printed: "UC3", "MC8", "ALL2"
  std::string queue_type;                     // "UC", "MC", ... (letters of `queue`)
  std::optional<std::uint32_t> queue_index;   // 3
  std::optional<std::uint64_t> packets;       // Counter/pkts; nullopt for N/A
  std::optional<std::uint64_t> bytes;         // Counter/bytes
  std::optional<std::uint64_t> drop_packets;  // Drop/pkts
  std::optional<std::uint64_t> drop_bytes;    // Drop/bytes
};

struct SonicQueueCounters {
  std::string last_cached_time;
  std::vector<SonicQueueCounter> queues;  // in printed order
};

// Fails when no table with Port, TxQ and Drop/pkts columns is found.
Result<SonicQueueCounters> parse_sonic_queue_counters(std::string_view text);

nlohmann::json to_json(const SonicQueueCounters& counters);

}  // namespace netdoctor::parsers
