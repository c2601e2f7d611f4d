#include <fmt/format.h>

#include <cstdio>

#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

std::string broadcast(const std::string& ip, int prefix_len) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d) != 4) {
    return ip;
  }
  const std::uint32_t addr = a << 24 | b << 16 | c << 8 | d;
  const std::uint32_t host_bits =
      prefix_len >= 32 ? 0u : (0xffffffffu >> static_cast<unsigned>(prefix_len));
  const std::uint32_t bcast = addr | host_bits;
  return fmt::format("{}.{}.{}.{}", bcast >> 24, (bcast >> 16) & 0xff, (bcast >> 8) & 0xff,
                     bcast & 0xff);
}

// EUI-64 link-local address from a MAC: flip the U/L bit, insert ff:fe.
std::string link_local(const std::string& mac) {
  unsigned m[6] = {};
  if (std::sscanf(mac.c_str(), "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) !=
      6) {
    return "fe80::1";
  }
  return fmt::format("fe80::{:x}:{:x}ff:fe{:02x}:{:x}/64", ((m[0] ^ 2u) << 8) | m[1], m[2], m[3],
                     (m[4] << 8) | m[5]);
}

std::string global_ipv6(const Nic& nic) {
  if (nic.ipv6.empty()) {
    return {};
  }
  return fmt::format(
      "    inet6 {}/64 scope global \n"
      "       valid_lft forever preferred_lft forever\n",
      nic.ipv6);
}

// An IPoIB netdev: link/infiniband with the 20-byte hardware address, the ipoib details line,
// the IPv4 address and the link-local address from the port GUID (U/L bit flipped).
void ipoib_block(const Nic& nic, fmt::memory_buffer& out) {
  const std::uint64_t g = nic.node_guid ^ 0x0200000000000000ull;
  fmt::format_to(
      std::back_inserter(out),
      "{}: {}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu {} qdisc mq state {} group default qlen "
      "256\n"
      "    link/infiniband {} brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff "
      "promiscuity 0  allmulti 0 minmtu 68 maxmtu 65520 \n"
      "    ipoib pkey  0xffff mode datagram umcast 0000 numtxqueues 256 numrxqueues 128 "
      "gso_max_size 65536 gso_max_segs 65535 tso_max_size 65536 tso_max_segs 65535 gro_max_size "
      "65536 parentbus pci parentdev {} \n"
      "    inet {}/{} brd {} scope global {}\n"
      "       valid_lft forever preferred_lft forever\n"
      "    inet6 fe80::{:x}:{:x}:{:x}:{:x}/64 scope link \n"
      "       valid_lft forever preferred_lft forever\n",
      nic.ifindex, nic.netdev, nic.mtu, nic.ib_state == IbState::Active ? "UP" : "DOWN", nic.mac,
      nic.pci, nic.ip, nic.prefix_len, broadcast(nic.ip, nic.prefix_len), nic.netdev, g >> 48,
      (g >> 32) & 0xffff, (g >> 16) & 0xffff, g & 0xffff);
}

}  // namespace

std::string ip_address(const Host& host, FabricKind kind) {
  fmt::memory_buffer out;
  auto o = std::back_inserter(out);
  fmt::format_to(o,
                 "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group "
                 "default qlen 1000\n"
                 "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00 promiscuity 0  "
                 "allmulti 0 minmtu 0 maxmtu 0 numtxqueues 1 numrxqueues 1 gso_max_size 65536 "
                 "gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 \n"
                 "    inet 127.0.0.1/8 scope host lo\n"
                 "       valid_lft forever preferred_lft forever\n");
  fmt::format_to(o,
                 "2: eno1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group "
                 "default qlen 1000\n"
                 "    link/ether {} brd ff:ff:ff:ff:ff:ff promiscuity 0  allmulti 0 minmtu 68 "
                 "maxmtu 9216 numtxqueues 64 numrxqueues 64 gso_max_size 65536 gso_max_segs "
                 "65535 tso_max_size 65536 tso_max_segs 65535 gro_max_size 65536 parentbus pci "
                 "parentdev 0000:04:00.0 \n"
                 "    inet {}/16 brd {} scope global eno1\n"
                 "       valid_lft forever preferred_lft forever\n",
                 host.mgmt_mac, host.mgmt_ip, broadcast(host.mgmt_ip, 16));
  for (const Nic& nic : host.nics) {
    if (kind == FabricKind::Ib) {
      ipoib_block(nic, out);
      continue;
    }
    const bool mlx5 = nic.vendor == Vendor::Mlx5;
    fmt::format_to(o,
                   "{}: {}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu {} qdisc mq state UP group "
                   "default qlen 1000\n"
                   "    link/ether {} brd ff:ff:ff:ff:ff:ff promiscuity 0  allmulti 0 minmtu 68 "
                   "maxmtu {} numtxqueues {} numrxqueues {} gso_max_size 65536 gso_max_segs "
                   "65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 parentbus "
                   "pci parentdev {} \n"
                   "    inet {}/{} brd {} scope global {}\n"
                   "       valid_lft forever preferred_lft forever\n"
                   "{}"
                   "    inet6 {} scope link \n"
                   "       valid_lft forever preferred_lft forever\n",
                   nic.ifindex, nic.netdev, nic.mtu, nic.mac, mlx5 ? 9978 : 9500, mlx5 ? 512 : 74,
                   mlx5 ? 63 : 74, nic.pci, nic.ip, nic.prefix_len,
                   broadcast(nic.ip, nic.prefix_len), nic.netdev, global_ipv6(nic),
                   link_local(nic.mac));
  }
  return fmt::to_string(out);
}

}  // namespace netdoctor::sim
