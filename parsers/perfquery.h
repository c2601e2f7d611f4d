// perfquery (infiniband-diags): PMA counters of one port, or of each port with -l, in the
// forms -x (PortCountersExtended), plain (PortCounters), -E/-D (error/discard details) and
// any mix of them in one capture:
//   # Port extended counters: Lid 1719 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)
//   PortXmitData:....................36298026860928
// Units: PortXmitData/PortRcvData count 4-octet words (IBA 16.1.3.5); every other counter
// counts packets or events. Plain PortCounters fields are 4 to 32 bits wide and stop at their
// maximum (a 32-bit counter stuck at 4294967295 is saturated: "at least", not a count).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct PerfCounter {
  std::string name;                    // "PortXmitWait" as printed
  std::string text;                    // value as printed ("0x0000", "22730501")
  std::optional<std::uint64_t> value;  // decimal values; nullopt for hex selects and the like
  unsigned bits = 64;                  // field width: 64 in extended blocks, 4..32 in plain
  bool saturated = false;              // value is the all-ones maximum of a field < 64 bits
  bool extended = false;               // read from a "Port extended counters" block
};

// One "# ... counters: Lid L port P (CapMask: ...)" block and its "Name:....value" lines.
struct PerfqueryBlock {
  std::string title;      // "Port extended counters", "Port counters", ...
  bool extended = false;  // PortCountersExtended (64-bit) block
  std::optional<std::uint32_t> lid;
  std::string port;                        // "1", "ALL" (-a) as printed; "" if no header
  std::optional<std::uint64_t> cap_mask;   // ClassPortInfo CapabilityMask
  std::optional<std::uint64_t> cap_mask2;  // CapabilityMask2; 0 on switches (and ibsim)
                                           // whose -x block lacks error counters/XmitWait
  std::vector<PerfCounter> counters;       // in printed order, selects included

  const PerfCounter* find(std::string_view name) const;
};

// All blocks of one (lid, port) merged: a 64-bit extended value wins over the plain 32-bit one
// of the same counter; counters only the plain block has (error counters and PortXmitWait where
// CapMask2 is 0) come from it, saturation flag included. Selects are left out.
struct PerfqueryPort {
  std::optional<std::uint32_t> lid;
  std::string port;
  std::vector<PerfCounter> counters;
  std::optional<std::uint64_t> xmit_data_octets;  // PortXmitData * 4
  std::optional<std::uint64_t> rcv_data_octets;   // PortRcvData * 4

  const PerfCounter* find(std::string_view name) const;
};

struct Perfquery {
  std::vector<PerfqueryBlock> blocks;
  std::vector<PerfqueryPort> ports;   // one per (lid, port), in first-seen order
  std::vector<std::string> unparsed;  // other non-blank lines (iberror, ibwarn, prompts kept out)

  const PerfqueryPort* find_port(std::uint32_t lid, std::string_view port) const;
};

// Fails when there is neither a "# ... counters: Lid" header nor a known counter line.
Result<Perfquery> parse_perfquery(std::string_view text);

nlohmann::json to_json(const Perfquery& perf);

}  // namespace netdoctor::parsers
