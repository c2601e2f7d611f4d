// `ethtool -S <if>`: driver statistics as an ordered list of (name, value) pairs.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct EthtoolStat {
  std::string name;         // as printed, per-ring prefixes kept whole ("[0]: rx_ucast_packets")
  std::uint64_t value = 0;  // unit depends on the counter (packets, bytes, µs, ...)
};

// A "name: value" line whose value is not an unsigned decimal integer.
struct EthtoolNonNumeric {
  std::string name;
  std::string raw_value;
};

struct EthtoolStats {
  std::vector<EthtoolStat> stats;                             // in printed order
  std::map<std::string, std::uint64_t, std::less<>> by_name;  // first occurrence wins
  std::vector<EthtoolNonNumeric> non_numeric;
  bool had_header = false;  // saw "NIC statistics:" (false for grep'd fragments)

  // A missing counter is not a zero: nullopt when the driver did not print it.
  std::optional<std::uint64_t> get(std::string_view name) const;
};

// Accepts the full output, grep'd fragments without the header, and a leading shell prompt /
// command line. Fails when no "name: value" line is found.
Result<EthtoolStats> parse_ethtool_stats(std::string_view text);

// The numeric "name: value" lines of the same output, in printed order, handed to `visit`
// without building EthtoolStats (the model maps each to a metric as it goes: thousands of
// outputs per bundle). Same lines, same names and the same errors as parse_ethtool_stats; on an
// error nothing was visited.
Status for_each_ethtool_stat(std::string_view text,
                             const std::function<void(std::string_view, std::uint64_t)>& visit);

nlohmann::json to_json(const EthtoolStats& stats);

}  // namespace netdoctor::parsers
