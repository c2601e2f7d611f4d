#include "base/whole_number.h"

#include <cmath>

namespace netdoctor {

std::optional<std::uint64_t> whole_count(double value) {
  // 2^64 is exact as a double; every finite double below it converts without overflow.
  constexpr double k_two_to_64 = 18446744073709551616.0;
  const double rounded = std::round(value);
  if (!std::isfinite(rounded) || rounded < 0.0 || rounded >= k_two_to_64) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(rounded);
}

}  // namespace netdoctor
