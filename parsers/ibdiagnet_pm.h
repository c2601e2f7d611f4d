// ibdiagnet2.pm (NVIDIA ibdiagnet): the PMA counters of every port, one block per port
//   --------------------------------------------------------
//   Port=1 Lid=0x0003 GUID=0x7cfe900300a5a2c0 Device=52000 Port Name=MF0;sw-01:MSB7700/U1/P1
//   --------------------------------------------------------
//   link_down_counter=0x0000000000000000
//   ...
//   port_xmit_data=0x00000000ffffffff
//   port_xmit_data_extended=0x0000004566a8c1b4
//   retransmission_per_sec=NA
// Values are hex (decimal accepted); "NA" / "N/A" is kept as not available. Names are kept as
// printed (the set differs between ibdiagnet versions); data counters count 4-octet words.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IbdiagPmPort {
  std::uint32_t port = 0;
  std::optional<std::uint32_t> lid;
  std::uint64_t guid = 0;  // the port's GUID as printed (a switch port: the switch's GUID)
  std::optional<std::uint32_t> device_id;
  std::string port_name;                          // "MF0;sw-01:MSB7700/U1/P1", spaces kept
  std::map<std::string, std::uint64_t> counters;  // name as printed -> value
  std::vector<std::string> not_available;         // names printed with NA / N/A
};

struct IbdiagPm {
  std::vector<IbdiagPmPort> ports;
  std::vector<std::string> unparsed;  // other non-comment, non-rule lines
};

// Fails when no "Port=<n> Lid=<lid> GUID=0x<guid> ..." block header is found.
Result<IbdiagPm> parse_ibdiagnet_pm(std::string_view text);

nlohmann::json to_json(const IbdiagPm& pm);

}  // namespace netdoctor::parsers
