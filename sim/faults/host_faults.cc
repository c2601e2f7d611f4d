// Faults of host configuration outside the NIC datapath: clock-skew (chrony lost its source,
// the clock drifted seconds away) and addressing-conflict (two hosts answer for one IP, or one
// host's NICs share a subnet without policy routing).
#include <cmath>

#include "sim/faults/fault_table.h"

namespace netdoctor::sim {

Status prepare_clock_skew(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_host(context.fabric, "clock-skew", context.requested, context.rng));
  Host& host = context.fabric.hosts[context.target.host];
  const double magnitude = context.rng.uniform(1.2, 6.0);
  host.clock_offset_s = context.rng.chance(0.5) ? magnitude : -magnitude;
  host.clock_synced = false;
  context.culprits = {host_entity(context.fabric, context.target.host)};
  return {};
}

Status inject_clock_skew(FaultContext& context) {
  // Collective timeouts fire on the skewed host's peers: a few ACK timeouts, nothing else.
  for (Nic& nic : context.fabric.hosts[context.target.host].nics) {
    nic.rates.add(NicRate::LocalAckTimeout, context.rng.uniform(0.01, 0.05));
  }
  return {};
}

Status prepare_addressing_conflict(FaultContext& context) {
  Fabric& fabric = context.fabric;
  ND_TRY_ASSIGN(context.target,
                pick_host(fabric, "addressing-conflict", context.requested, context.rng));
  EntityRef& t = context.target;
  Host& host = fabric.hosts[t.host];
  if (fabric.hosts.size() == 1) {
    if (host.nics.size() < 2) {
      return make_error(ErrorCode::InvalidArgument,
                        "addressing-conflict needs two hosts or a host with two NICs");
    }
    // Nobody to collide with: the host's NICs share the first NIC's subnet instead.
    for (std::size_t n = 1; n < host.nics.size(); ++n) {
      host.nics[n].ip =
          host.nics[0].ip.substr(0, host.nics[0].ip.rfind('.') + 1) + std::to_string(100 + n);
      host.nics[n].prefix_len = host.nics[0].prefix_len;
    }
    context.culprits = {host_entity(fabric, t.host)};
    for (std::size_t n = 0; n < host.nics.size(); ++n) {
      context.culprits.push_back(netdev_entity(fabric, t.host, n));
    }
    return {};
  }
  std::size_t other = context.rng.index(fabric.hosts.size() - 1);
  if (other >= t.host) {
    ++other;
  }
  context.peer_host = other;
  const std::size_t n = t.kind == EntityKind::Nic ? t.nic : context.rng.index(host.nics.size());
  t.kind = EntityKind::Nic;
  t.nic = n;
  Nic& victim = fabric.hosts[other].nics[std::min(n, fabric.hosts[other].nics.size() - 1)];
  host.nics[n].ip = victim.ip;
  host.nics[n].prefix_len = victim.prefix_len;
  context.culprits = {
      host_entity(fabric, t.host), host_entity(fabric, other), netdev_entity(fabric, t.host, n),
      netdev_entity(fabric, other, std::min(n, fabric.hosts[other].nics.size() - 1))};
  return {};
}

Status inject_addressing_conflict(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  if (context.peer_host == k_none) {
    return {};  // a shared subnet only bites when routing picks the wrong NIC; no counters
  }
  const std::size_t n = context.target.nic;
  for (const std::size_t h : {context.target.host, context.peer_host}) {
    Nic& nic = fabric.hosts[h].nics[std::min(n, fabric.hosts[h].nics.size() - 1)];
    // ARP flips between the two owners: connections land on the wrong host and time out.
    nic.rates.add(NicRate::LocalAckTimeout, rng.uniform(2.0, 10.0));
    nic.rates.add(NicRate::OutOfSequence, rng.uniform(5.0, 40.0));
    nic.perf_fails = n == 0;
    nic.perf_bw_factor *= 0.8;
  }
  return {};
}

}  // namespace netdoctor::sim
