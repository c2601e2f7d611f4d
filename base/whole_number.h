// Converting a parsed double into a count. A cast of a negative, NaN or out-of-range double to
// an unsigned integer is undefined behaviour, and tool output, fuzzers and Prometheus all
// deliver such values; these helpers say "not a count" instead.
#pragma once

#include <cstdint>
#include <optional>

namespace netdoctor {

// The nearest whole number, or nullopt for NaN, infinities, values below -0.5 or at/above 2^64.
std::optional<std::uint64_t> whole_count(double value);

}  // namespace netdoctor
