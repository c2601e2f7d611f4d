#include "sim/ib_shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace netdoctor::sim {

const IbGeneration& ib_generation(IbSpeed speed) {
  static const IbGeneration k_hdr{
      "HDR",          200,          "53.125 Gbps", 4,    40,       "MQM8700",       "0xcf08",
      "27.2012.1010", "ConnectX-6", "MT4123",      4123, "0x101b", "MT_0000000223", "20.41.1000",
      "20.39.1002"};
  static const IbGeneration k_ndr{
      "NDR",          400,          "106.25 Gbps", 8,    64,       "MQM9700",       "0xd2f0",
      "31.2012.1068", "ConnectX-7", "MT4129",      4129, "0x1021", "MT_0000000838", "28.41.1000",
      "28.39.2048"};
  return speed == IbSpeed::Ndr ? k_ndr : k_hdr;
}

const char* ib_speed_name(int lane_gbps) {
  return lane_gbps >= 100 ? "NDR" : lane_gbps >= 50 ? "HDR" : "EDR";
}

const char* ib_lane_text(int lane_gbps) {
  return lane_gbps >= 100 ? "106.25 Gbps" : lane_gbps >= 50 ? "53.125 Gbps" : "25.78125 Gbps";
}

int ib_speed_code(int lane_gbps) {
  return lane_gbps >= 100 ? 128 : lane_gbps >= 50 ? 64 : 32;
}

Result<IbShape> ib_shape(const SimConfig& config) {
  const IbGeneration& gen = ib_generation(config.ib_speed);
  const std::size_t half = gen.radix / 2;
  IbShape shape;
  shape.hosts_per_leaf = config.hosts_per_leaf > 0
                             ? config.hosts_per_leaf
                             : std::max<std::size_t>(1, half / config.nics_per_host);
  // Up-ports for a full leaf (a fat tree is cabled uniformly), or for the hosts there are.
  const std::size_t down = std::min(shape.hosts_per_leaf, config.hosts) * config.nics_per_host;
  shape.uplinks_per_leaf = static_cast<std::size_t>(
      std::max(1.0, std::ceil(static_cast<double>(down) / config.oversubscription - 1e-9)));
  if (down + shape.uplinks_per_leaf > gen.radix) {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("a leaf of {} HCA ports and {} up-ports does not fit a {}-port {}", down,
                    shape.uplinks_per_leaf, gen.radix, gen.switch_model));
  }
  shape.leaves = (config.hosts + shape.hosts_per_leaf - 1) / shape.hosts_per_leaf;
  // Every leaf reaches every spine: the spine count divides the up-ports of a leaf, and each
  // spine takes the same number of cables from every leaf.
  const std::size_t up = shape.uplinks_per_leaf;
  for (std::size_t spines = std::min<std::size_t>(up, 2); spines <= up; ++spines) {
    if (up % spines == 0 && shape.leaves * (up / spines) <= gen.radix) {
      shape.spines = spines;
      return shape;
    }
  }
  return make_error(ErrorCode::InvalidArgument,
                    fmt::format("{} leaves do not fit a two-level fat tree of {}-port {} "
                                "switches (at most {} HCAs)",
                                shape.leaves, gen.radix, gen.switch_model, gen.radix * half));
}

}  // namespace netdoctor::sim
