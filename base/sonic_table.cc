#include "base/sonic_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace netdoctor {

std::string render_sonic_table(const std::vector<std::string>& headers,
                               const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) {
    widths[c] = headers[c].size();
    for (const auto& row : rows) {
      widths[c] = std::max(widths[c], c < row.size() ? row[c].size() : 0);
    }
  }
  fmt::memory_buffer out;
  auto o = std::back_inserter(out);
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      fmt::format_to(o, "{}{:>{}}", c == 0 ? "" : "  ", c < cells.size() ? cells[c] : "",
                     widths[c]);
    }
    fmt::format_to(o, "\n");
  };
  line(headers);
  for (std::size_t c = 0; c < widths.size(); ++c) {
    fmt::format_to(o, "{}{}", c == 0 ? "" : "  ", std::string(widths[c], '-'));
  }
  fmt::format_to(o, "\n");
  for (const auto& row : rows) {
    line(row);
  }
  return fmt::to_string(out);
}

std::string grouped_count(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  out.append(digits, 0, lead);
  for (std::size_t i = lead; i < digits.size(); i += 3) {
    out.push_back(',');
    out.append(digits, i, 3);
  }
  return out;
}

std::string sonic_byte_rate(double bytes_per_s) {
  if (bytes_per_s >= 1e9) {
    return fmt::format("{:.2f} GB/s", bytes_per_s / 1e9);
  }
  if (bytes_per_s >= 1e6) {
    return fmt::format("{:.2f} MB/s", bytes_per_s / 1e6);
  }
  if (bytes_per_s >= 1e3) {
    return fmt::format("{:.2f} KB/s", bytes_per_s / 1e3);
  }
  return fmt::format("{:.2f} B/s", bytes_per_s);
}

}  // namespace netdoctor
