#include "parsers/chronyc_tracking.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// First token as a number: "0.000366024 seconds slow of NTP time" -> 0.000366024.
std::optional<double> first_number(std::string_view value) {
  auto tokens = split_ws(value);
  if (tokens.empty()) {
    return std::nullopt;
  }
  return parse_double(tokens[0]);
}

// Applies the "slow"/"fast" word: slow -> negative.
std::optional<double> signed_by_word(std::string_view value) {
  auto number = first_number(value);
  if (!number) {
    return std::nullopt;
  }
  for (auto token : split_ws(value)) {
    if (token == "slow") {
      return -*number;
    }
  }
  return number;
}

}  // namespace

Result<ChronyTracking> parse_chronyc_tracking(std::string_view text) {
  ND_TRY(detail::check_text(text));
  ChronyTracking out;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    auto kv = detail::split_key_value(line);
    if (!kv || kv->key.empty()) {
      continue;
    }
    out.fields[std::string(kv->key)] = std::string(kv->value);
  }
  auto field = [&out](const char* key) -> std::optional<std::string_view> {
    auto it = out.fields.find(key);
    if (it == out.fields.end()) {
      return std::nullopt;
    }
    return std::string_view(it->second);
  };
  if (!field("Reference ID") && !field("Leap status")) {
    return detail::parse_error("no 'Reference ID' or 'Leap status' line found");
  }
  if (auto ref = field("Reference ID")) {
    out.reference_id = std::string(detail::before_paren(*ref));
    auto open = ref->find('(');
    auto close = ref->rfind(')');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
      out.reference_name = std::string(ref->substr(open + 1, close - open - 1));
    }
  }
  if (auto v = field("Stratum")) {
    if (auto n = parse_u64(*v)) {
      out.stratum = static_cast<std::uint32_t>(*n);
    }
  }
  out.ref_time = std::string(field("Ref time (UTC)").value_or(""));
  if (auto v = field("System time")) {
    out.system_time_offset_s = signed_by_word(*v);
  }
  if (auto v = field("Last offset")) {
    out.last_offset_s = first_number(*v);
  }
  if (auto v = field("RMS offset")) {
    out.rms_offset_s = first_number(*v);
  }
  if (auto v = field("Frequency")) {
    out.frequency_ppm = signed_by_word(*v);
  }
  if (auto v = field("Residual freq")) {
    out.residual_freq_ppm = first_number(*v);
  }
  if (auto v = field("Skew")) {
    out.skew_ppm = first_number(*v);
  }
  if (auto v = field("Root delay")) {
    out.root_delay_s = first_number(*v);
  }
  if (auto v = field("Root dispersion")) {
    out.root_dispersion_s = first_number(*v);
  }
  if (auto v = field("Update interval")) {
    out.update_interval_s = first_number(*v);
  }
  // chronyc prints the offset synchronised or not; without it the file is not tracking output
  // we can use (garbage, a truncated capture).
  if (!out.system_time_offset_s) {
    return detail::parse_error("no readable 'System time' offset line");
  }
  out.leap_status = std::string(field("Leap status").value_or(""));
  bool zero_ref =
      out.reference_id.empty() || out.reference_id.find_first_not_of('0') == std::string::npos;
  out.synchronised = out.leap_status != "Not synchronised" && !zero_ref;
  return out;
}

nlohmann::json to_json(const ChronyTracking& t) {
  using detail::opt;
  return {{"reference_id", t.reference_id},
          {"reference_name", t.reference_name},
          {"stratum", opt(t.stratum)},
          {"ref_time", t.ref_time},
          {"system_time_offset_s", opt(t.system_time_offset_s)},
          {"last_offset_s", opt(t.last_offset_s)},
          {"rms_offset_s", opt(t.rms_offset_s)},
          {"frequency_ppm", opt(t.frequency_ppm)},
          {"residual_freq_ppm", opt(t.residual_freq_ppm)},
          {"skew_ppm", opt(t.skew_ppm)},
          {"root_delay_s", opt(t.root_delay_s)},
          {"root_dispersion_s", opt(t.root_dispersion_s)},
          {"update_interval_s", opt(t.update_interval_s)},
          {"leap_status", t.leap_status},
          {"synchronised", t.synchronised}};
}

}  // namespace netdoctor::parsers
