#include "plan/units.h"

#include <fmt/format.h>

namespace netdoctor::plan {

std::string gbps(double value) {
  return fmt::format("{:g}G", value);
}

std::string tbps(double gbps_value) {
  return fmt::format("{:g} Tb/s", gbps_value / 1000.0);
}

}  // namespace netdoctor::plan
