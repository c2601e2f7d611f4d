// `ntpq -p` / `ntpq -pn` (ntpd and NTPsec, including NTPsec's wide form): the peers billboard.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "parsers/clock_common.h"

namespace netdoctor::parsers {

// One peer. ntpq prints delay/offset/jitter in milliseconds and its offset is the SERVER's
// relative to this host (positive = the server is ahead, the local clock behind). `offset_s`
// is turned to the clock records' convention: seconds, positive = the local clock AHEAD; the
// printed value stays in `offset_ms`.
struct NtpqPeer {
  char tally = ' ';        // '*' '+' '-' 'x' '.' '#' 'o' or ' '
  std::string tally_word;  // "sys_peer", "candidate", "outlier", "falseticker", "excess",
                           // "backup", "pps_peer", "reject"
  std::string remote;      // as printed (full in the wide form, cut to 15 characters otherwise)
  std::string refid;       // ".GPS.", ".INIT.", an address...
  std::optional<std::uint32_t> stratum;  // 16 = unsynchronised
  std::string type;                      // 'u' unicast, 'b' broadcast, 'l' local, 'p' pool...
  std::string when;                      // as printed: "8", "5d", "-"
  std::optional<double> when_s;          // seconds since the last packet
  std::optional<std::uint32_t> poll_s;   // polling interval, seconds
  std::string reach_octal;               // as printed: "377"
  std::optional<std::uint32_t> reach;    // decoded: 255 = the last 8 polls all answered
  std::optional<double> delay_s;         // round trip
  std::optional<double> offset_ms;       // as printed (server relative to this host)
  std::optional<double> offset_s;        // + = local clock ahead of the server
  std::optional<double> jitter_s;        // "jitter" (or "disp" in old ntpq)
};

struct NtpqPeers {
  std::vector<NtpqPeer> peers;
  std::vector<std::string> unparsed_rows;  // table rows that are not a complete peer (cut)
  std::string selected;                    // remote of the '*' (or 'o') peer; "" when none
  bool no_associations = false;            // ntpq said "No association ID's returned"
  // daemon "ntpd"; the '*'/'o' peer, its offset_s; synchronised when there is one.
  ClockStatus status;
};

// Fails when there is neither the "remote refid st t when poll reach delay offset ..." header
// nor "No association ID's returned" (ntpd not answering, other tools' output).
Result<NtpqPeers> parse_ntpq(std::string_view text);

nlohmann::json to_json(const NtpqPeers& peers);

}  // namespace netdoctor::parsers
