#include "parsers/clock_common.h"

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// Longest suffix first, so "ms" is not read as "s".
constexpr std::array<std::pair<std::string_view, TimeUnit>, 4> k_suffixes = {{
    {"ns", TimeUnit::Nanoseconds},
    {"us", TimeUnit::Microseconds},
    {"ms", TimeUnit::Milliseconds},
    {"s", TimeUnit::Seconds},
}};

constexpr std::array<std::pair<char, double>, 4> k_age_units = {{
    {'m', 60.0},
    {'h', 3600.0},
    {'d', 86400.0},
    {'y', 365.0 * 86400.0},
}};

}  // namespace

double to_seconds(double value, TimeUnit unit) {
  switch (unit) {
    // Divided by an exact power of ten, so 1097 us reads back as 0.001097, not 0.00109699...
    case TimeUnit::Nanoseconds:
      return value / 1e9;
    case TimeUnit::Microseconds:
      return value / 1e6;
    case TimeUnit::Milliseconds:
      return value / 1e3;
    case TimeUnit::Seconds:
      break;
  }
  return value;
}

std::optional<double> seconds_from(std::string_view number, TimeUnit unit) {
  auto value = parse_double(number);
  if (!value) {
    return std::nullopt;
  }
  return to_seconds(*value, unit);
}

std::optional<double> suffixed_seconds(std::string_view text) {
  text = trim(text);
  for (const auto& [suffix, unit] : k_suffixes) {
    if (text.size() > suffix.size() && text.ends_with(suffix)) {
      return seconds_from(text.substr(0, text.size() - suffix.size()), unit);
    }
  }
  return std::nullopt;
}

std::optional<double> age_seconds(std::string_view text) {
  text = trim(text);
  if (text.empty()) {
    return std::nullopt;
  }
  for (const auto& [suffix, factor] : k_age_units) {
    if (text.back() == suffix) {
      auto n = parse_u64(text.substr(0, text.size() - 1));
      return n ? std::optional<double>(static_cast<double>(*n) * factor) : std::nullopt;
    }
  }
  auto n = parse_u64(text);
  return n ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
}

std::optional<std::uint32_t> reach_from_octal(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 3 || text.find_first_not_of("01234567") != text.npos) {
    return std::nullopt;
  }
  std::uint32_t value = 0;
  for (char c : text) {
    value = value * 8 + static_cast<std::uint32_t>(c - '0');
  }
  return value <= 0377 ? std::optional<std::uint32_t>(value) : std::nullopt;
}

bool is_receiving_port_state(std::string_view state) {
  return state == "SLAVE" || state == "TIME_RECEIVER";
}

nlohmann::json to_json(const ClockStatus& status) {
  return {{"daemon", status.daemon},
          {"selected_source", status.selected_source},
          {"offset_s", detail::opt(status.offset_s)},
          {"synchronised", status.synchronised}};
}

}  // namespace netdoctor::parsers
