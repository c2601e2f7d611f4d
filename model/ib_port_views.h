// What one view line says of one InfiniBand port, written into the model's IbPort: the trained
// width and speed in every spelling the tools use, iblinkinfo's states and "Could be" comment.
#pragma once

#include <optional>
#include <string_view>

#include "model/ib_fabric.h"

namespace netdoctor::model {

// Width and speed as ibnetdiscover prints them ("4x", "QDR"): width, speed, lane and data rate.
void set_trained(IbPort& port, std::string_view width, std::string_view speed);
// Width and per-lane rate as iblinkinfo prints them ("4X", 53.125); a port with no width (down)
// loses its trained rate.
void set_trained_lane_rate(IbPort& port, std::string_view width, std::optional<double> lane_gbps);
// iblinkinfo's trailing comment "Could be 12X Could be 10.0 Gbps": supported width and speed.
void set_supported(IbPort& port, std::string_view comment);
// iblinkinfo's "Active", "Initialize", "Armed", "Down" and "LinkUp", "Polling", "Disabled".
RdmaPortState ib_port_state_named(std::string_view state);

}  // namespace netdoctor::model
