// InfiniBand link speeds and widths as the subnet encodes them (IBTA PortInfo; ibdiagnet's
// 32-bit speed masks and net_dump's per-lane speed strings): their IBTA names, per-lane
// signalling rate and data rate after encoding. Physics of the standard, not a tunable.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/port_state.h"

namespace netdoctor::model {

struct IbSpeed {
  std::string_view
      name;  // "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR20", "EDR", "HDR", "NDR", "XDR"
  double lane_gbps = 0.0;  // signalling rate per lane as the tools print it (HDR 53.125)
  double data_gbps = 0.0;  // data rate per lane after encoding (HDR 50)
};

// The speed a port trained at from ibdiagnet's LinkSpeedActv mask (byte 1 SDR 1 / DDR 2 / QDR 4,
// byte 2 the extended FDR 1 / EDR 2 / HDR 4 / NDR 8 / XDR 16, byte 3 Mellanox FDR10 1 / EDR20 2):
// an extended speed wins over a Mellanox one, which wins over a byte-1 one (a port running FDR10
// reports QDR in byte 1 as well). nullopt when no known bit is set.
std::optional<IbSpeed> ib_active_speed(std::uint32_t mask);

// The fastest speed of a LinkSpeedSup / LinkSpeedEn mask.
std::optional<IbSpeed> ib_fastest_speed(std::uint32_t mask);

// net_dump's LSA: the per-lane speed as ibdm prints it ("2.5", "5", "10", "14", "25", "50",
// "100", "200", "FDR10", "EDR20").
std::optional<IbSpeed> ib_speed_from_lane_text(std::string_view text);

// The speed of a per-lane signalling rate as iblinkinfo / ibstat print it ("53.125 Gbps" -> HDR,
// 10.3125 -> FDR10, 2.5 -> SDR); nullopt for a rate no IBTA speed has.
std::optional<IbSpeed> ib_speed_from_lane_gbps(double lane_gbps);
// The speed of an IBTA name ("HDR", "fdr10"; case-insensitive).
std::optional<IbSpeed> ib_speed_named(std::string_view name);

// Lanes of a LinkWidthActv value (1 1x, 2 4x, 4 8x, 8 12x, 16 2x); nullopt for anything else.
std::optional<int> ib_width_lanes(std::uint32_t code);
// The widest width of a LinkWidthSup / LinkWidthEn mask.
std::optional<int> ib_widest_lanes(std::uint32_t mask);
// "4x" / "4X" -> 4.
std::optional<int> ib_width_from_text(std::string_view text);

// IB MTU code (1 256, 2 512, 3 1024, 4 2048, 5 4096) -> bytes.
std::optional<int> ib_mtu_bytes(std::uint32_t code);

// IBTA PortInfo.PortState (1 Down, 2 Init, 3 Armed, 4 Active) and PortPhysicalState (1 Sleep,
// 2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, 6 LinkErrorRecovery, 7 PhyTest);
// Unknown for other numbers.
RdmaPortState ib_port_state(std::uint32_t code);
PhysState ib_phys_state(std::uint32_t code);
// The words ibdm prints for them in ibdiagnet2.net_dump: "DOWN", "INI", "ARM", "ACT"; "SLEEP",
// "POLL", "DISABLE", "PORT CONF TRAIN", "LINK UP", "LINK ERR RECOVER", "PHY TEST".
RdmaPortState ib_port_state_word(std::string_view word);
PhysState ib_phys_state_word(std::string_view word);

}  // namespace netdoctor::model
