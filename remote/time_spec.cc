#include "remote/time_spec.h"

#include <cctype>
#include <string>

#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor::remote {

std::optional<double> parse_duration(std::string_view text) {
  text = trim(text);
  if (text.empty()) {
    return std::nullopt;
  }
  if (auto plain = parse_double(text)) {
    return *plain > 0.0 ? plain : std::nullopt;
  }
  double total = 0.0;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t number_start = i;
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) != 0 || text[i] == '.')) {
      ++i;
    }
    auto number = parse_double(text.substr(number_start, i - number_start));
    const std::size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])) != 0) {
      ++i;
    }
    const std::string_view unit = text.substr(unit_start, i - unit_start);
    if (!number || unit.empty()) {
      return std::nullopt;
    }
    double scale = 0.0;
    if (unit == "ms") {
      scale = 0.001;
    } else if (unit == "s") {
      scale = 1.0;
    } else if (unit == "m") {
      scale = 60.0;
    } else if (unit == "h") {
      scale = 3600.0;
    } else if (unit == "d") {
      scale = 86400.0;
    } else {
      return std::nullopt;
    }
    total += *number * scale;
  }
  return total > 0.0 ? std::optional<double>(total) : std::nullopt;
}

std::optional<double> parse_instant(std::string_view text) {
  text = trim(text);
  if (auto unix_seconds = parse_double(text)) {
    return unix_seconds;
  }
  std::string iso(text);
  // parse_date_output reads "+00:00" offsets; accept the common "Z" suffix and a space
  // instead of the 'T' as well.
  if (!iso.empty() && (iso.back() == 'Z' || iso.back() == 'z')) {
    iso.replace(iso.size() - 1, 1, "+00:00");
  }
  if (iso.size() > 10 && iso[10] == ' ') {
    iso[10] = 'T';
  }
  return parse_date_output(iso);
}

}  // namespace netdoctor::remote
