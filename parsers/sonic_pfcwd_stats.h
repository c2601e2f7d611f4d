// SONiC PFC watchdog: `show pfcwd stats` (alias `pfcwd show stats`) and `show pfcwd config`, in
// one record: a capture often holds both (and the config is what the stats are judged against).
// Multi-ASIC / VOQ chassis forms (backplane ports "Ethernet-BP0:3", "... on asic0" notes, the
// HISTORY column) are read the same way.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

// One row of the stats table. Counters are packets; the "a/b" cells are split, thousands
// separators dropped; nullopt for "N/A" or a cell the capture cut off.
struct SonicPfcwdQueue {
  std::string queue;                             // "Ethernet0:3" as printed
  std::string port;                              // "Ethernet0"
  std::optional<std::uint32_t> queue_index;      // 3
  std::string status;                            // "stormed", "operational", "N/A"
  bool stormed = false;                          // status "stormed": the watchdog is acting now
  std::optional<std::uint64_t> storms_detected;  // STORM DETECTED/RESTORED
  std::optional<std::uint64_t> storms_restored;
  std::optional<std::uint64_t> tx_ok;  // TX OK/DROP: since the counters started
  std::optional<std::uint64_t> tx_drop;
  std::optional<std::uint64_t> rx_ok;  // RX OK/DROP
  std::optional<std::uint64_t> rx_drop;
  std::optional<std::uint64_t> tx_last_ok;  // TX LAST OK/DROP: during the last storm
  std::optional<std::uint64_t> tx_last_drop;
  std::optional<std::uint64_t> rx_last_ok;  // RX LAST OK/DROP
  std::optional<std::uint64_t> rx_last_drop;
};

// One row of the config table.
struct SonicPfcwdPort {
  std::string port;
  std::string action;  // "drop", "forward", "alert"
  std::optional<std::uint64_t> detection_time_ms;
  std::optional<std::uint64_t> restoration_time_ms;
  std::string detection_time;    // as printed ("200", "N/A")
  std::string restoration_time;  // as printed ("200", "infinite")
  std::string history;           // HISTORY column: "enable", "disable", ""
};

struct SonicPfcwd {
  std::vector<SonicPfcwdQueue> queues;               // `show pfcwd stats`
  std::vector<SonicPfcwdPort> ports;                 // `show pfcwd config`
  std::optional<std::uint64_t> polling_interval_ms;  // "Changed polling interval to 100ms"
  std::vector<std::string> notes;  // those lines and "BIG_RED_SWITCH status is enable on asic0"

  const SonicPfcwdQueue* find_queue(std::string_view queue) const;  // "Ethernet0:3"
  const SonicPfcwdPort* find_port(std::string_view port) const;
};

// Fails when there is neither a stats table (QUEUE, STATUS, STORM DETECTED/RESTORED) nor a
// config table (PORT, ACTION, DETECTION TIME).
Result<SonicPfcwd> parse_sonic_pfcwd_stats(std::string_view text);

nlohmann::json to_json(const SonicPfcwd& pfcwd);

}  // namespace netdoctor::parsers
