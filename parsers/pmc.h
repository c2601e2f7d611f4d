// linuxptp `pmc -u -b 0 'GET TIME_STATUS_NP'` (also CURRENT_DATA_SET, PORT_DATA_SET,
// PARENT_DATA_SET, any management ID): the requests sent and every response's fields.
#pragma once

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

// "\t<clockIdentity>-<port> seq N RESPONSE MANAGEMENT <ID>" then "\t\t<key> <value>" lines.
struct PmcResponse {
  std::string port_identity;          // source port identity: "123456.fffe.780102-2"
  std::string clock_identity;         // its clock part: "123456.fffe.780102"
  std::optional<std::uint32_t> port;  // its port number: 2 (0 answers for the clock)
  std::optional<std::uint32_t> seq;
  std::string action;                         // "RESPONSE" (or GET, SET, COMMAND, ACKNOWLEDGE)
  std::string tlv;                            // "MANAGEMENT", "MANAGEMENT_ERROR_STATUS", ...
  std::string management_id;                  // "TIME_STATUS_NP"; "" when pmc printed none
  std::map<std::string, std::string> fields;  // key -> value as printed ("" when empty); a
                                              // repeated key keeps every value, '\n'-joined
};

// Offsets are in seconds with ptp4l's sign: master_offset and offsetFromMaster are this clock
// minus its master, so positive = the local clock AHEAD of the master.
struct PmcRecord {
  std::vector<std::string> requests;  // after "sending: ": "GET TIME_STATUS_NP"
  std::vector<PmcResponse> responses;
  std::optional<double> offset_s;           // TIME_STATUS_NP master_offset, else CURRENT_DATA_SET
                                            // offsetFromMaster (both printed in ns)
  std::optional<double> mean_path_delay_s;  // CURRENT_DATA_SET meanPathDelay
  std::optional<std::uint32_t> steps_removed;  // CURRENT_DATA_SET stepsRemoved
  std::optional<bool> gm_present;              // TIME_STATUS_NP gmPresent
  std::string gm_identity;  // TIME_STATUS_NP gmIdentity, else PARENT_DATA_SET grandmasterIdentity
  std::string port_state;   // PORT_DATA_SET portState: a SLAVE port's if any, else the first
  std::size_t other_lines = 0;  // lines that are neither a request, a response nor a field
  // daemon "linuxptp"; the grandmaster, offset_s; synchronised when a grandmaster is present
  // (gmPresent true, or stepsRemoved >= 1 without TIME_STATUS_NP) and no port state other
  // than SLAVE is reported.
  ClockStatus status;
};

// Fails when there is neither a "sending: " line nor a response header (not pmc output).
// A request with no response (ptp4l not running) is a record without responses.
Result<PmcRecord> parse_pmc(std::string_view text);

nlohmann::json to_json(const PmcRecord& record);

}  // namespace netdoctor::parsers
