// Tables as SONiC's CLI prints them (python-tabulate "simple"): cells right-aligned to the
// widest, two spaces apart, a dashed rule under the header; counters with thousands commas.
// The simulator writes SONiC output this way, and switch APIs that answer in JSON are rendered
// this way so that the SONiC parsers read both.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netdoctor {

std::string render_sonic_table(const std::vector<std::string>& headers,
                               const std::vector<std::vector<std::string>>& rows);
std::string grouped_count(std::uint64_t value);  // 61115381 -> "61,115,381"
// SONiC's rate column in decimal units: "5.15 GB/s", "286.58 KB/s".
std::string sonic_byte_rate(double bytes_per_s);

}  // namespace netdoctor
