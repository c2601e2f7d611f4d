// Tables the way python-tabulate prints them in SONiC's CLI ("simple" format): every column
// right-aligned to its widest cell, two spaces between columns, a dashed rule under the header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netdoctor::sim {

std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows);
// "61,115,381": thousands separators as SONiC prints counters.
std::string grouped(std::uint64_t value);
// "5.15 GB/s", "286.58 KB/s": SONiC's rate column (decimal units).
std::string byte_rate(double bytes_per_s);

}  // namespace netdoctor::sim
