// linuxptp ptp4l and phc2sys log lines: `-m` output ("ptp4l[5196.819]: ..."), syslog and
// journal text ("Dec 03 10:00:01 host ptp4l[1234]: [12345.678] ..."), with or without a message
// tag ("[eth0] ..."). Lines of other programs may be mixed in (a whole journal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "parsers/clock_common.h"

namespace netdoctor::parsers {

// "master offset -12 s2 freq +345 path delay 678" (ptp4l) or
// "CLOCK_REALTIME phc offset -5 s2 freq -10448 delay 5592" (phc2sys). The offset is the
// disciplined clock minus its master/source: positive = that clock AHEAD.
struct PtpOffsetSample {
  std::optional<double> monotonic_s;          // the "[5196.819]" stamp: seconds since boot
  std::int64_t offset_ns = 0;                 // as printed
  double offset_s = 0;                        // the same in seconds
  std::uint32_t servo_state = 0;              // s0 unlocked, s1 jump (clock stepped), s2 locked,
                                              // s3 locked stable
  std::string servo_word;                     // "unlocked", "jump", "locked", "locked_stable"
  std::optional<double> freq_ppb;             // "freq" (older ptp4l: "adj")
  std::optional<std::int64_t> path_delay_ns;  // "path delay" (ptp4l) / "delay" (phc2sys)
};

// summary_interval statistics: "rms 196 max 286 freq -6060 +/- 271 delay 233 +/- 0".
struct PtpSummary {
  std::optional<double> monotonic_s;
  double rms_s = 0;  // rms of the offsets over the interval, seconds
  double max_s = 0;  // largest absolute offset, seconds
  std::optional<double> freq_ppb;
  std::optional<double> freq_dev_ppb;  // the "+/-" after freq
  std::optional<double> delay_ns;
  std::optional<double> delay_dev_ns;  // the "+/-" after delay
};

// One program's offsets for one disciplined clock.
struct PtpStream {
  std::string program;  // "ptp4l", "phc2sys"
  std::string tag;      // message tag ("[eth0]", "[ptp4l.0.config]"), "" without one
  std::string clock;    // phc2sys: the clock it steers ("CLOCK_REALTIME", "eth0"); "" for ptp4l
                        // and for old phc2sys that did not print it
  std::string source;   // the word before "offset": "master" (ptp4l), "phc" or "sys" (phc2sys)
  std::vector<PtpOffsetSample> samples;
  std::vector<PtpSummary> summaries;
};

// "port 1: UNCALIBRATED to SLAVE on MASTER_CLOCK_SELECTED" (newer: "port 1 (eth0): ...").
struct PtpPortTransition {
  std::string program;
  std::optional<double> monotonic_s;
  std::uint32_t port = 0;
  std::string interface;  // "" when not printed
  std::string from;
  std::string to;
  std::string event;  // "MASTER_CLOCK_SELECTED", "FAULT_DETECTED (FT_UNSPECIFIED)"
};

// Any other ptp4l/phc2sys message, kept as printed ("selected best master clock ...").
struct PtpLogMessage {
  std::string program;
  std::optional<double> monotonic_s;
  std::string text;
};

struct Ptp4lLog {
  std::vector<PtpStream> streams;  // in order of first appearance
  std::vector<PtpPortTransition> transitions;
  std::map<std::uint32_t, std::string> port_states;  // port -> its last state
  std::string port_state;      // a port's receiving state (SLAVE) if any, else the last state
  std::string best_master;     // "selected best master clock X" / "selected local clock X ..."
  std::string phc2sys_source;  // "selecting X as the master clock" (phc2sys -a)
  std::vector<PtpLogMessage> messages;  // ptp4l/phc2sys lines that are no sample,
                                        // summary or port transition
  std::size_t program_lines = 0;        // ptp4l/phc2sys lines read
  std::size_t other_lines = 0;          // other non-blank lines: other programs, prompts
  std::optional<double> last_offset_s;  // the file's last sample, whichever stream
  std::optional<std::uint32_t> last_servo_state;
  std::string last_servo_word;
  // daemon "linuxptp". The stream that steers the system clock (phc2sys CLOCK_REALTIME) when
  // the log has one, else the stream of the last sample: its last offset, synchronised when
  // its servo is locked (s2/s3), source = phc2sys_source or best_master. Without samples
  // (summary-only logs): synchronised when a port is SLAVE.
  ClockStatus status;
};

// Fails when no ptp4l or phc2sys line is found.
Result<Ptp4lLog> parse_ptp4l_log(std::string_view text);

nlohmann::json to_json(const Ptp4lLog& log);

}  // namespace netdoctor::parsers
