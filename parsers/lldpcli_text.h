// `lldpcli show neighbors [summary|details]` in its default text form (lldpd's text writer):
//   -------------------------------------------------------------------------------
//   LLDP neighbors:
//   -------------------------------------------------------------------------------
//   Interface:    ens1f0np0, via: LLDP, RID: 1, Time: 0 day, 00:00:13
//     Chassis:
//       ChassisID:    mac 06:1a:8c:ad:4f:0c
//       SysName:      leaf1
//       ...
//     Port:
//       PortID:       ifname Ethernet0
//       PortDescr:    Ethernet0
//       TTL:          120
//   -------------------------------------------------------------------------------
// The neighbours are read into the record of `lldpcli show neighbors -f json`
// (parsers/lldpcli_json.h), so a loader treats both forms alike.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "parsers/lldpcli_json.h"

namespace netdoctor::parsers {

// What the text form of one neighbour prints beyond LldpNeighbor's fields: "RID", "Time",
// "MgmtIface", each "Capability", "PMD autoneg", "MAU oper type", VLAN and LLDP-MED lines, ...
// as (label, value) in printed order; multi-line values joined with '\n'.
struct LldpTextExtra {
  std::vector<std::pair<std::string, std::string>> fields;
};

struct LldpcliText {
  LldpNeighbors neighbors;            // the same record lldpcli-json gives, in printed order
  std::vector<LldpTextExtra> extras;  // extras[i] belongs to neighbors.neighbors[i]
  // Non-blank, non-prompt lines that are neither a separator, the header nor a "Label: value"
  // of a neighbour, trimmed, in order.
  std::vector<std::string> unparsed_lines;
};

// An output with the "LLDP neighbors:" header and no "Interface:" block is no neighbours (an
// empty list). Fails when there is neither that header nor an "Interface:" line, and on the
// other lldpcli text outputs ("Local chassis:", "LLDP interfaces:", "LLDP statistics:", ...).
Result<LldpcliText> parse_lldpcli_text(std::string_view text);

// The lldpcli-json JSON, each neighbour with an "extra" list of {"label", "value"}, and
// "unparsed_lines".
nlohmann::json to_json(const LldpcliText& text);

}  // namespace netdoctor::parsers
