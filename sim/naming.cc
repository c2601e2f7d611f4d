#include "sim/naming.h"

#include <fmt/format.h>

namespace netdoctor::sim {
namespace {
int digits(std::size_t value) {
  int count = 1;
  while (value >= 10) {
    value /= 10;
    ++count;
  }
  return count;
}
}  // namespace

std::string host_name(HostStyle style, std::size_t index, std::size_t host_count) {
  const std::size_t number = index + 1;
  switch (style) {
    case HostStyle::GpuA:
      return fmt::format("gpu-a{:0{}}", number, std::max(3, digits(host_count)));
    case HostStyle::Node:
      return fmt::format("node{:0{}}", number, std::max(2, digits(host_count)));
    case HostStyle::Trn:
      return fmt::format("trn{:0{}}", number, std::max(4, digits(host_count)));
    case HostStyle::Dgx:
      return fmt::format("dgx{:0{}}", number, std::max(3, digits(host_count)));
    case HostStyle::RackSlot:
    case HostStyle::Count:
      break;
  }
  // 32 hosts a rack, racks numbered from 4 as in a hall that grew.
  return fmt::format("h100-r{}-{:02}", 4 + index / 32, index % 32 + 1);
}

NicNames nic_names(Vendor vendor, Mlx5Style style, std::size_t index) {
  // One NIC per PCIe root port: buses 0x1a, 0x2a, ... as on common 8-GPU boards.
  const std::size_t bus = 0x1a + 0x10 * index;
  NicNames names;
  names.pci = fmt::format("0000:{:02x}:00.0", bus);
  if (vendor == Vendor::Bnxt) {
    names.rdma_dev = fmt::format("bnxt_re{}", index);
    names.netdev = fmt::format("ens{}f0np0", index + 1);
  } else if (style == Mlx5Style::PciBased) {
    names.rdma_dev = fmt::format("rocep{}s0f0", bus);
    names.netdev = fmt::format("enp{}s0f0np0", bus);
  } else {
    names.rdma_dev = fmt::format("mlx5_{}", index);
    names.netdev = fmt::format("ens{}f0np0", index + 1);
  }
  return names;
}

std::string mac_address(Vendor vendor, std::uint64_t bits) {
  const char* oui = vendor == Vendor::Bnxt ? "00:0a:f7" : "0c:42:a1";
  return fmt::format("{}:{:02x}:{:02x}:{:02x}", oui, (bits >> 16) & 0xff, (bits >> 8) & 0xff,
                     bits & 0xff);
}

}  // namespace netdoctor::sim
