// The text forms NIC facts come in, normalised to the one form the model keeps, so that a fact
// read from sysfs, ibv_devinfo or rdma link compares equal whichever source gave it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace netdoctor::model {

// "28.39.1002 (MT_0000000838)" -> "28.39.1002"; bnxt "220.0.57.0/pkg 22.00.07.60" ->
// "220.0.57.0"; empty for blank text.
std::string first_token(std::string_view text);

// RDMA port state: "4: ACTIVE" (sysfs), "PORT_ACTIVE" (ibv_devinfo), "ACTIVE" (rdma link) ->
// "ACTIVE".
std::string normalise_port_state(std::string_view raw);

// Physical port state: "5: LinkUp" (sysfs), "LINK_UP (5)" / "LINK_UP" -> "LINK_UP".
std::string normalise_phys_state(std::string_view raw);

// A sysfs port rate: "200 Gb/sec (4X HDR)" -> 200 Gb/s over 4 lanes. Either may be missing.
struct PortRate {
  std::optional<double> gbps;
  std::optional<int> width;  // 1..64 lanes
};
PortRate parse_sysfs_rate(std::string_view text);

}  // namespace netdoctor::model
