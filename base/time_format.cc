#include "base/time_format.h"

#include <fmt/format.h>

#include <cmath>
#include <ctime>

namespace netdoctor {

std::string iso8601_utc(double unix_seconds) {
  auto seconds = static_cast<std::time_t>(std::floor(unix_seconds));
  std::tm parts{};
  if (gmtime_r(&seconds, &parts) == nullptr) {
    return fmt::format("{:.0f}", unix_seconds);
  }
  return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}Z", parts.tm_year + 1900,
                     parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec);
}

}  // namespace netdoctor
