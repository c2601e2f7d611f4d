#include "sim/writers/text_table.h"

#include <fmt/format.h>

#include <algorithm>

namespace netdoctor::sim {

std::string byte_rate(double bytes_per_s) {
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

}  // namespace netdoctor::sim
