// `chronyc sources [-v]`: chrony's time sources, which one it follows and each one's last sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "parsers/clock_common.h"

namespace netdoctor::parsers {

// One row. Offsets are in seconds with chrony's sign: positive = the local clock is AHEAD of the
// source (chronyc manual, `sources`). The `Last sample` column is "adjusted[measured] +/- error".
struct ChronySource {
  char mode = '^';         // '^' server, '=' peer, '#' local reference clock
  std::string mode_word;   // "server", "peer", "refclock"
  char state = '?';        // '*' '+' '-' '?' 'x' '~'
  std::string state_word;  // "selected", "combined", "not_combined", "unreachable",
                           // "falseticker", "too_variable"
  std::string name;        // name or address as printed (chronyc may cut long names)
  std::optional<std::uint32_t> stratum;
  std::optional<std::int32_t> poll_log2;    // log2 of the polling interval in seconds; may be < 0
  std::string reach_octal;                  // as printed: "377"
  std::optional<std::uint32_t> reach;       // decoded: 255 = the last 8 polls all answered
  std::string last_rx;                      // as printed: "26", "4m", "10y", "-"
  std::optional<double> last_rx_s;          // seconds since the last good sample
  std::optional<double> adjusted_offset_s;  // left of '[': measurement adjusted for slews since
  std::optional<double> measured_offset_s;  // inside '[...]': the measurement itself
  std::optional<double> error_s;            // after "+/-": its margin of error
  std::string last_sample;                  // the column as printed
};

struct ChronySources {
  std::optional<std::uint32_t> number_of_sources;  // "210 Number of sources = N" (chrony < 4)
  std::vector<ChronySource> sources;
  std::vector<std::string> unparsed_rows;  // table rows that are not a complete source (cut)
  std::string selected;                    // name of the '*' source; "" when none
  std::size_t combined = 0;                // '+' sources
  std::size_t falsetickers = 0;            // 'x' sources
  std::size_t unreachable = 0;             // '?' sources
  // daemon "chrony"; the '*' source, its adjusted offset; synchronised when one is selected.
  ClockStatus status;
};

// Fails when no "MS Name/IP address" header is found (not `chronyc sources` output, chronyd
// not answering: "506 Cannot talk to daemon"). A header with no rows is a host without sources.
Result<ChronySources> parse_chronyc_sources(std::string_view text);

nlohmann::json to_json(const ChronySources& sources);

}  // namespace netdoctor::parsers
