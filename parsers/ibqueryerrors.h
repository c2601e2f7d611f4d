// ibqueryerrors (infiniband-diags): ports whose PMA error counters pass the thresholds,
//   Errors for 0x2c903006e29b0 "MF0;ys23ib4:SX6036/U1"
//      GUID 0x2c903006e29b0 port 5: [SymbolErrorCounter == 65535] [PortXmitWait == 84704351]
// and the "## Summary" footer. "port ALL" is the switch's AllPortSelect sum. Counters are the
// PortCounters ones (widths 4..32 bits): a value at its field's maximum (65535, 4294967295) is
// saturated, "at least" rather than a count. --details/--data/Link info lines are kept as text
// where not understood.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IbErrorCounter {
  std::string name;  // "PortXmitWait"
  std::uint64_t value = 0;
  bool saturated = false;  // at the maximum of its PortCounters field width
};

struct IbErrorPort {
  std::uint64_t guid = 0;                    // port GUID ("GUID 0x.. port N")
  std::string port;                          // "5", "ALL"
  std::optional<std::uint32_t> port_number;  // nullopt for "ALL"
  std::vector<IbErrorCounter> counters;      // in printed order
  std::vector<std::string> notes;            // other bracketed items / trailing text

  const IbErrorCounter* find(std::string_view name) const;
};

struct IbErrorNode {
  std::optional<std::uint64_t> guid;  // switches print their GUID, CAs only the description
  std::string description;            // NodeDescription, spaces kept
  std::vector<IbErrorPort> ports;
};

struct IbQueryErrors {
  std::vector<IbErrorNode> nodes;
  std::optional<std::uint64_t> nodes_checked;  // "## Summary: 4 nodes checked, 4 bad nodes found"
  std::optional<std::uint64_t> bad_nodes;
  std::optional<std::uint64_t> ports_checked;  // "##  43 ports checked, 14 ports have errors..."
  std::optional<std::uint64_t> ports_with_errors;
  std::string thresholds;             // "## Thresholds: ..." as printed ("" = defaults)
  std::string suppressed;             // "## Suppressed: ..."
  std::vector<std::string> unparsed;  // other non-blank lines

  const IbErrorNode* find_node(std::string_view description) const;
};

// Fails when there is neither an "Errors for" block nor a "## Summary:" line.
Result<IbQueryErrors> parse_ibqueryerrors(std::string_view text);

nlohmann::json to_json(const IbQueryErrors& errors);

}  // namespace netdoctor::parsers
