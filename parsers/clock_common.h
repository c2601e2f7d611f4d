// Shared by the clock parsers (chronyc-sources, ntpq, pmc, ptp4l-log): time units to seconds,
// the NTP reachability register, and the ClockStatus every clock record carries so that a clock
// probe reads chrony, ntpd and linuxptp the same way.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace netdoctor::parsers {

enum class TimeUnit { Nanoseconds, Microseconds, Milliseconds, Seconds };

// `value`, given in `unit`, in seconds.
double to_seconds(double value, TimeUnit unit);

// One signed number in `unit` ("-0.1837" ms, "+345" ns, "-12.0"), in seconds; nullopt when
// `number` is not exactly one finite number.
std::optional<double> seconds_from(std::string_view number, TimeUnit unit);

// A number followed by its unit, as chronyc prints offsets: "+1181us", "-2ns", "34ms", "1.5s";
// in seconds. nullopt without one of the suffixes ns, us, ms, s.
std::optional<double> suffixed_seconds(std::string_view text);

// An age as chronyc's LastRx and ntpq's `when` print it: "26" (seconds), "4m", "2h", "3d",
// "10y" (365-day years); in seconds. nullopt for "-" and anything else.
std::optional<double> age_seconds(std::string_view text);

// The NTP reachability register of the last 8 polls, printed in octal: "377" -> 255,
// "47" -> 39. nullopt unless 1 to 3 octal digits of at most 377.
std::optional<std::uint32_t> reach_from_octal(std::string_view text);

// A PTP port state in which the port follows a master: "SLAVE" (and "TIME_RECEIVER", the
// name newer linuxptp releases print).
bool is_receiving_port_state(std::string_view state);

// What every clock record says in one convention, whichever daemon produced it.
struct ClockStatus {
  std::string daemon;              // "chrony", "ntpd", "linuxptp"
  std::string selected_source;     // the reference the host follows; "" when none is selected
  std::optional<double> offset_s;  // seconds to that reference: + = local clock AHEAD of it
  bool synchronised = false;       // the daemon reports the host locked to that reference
};

nlohmann::json to_json(const ClockStatus& status);

}  // namespace netdoctor::parsers
