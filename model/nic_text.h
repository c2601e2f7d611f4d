// The text forms NIC facts come in, normalised to the one form the model keeps, so that a fact
// read from sysfs, ibv_devinfo or rdma link compares equal whichever source gave it (port
// states: model/port_state.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace netdoctor::model {

// "28.39.1002 (MT_0000000838)" -> "28.39.1002"; bnxt "220.0.57.0/pkg 22.00.07.60" ->
// "220.0.57.0"; empty for blank text.
std::string first_token(std::string_view text);

// A sysfs port rate: "200 Gb/sec (4X HDR)" -> 200 Gb/s over 4 lanes. Either may be missing.
struct PortRate {
  std::optional<double> gbps;
  std::optional<int> width;  // 1..64 lanes
};
PortRate parse_sysfs_rate(std::string_view text);

}  // namespace netdoctor::model
