// InfiniBand link speeds (IBTA): each speed's name, its per-lane signalling rate as iblinkinfo
// prints it and its per-lane data rate after line encoding, so a port's rate reads the same
// whichever view gave it ("4xHDR" from ibnetdiscover, "4X 53.125 Gbps" from iblinkinfo).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace netdoctor::model {

struct IbSpeed {
  std::string_view name;  // "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"
  double lane_gbps;       // signalling rate per lane as iblinkinfo prints it (53.125 for HDR)
  double data_gbps;       // data rate per lane after encoding (50 for HDR)
};

// The speed of that name (case-insensitive); nullopt for a name IBTA does not define.
std::optional<IbSpeed> ib_speed_named(std::string_view name);
// The speed of a per-lane signalling rate as printed (2.5, 10.3125, 106.25); nullopt otherwise.
std::optional<IbSpeed> ib_speed_of_lane_rate(double lane_gbps);
// Lanes of a width as printed: "4x", "4X", "12X" -> 4, 4, 12; nullopt when not a width.
std::optional<int> ib_width_lanes(std::string_view width);

}  // namespace netdoctor::model
