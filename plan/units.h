// How the plan writes link speeds and capacities: "400G" for a port or NIC speed (as vendors
// name optics and ports), "25.6 Tb/s" for an aggregate.
#pragma once

#include <string>

namespace netdoctor::plan {

std::string gbps(double value);
std::string tbps(double gbps_value);

}  // namespace netdoctor::plan
