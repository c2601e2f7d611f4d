#include <fmt/format.h>

#include <cmath>

#include "sim/rng.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
void civil_from_days(long long days, int& year, unsigned& month, unsigned& day) {
  days += 719468;
  const long long era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  day = doy - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = static_cast<int>(static_cast<long long>(yoe) + era * 400 + (month <= 2 ? 1 : 0));
}

}  // namespace

std::string format_utc(double unix_time) {
  static const char* const k_days[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  static const char* const k_months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const auto seconds = static_cast<long long>(std::floor(unix_time));
  const long long days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
  const long long rest = seconds - days * 86400;
  int year = 1970;
  unsigned month = 1;
  unsigned day = 1;
  civil_from_days(days, year, month, day);
  const auto weekday = static_cast<std::size_t>(((days % 7) + 7) % 7);
  return fmt::format("{} {} {:02} {:02}:{:02}:{:02} {}", k_days[weekday], k_months[month - 1], day,
                     rest / 3600, rest / 60 % 60, rest % 60, year);
}

std::string chronyc_tracking(const Fabric& fabric, const Host& host, double host_time,
                             std::size_t sample) {
  if (!host.clock_synced) {
    // chrony lost every source: no reference, the drift accumulated into the offset.
    return fmt::format(
        "Reference ID    : 00000000 ()\n"
        "Stratum         : 0\n"
        "Ref time (UTC)  : Thu Jan 01 00:00:00 1970\n"
        "System time     : {:.9f} seconds {} of NTP time\n"
        "Last offset     : +0.000000000 seconds\n"
        "RMS offset      : 0.000000000 seconds\n"
        "Frequency       : {:.3f} ppm slow\n"
        "Residual freq   : +0.000 ppm\n"
        "Skew            : 0.000 ppm\n"
        "Root delay      : 1.000000000 seconds\n"
        "Root dispersion : 1.000000000 seconds\n"
        "Update interval : 0.0 seconds\n"
        "Leap status     : Not synchronised\n",
        std::fabs(host.clock_offset_s), host.clock_offset_s >= 0 ? "fast" : "slow",
        20.0 + 40.0 * hash_unit(fabric.noise_seed, host.name, 7));
  }
  const auto u = [&](std::uint64_t index) {
    return hash_unit(fabric.noise_seed, host.name, 100 + index + 10 * sample);
  };
  const double offset = (u(0) - 0.5) * 2e-4;
  const double last = (u(1) - 0.5) * 1e-4;
  return fmt::format(
      "Reference ID    : 0A000101 (10.0.1.1)\n"
      "Stratum         : 3\n"
      "Ref time (UTC)  : {}\n"
      "System time     : {:.9f} seconds {} of NTP time\n"
      "Last offset     : {:+.9f} seconds\n"
      "RMS offset      : {:.9f} seconds\n"
      "Frequency       : {:.3f} ppm {}\n"
      "Residual freq   : {:+.3f} ppm\n"
      "Skew            : {:.3f} ppm\n"
      "Root delay      : {:.9f} seconds\n"
      "Root dispersion : {:.9f} seconds\n"
      "Update interval : {:.1f} seconds\n"
      "Leap status     : Normal\n",
      format_utc(host_time - 5.0 - 60.0 * u(2)), std::fabs(offset), offset >= 0 ? "fast" : "slow",
      last, 2e-5 + 5e-5 * u(3), 1.0 + 9.0 * u(4), u(5) < 0.5 ? "slow" : "fast",
      (u(6) - 0.5) * 0.004, 0.01 + 0.03 * u(7), 2e-4 + 4e-4 * u(8), 1e-4 + 2e-4 * u(9),
      64.0 + 2.0 * u(10));
}

}  // namespace netdoctor::sim
