// Helpers shared by the infiniband-diags parsers (ibnetdiscover, iblinkinfo, perfquery,
// ibqueryerrors, sminfo, ibnodes); not part of the public parser API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace netdoctor::parsers::ib {

// The lines of a capture with "> " mail quoting removed and right-trimmed; blank lines kept
// (as ""), so callers can tell block ends.
std::vector<std::string_view> lines(std::string_view text);

// "0x0002c9020040f160", "0x2c9030042dff1" or bare hex "24be05ffff980031" -> value.
std::optional<std::uint64_t> guid(std::string_view text);

// The text between the first `open` quote at or after `from` and the next `close` quote;
// `end` is set past the closing quote. nullopt when unbalanced.
std::optional<std::string_view> quoted(std::string_view line, std::size_t from, std::size_t& end,
                                       char quote = '"');

// Width in bits of the PortCounters (plain perfquery, IBA 16.1.3.5) field `name`, 0 when unknown;
// PortCountersExtended fields are all 64 bits wide.
unsigned port_counter_bits(std::string_view name);

// 0x-prefixed 16-digit hex, the way the tools print a GUID (JSON keeps GUIDs as text: a
// 64-bit number does not survive JSON readers that use doubles).
std::string guid_text(std::uint64_t guid);

// Decimal that fits 32 bits; nullopt otherwise.
std::optional<std::uint32_t> u32(std::string_view text);

// True iff `value` is the all-ones maximum of a field `bits` wide (the counter stopped there: a
// saturated counter tells "at least this many", not how many).
bool saturated(std::uint64_t value, unsigned bits);

}  // namespace netdoctor::parsers::ib
