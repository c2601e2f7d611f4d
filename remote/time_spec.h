// Durations and instants as the Prometheus options take them: "5m", "30s", "1h30m", "250ms",
// "1.5m" or plain seconds ("90", "29.75"); instants as Unix seconds ("1766988032.78") or ISO
// 8601 with a zone ("2026-12-02T09:02:57Z").
#pragma once

#include <optional>
#include <string_view>

namespace netdoctor::remote {

// Seconds; nullopt for junk, zero or a negative value.
std::optional<double> parse_duration(std::string_view text);
// Unix seconds; nullopt for junk.
std::optional<double> parse_instant(std::string_view text);

}  // namespace netdoctor::remote
