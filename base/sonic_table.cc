#include "base/sonic_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

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
  std::size_t line_size = 1;
  for (const std::size_t width : widths) {
    line_size += width + 2;
  }
  std::string out;
  out.reserve(line_size * (rows.size() + 2));
  // Widths and padding count bytes, not characters: readers find a cell by the byte span of its
  // column's dashes, so a cell of multi-byte characters still ends where its dashes do.
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const std::string_view cell = c < cells.size() ? std::string_view(cells[c]) : "";
      out.append(c == 0 ? 0 : 2, ' ');
      out.append(widths[c] - cell.size(), ' ');
      out.append(cell);
    }
    out.push_back('\n');
  };
  line(headers);
  for (std::size_t c = 0; c < widths.size(); ++c) {
    out.append(c == 0 ? 0 : 2, ' ');
    out.append(widths[c], '-');
  }
  out.push_back('\n');
  for (const auto& row : rows) {
    line(row);
  }
  return out;
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
