// Helpers shared by the ibdiagnet parsers (ibdiagnet2.db_csv, .pm, .net_dump, .log); not part of
// the public parser API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace netdoctor::parsers::ibdiag {

// One line of ibdiagnet's CSV: fields split on commas outside double quotes, quotes removed
// ("" inside quotes is one quote), unquoted fields trimmed (headers such as
// ", max_retransmission_rate" carry a leading space). An unbalanced quote runs to the end.
std::vector<std::string> split_csv(std::string_view line);

// A number as ibdiagnet prints one: decimal ("180"), hex ("0x00b4", "0xb0cf0e0300d33fc0").
// nullopt for "N/A", "NA", "-1", empty and anything else.
std::optional<std::uint64_t> number(std::string_view text);

// The same, for a counter: also nullopt for the hex markers ibdiagnet writes for "not
// available" (0xfffffffffffffffe, 0xffffffffffffffff in PM_DELTA's retransmission_per_sec).
std::optional<std::uint64_t> counter(std::string_view text);

// "N/A", "NA", "-1" or empty: the value was not available (not a malformed field).
bool not_available(std::string_view text);

// The "# Running version : ..." style header of every ibdiagnet file: true when the line is one
// of these comment lines (or the "# File closed at" trailer).
bool is_comment(std::string_view line);

}  // namespace netdoctor::parsers::ibdiag
