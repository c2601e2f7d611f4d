// gid-mismatch: one host's RoCE NICs lack a usable RoCE v2 GID at the fleet's index, one of
// three ways met in the field: a global IPv6 address was added before the IPv4 one, so the IPv6
// GIDs took entries 2/3 and the RoCE v2 IPv4 GID sits at index 5 while the fleet's is at 3;
// RoCE v2 is off on the host (every entry IB/RoCE v1); or the IPv4 address has no GID at all.
// A job pinned to index 3 (NCCL_IB_GID_INDEX, perftest -x 3) sends from that host with the
// wrong GID or none: its peers never answer, the QPs run out of retries.
#include <fmt/format.h>

#include <array>
#include <cstdio>

#include "sim/faults/fault_table.h"

namespace netdoctor::sim {
namespace {

// A unique-local address derived from the NIC's IPv4 one, as ip prints it.
std::string ula_for(const std::string& ip) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d);
  return fmt::format("fd00:{:x}:{:x}::{:x}", (a << 8) | b, c, d);
}

}  // namespace

Status prepare_gid_mismatch(FaultContext& context) {
  Fabric& fabric = context.fabric;
  ND_TRY_ASSIGN(context.target, pick_host(fabric, "gid-mismatch", context.requested, context.rng));
  const std::size_t h = context.target.host;
  context.culprits.push_back(host_entity(fabric, h));
  constexpr std::array<GidLayout, 3> k_layouts = {GidLayout::Ipv6First, GidLayout::V1Only,
                                                  GidLayout::NoIpv4};
  const GidLayout layout = k_layouts[context.rng.index(k_layouts.size())];
  for (std::size_t n = 0; n < fabric.hosts[h].nics.size(); ++n) {
    Nic& nic = fabric.hosts[h].nics[n];
    nic.gid_layout = layout;
    if (layout == GidLayout::Ipv6First) {
      nic.ipv6 = ula_for(nic.ip);
    }
    context.culprits.push_back(nic_entity(fabric, h, n));
    context.culprits.push_back(netdev_entity(fabric, h, n));
  }
  return {};
}

Status inject_gid_mismatch(FaultContext& context) {
  Rng& rng = context.rng;
  for (Nic& nic : context.fabric.hosts[context.target.host].nics) {
    // Every connection from the host times out (transport retry exceeded) until the job gives
    // up on the pair or falls back: ACK timeouts and a little less RDMA traffic.
    nic.rates.add(NicRate::LocalAckTimeout, rng.uniform(2.0, 8.0));
    scale_traffic(nic, rng.uniform(0.7, 0.85));
    nic.perf_fails = true;
  }
  return {};
}

}  // namespace netdoctor::sim
