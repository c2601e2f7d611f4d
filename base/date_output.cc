// Reading the time `date` printed (an sos report's sos_commands/date/date) back as Unix time.
#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor {
namespace {

constexpr std::array<std::string_view, 12> k_months = {"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 7> k_weekdays = {"mon", "tue", "wed", "thu",
                                                        "fri", "sat", "sun"};

struct Fields {
  int year = -1;
  int month = -1;  // 1..12
  int day = -1;
  int hour = -1;
  int minute = -1;
  double second = -1.0;
  bool pm = false;
  bool am = false;
  std::optional<int> offset_s;  // east of UTC
};

std::optional<int> small_int(std::string_view s) {
  const auto v = parse_u64(s);
  if (!v || *v > 100000) {
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

// "+0100", "-05:30", "+00"
std::optional<int> parse_offset(std::string_view s) {
  if (s.size() < 3 || (s[0] != '+' && s[0] != '-')) {
    return std::nullopt;
  }
  const int sign = s[0] == '-' ? -1 : 1;
  std::string digits;
  for (char c : s.substr(1)) {
    if (c != ':') {
      digits += c;
    }
  }
  if (digits.size() != 2 && digits.size() != 4) {
    return std::nullopt;
  }
  const auto hours = small_int(std::string_view(digits).substr(0, 2));
  const auto minutes = digits.size() == 4 ? small_int(std::string_view(digits).substr(2)) : 0;
  if (!hours || !minutes || *hours > 14 || *minutes > 59) {
    return std::nullopt;
  }
  return sign * (*hours * 3600 + *minutes * 60);
}

// "09:02:57" or "09:02:57.123"
bool parse_clock(std::string_view s, Fields& f) {
  const auto parts = split(s, ':');
  if (parts.size() != 3) {
    return false;
  }
  const auto h = small_int(parts[0]);
  const auto m = small_int(parts[1]);
  const auto sec = parse_double(parts[2]);
  if (!h || !m || !sec || *h > 23 || *m > 59 || *sec < 0.0 || *sec >= 61.0) {
    return false;
  }
  f.hour = *h;
  f.minute = *m;
  f.second = *sec;
  return true;
}

bool is_utc_name(std::string_view lower) {
  return lower == "utc" || lower == "gmt" || lower == "z" || lower == "ut";
}

// "2026-12-02T09:02:57+00:00", "2026-12-02 09:02:57Z", "2026-12-02T09:02:57,123+01:00"
std::optional<Fields> parse_iso(std::string_view text) {
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != ' ')) {
    return std::nullopt;
  }
  Fields f;
  const auto y = small_int(text.substr(0, 4));
  const auto mo = small_int(text.substr(5, 2));
  const auto d = small_int(text.substr(8, 2));
  if (!y || !mo || !d) {
    return std::nullopt;
  }
  f.year = *y;
  f.month = *mo;
  f.day = *d;
  std::string_view rest = trim(text.substr(11));
  std::size_t zone_at = rest.find_first_of("+-Zz ");
  std::string clock(rest.substr(0, zone_at));
  for (char& c : clock) {
    if (c == ',') {
      c = '.';
    }
  }
  if (!parse_clock(clock, f)) {
    return std::nullopt;
  }
  if (zone_at == std::string_view::npos) {
    return std::nullopt;  // local time of an unknown zone
  }
  const std::string zone = to_lower(trim(rest.substr(zone_at)));
  if (is_utc_name(zone)) {
    f.offset_s = 0;
  } else {
    f.offset_s = parse_offset(zone);
  }
  return f;
}

bool take_token(std::string_view token, Fields& f) {
  const std::string lower = to_lower(token);
  for (std::size_t i = 0; i < k_months.size(); ++i) {
    if (lower.size() >= 3 && starts_with(lower, k_months[i])) {
      f.month = static_cast<int>(i) + 1;
      return true;
    }
  }
  for (std::string_view weekday : k_weekdays) {
    if (lower.size() >= 3 && starts_with(lower, weekday)) {
      return true;
    }
  }
  if (lower == "am" || lower == "pm") {
    (lower == "am" ? f.am : f.pm) = true;
    return true;
  }
  if (is_utc_name(lower)) {
    f.offset_s = 0;
    return true;
  }
  if (token.find(':') != std::string_view::npos && token[0] != '+' && token[0] != '-') {
    return parse_clock(token, f);
  }
  if (auto offset = parse_offset(token)) {
    f.offset_s = offset;
    return true;
  }
  if (auto number = small_int(token)) {
    if (token.size() == 4) {
      f.year = *number;
    } else if (f.day < 0) {
      f.day = *number;
    } else {
      return false;
    }
    return true;
  }
  return false;  // a zone abbreviation we cannot place, or junk
}

std::optional<Fields> parse_words(std::string_view text) {
  Fields f;
  std::string spaced(text);
  for (char& c : spaced) {
    if (c == ',') {
      c = ' ';
    }
  }
  for (std::string_view token : split_ws(spaced)) {
    if (!take_token(token, f)) {
      return std::nullopt;
    }
  }
  if (f.pm && f.hour >= 0 && f.hour < 12) {
    f.hour += 12;
  } else if (f.am && f.hour == 12) {
    f.hour = 0;
  }
  return f;
}

}  // namespace

std::optional<double> parse_date_output(std::string_view text) {
  const auto lines = split_lines(text);
  if (lines.empty()) {
    return std::nullopt;
  }
  const std::string_view line = trim(lines.front());
  auto fields = parse_iso(line);
  if (!fields) {
    fields = parse_words(line);
  }
  if (!fields || !fields->offset_s || fields->year < 1970 || fields->month < 1 || fields->day < 1 ||
      fields->hour < 0) {
    return std::nullopt;
  }
  using namespace std::chrono;
  const year_month_day date{year{fields->year}, month{static_cast<unsigned>(fields->month)},
                            day{static_cast<unsigned>(fields->day)}};
  if (!date.ok()) {
    return std::nullopt;
  }
  const auto days_since_epoch = sys_days{date}.time_since_epoch().count();
  return static_cast<double>(days_since_epoch) * 86400.0 + fields->hour * 3600.0 +
         fields->minute * 60.0 + fields->second - *fields->offset_s;
}

}  // namespace netdoctor
