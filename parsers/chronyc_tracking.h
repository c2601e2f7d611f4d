// `chronyc tracking`: NTP synchronisation state and offsets.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace netdoctor::parsers {

// Sign convention: positive means the local clock is AHEAD ("fast of NTP time", "ppm fast"),
// negative means it is BEHIND ("slow"). Last offset / RMS offset / Residual freq are taken with
// the sign chrony prints.
struct ChronyTracking {
  std::string reference_id;    // hex as printed: "0A000101"; "00000000" when unsynchronised
  std::string reference_name;  // text in parentheses, may be empty
  std::optional<std::uint32_t> stratum;
  std::string ref_time;                        // as printed
  std::optional<double> system_time_offset_s;  // seconds, +fast / -slow
  std::optional<double> last_offset_s;         // seconds
  std::optional<double> rms_offset_s;          // seconds
  std::optional<double> frequency_ppm;         // +fast / -slow
  std::optional<double> residual_freq_ppm;
  std::optional<double> skew_ppm;
  std::optional<double> root_delay_s;       // seconds
  std::optional<double> root_dispersion_s;  // seconds
  std::optional<double> update_interval_s;  // seconds
  std::string leap_status;    // "Normal", "Not synchronised", "Insert second", "Delete second"
  bool synchronised = false;  // leap status not "Not synchronised" and reference id not 0
  std::map<std::string, std::string> fields;  // every "Label : value", values trimmed
};

// Fails when neither "Reference ID" nor "Leap status" is present.
Result<ChronyTracking> parse_chronyc_tracking(std::string_view text);

nlohmann::json to_json(const ChronyTracking& tracking);

}  // namespace netdoctor::parsers
