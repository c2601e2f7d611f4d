// The traffic model: what every NIC sends and receives over the sampling window, and what the
// switch ports see as a consequence. Physics kept: no link above line rate, a switch port
// counts what the NIC at the other end of its cable counts (mirrored), a leaf's uplinks carry
// the share of its hosts' traffic that crosses leaves, spread by ECMP weight, and hosts are
// throttled when their leaf's uplinks cannot carry it.
#pragma once

#include "sim/rng.h"
#include "sim/topology.h"

namespace netdoctor::sim {

// A healthy workload: large RDMA messages at the fleet utilization with per-NIC noise, a
// little kernel traffic, occasional pause, light ECN marking, near-zero errors.
void seed_base_rates(Fabric& fabric, Rng& rng);

// Long-run averages behind the absolute counter values: a share of today's traffic, today's
// error rates, a link-down or two since boot.
void snapshot_history(Fabric& fabric, Rng& rng);

// Clamps NICs to line rate, throttles hosts behind saturated uplinks, and fills every switch
// port's traffic from the NIC or switch port at the other end. Faults run before it.
void derive_links(Fabric& fabric);

// Mean wire size of a RoCE packet for a path MTU (payload plus RoCEv2 headers).
double roce_packet_bytes(int active_mtu);

// Sets a NIC's traffic to `utilization` of its line rate in both directions, keeping the mix.
void set_nic_utilization(Nic& nic, double utilization);

double nic_tx_bytes(const Nic& nic);
double nic_rx_bytes(const Nic& nic);

}  // namespace netdoctor::sim
