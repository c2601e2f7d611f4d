// Times are kept as Unix seconds and shown to people as ISO-8601 UTC.
#pragma once

#include <string>

namespace netdoctor {

// 1764662400.25 -> "2025-12-02T08:00:00Z" (whole seconds; fractions are dropped).
std::string iso8601_utc(double unix_seconds);

}  // namespace netdoctor
