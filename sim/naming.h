// Names in the styles real fleets use. A style is picked per fabric by the seed so that tools
// reading simulated bundles meet the variety they will meet in the field.
#pragma once

#include <cstdint>
#include <string>

#include "sim/sim_config.h"

namespace netdoctor::sim {

enum class HostStyle { GpuA, Node, Trn, Dgx, RackSlot, Count };
enum class Mlx5Style { Indexed, PciBased, Count };  // mlx5_0/ens1f0np0 or rocep26s0f0/enp26s0f0np0

std::string host_name(HostStyle style, std::size_t index, std::size_t host_count);

struct NicNames {
  std::string rdma_dev;
  std::string netdev;
  std::string pci;
};
NicNames nic_names(Vendor vendor, Mlx5Style style, std::size_t index);

// "aa:bb:cc:dd:ee:ff" from a vendor OUI and 24 bits.
std::string mac_address(Vendor vendor, std::uint64_t bits);

}  // namespace netdoctor::sim
