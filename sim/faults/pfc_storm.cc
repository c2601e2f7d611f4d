// pfc-storm: one NIC keeps sending PFC pause on the RoCE priority (a stuck receive path). Its
// leaf port stops forwarding to it, the queue behind fills, and the leaf pauses every other
// port: the neighbours and the uplinks receive pause and lose throughput. The leaf's PFC
// watchdog detects the storm on that port's RoCE queue, drops what is queued for it, restores
// in each gap of the pause and detects it again.
#include "sim/faults/fault_table.h"

namespace netdoctor::sim {
namespace {

// The watchdog restores after a pause-free gap and detects the storm again: the less of the
// time the NIC pauses, the more gaps, the more storms. Derived without drawing from the random
// stream, so a second fault's draws stay as they were.
constexpr double k_storms_per_idle_second = 2.0;

void mark_watchdog(const Nic& origin, Port& port) {
  const double idle = 1.0 - origin.rates[NicRate::TxPauseMicros] / 1e6;
  port.rates[PortRate::PfcwdStorms] = k_storms_per_idle_second * idle;
  // With action drop it discards what the leaf would forward to the NIC, and what the NIC
  // sends on the stormed queue.
  port.rates[PortRate::PfcwdTxDrops] =
      origin.rates[NicRate::RxRdmaPackets] + origin.rates[NicRate::RxOtherRocePackets];
  port.rates[PortRate::PfcwdRxDrops] = origin.rates[NicRate::TxRdmaPackets] * idle;
}

}  // namespace

Status prepare_pfc_storm(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_nic(context.fabric, "pfc-storm", context.requested, context.rng));
  const EntityRef& t = context.target;
  const Nic& nic = context.fabric.hosts[t.host].nics[t.nic];
  context.culprits = {nic_entity(context.fabric, t.host, t.nic),
                      netdev_entity(context.fabric, t.host, t.nic),
                      port_entity(context.fabric, nic.leaf, nic.port)};
  return {};
}

Status inject_pfc_storm(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  const EntityRef& t = context.target;
  Nic& origin = fabric.hosts[t.host].nics[t.nic];
  origin.rates[NicRate::TxPause] = rng.uniform(20000.0, 45000.0);
  origin.rates[NicRate::TxPauseMicros] = rng.uniform(0.85, 0.98) * 1e6;
  origin.rates[NicRate::PauseStormWarnings] = rng.uniform(0.05, 0.2);
  origin.rates[NicRate::PauseStormErrors] = rng.uniform(0.01, 0.05);
  origin.rates[NicRate::RxDiscardsPhy] = rng.uniform(50.0, 400.0);
  origin.rates[NicRate::RdmaOutOfBuffer] = rng.uniform(100.0, 900.0);
  // Almost nothing reaches it while it pauses the switch.
  for (const NicRate rate : {NicRate::RxRdmaBytes, NicRate::RxRdmaPackets}) {
    origin.rates.scale(rate, rng.uniform(0.05, 0.12));
  }
  origin.perf_bw_factor *= 0.12;
  origin.perf_lat_factor *= 6.0;

  Switch& leaf = fabric.switches[origin.leaf];
  mark_watchdog(origin, leaf.ports[origin.port]);
  for (const std::size_t h : leaf.hosts) {
    for (std::size_t n = 0; n < fabric.hosts[h].nics.size(); ++n) {
      if (h == t.host && n == t.nic) {
        continue;
      }
      Nic& victim = fabric.hosts[h].nics[n];
      victim.rates[NicRate::RxPause] = rng.uniform(2000.0, 8000.0);
      victim.rates[NicRate::RxPauseMicros] = rng.uniform(0.3, 0.6) * 1e6;
      const double slow = rng.uniform(0.45, 0.6);
      scale_traffic(victim, slow);
      victim.perf_bw_factor *= slow;
      victim.perf_lat_factor *= rng.uniform(1.8, 3.0);
    }
  }
  for (Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink) {
      port.rates[PortRate::PfcTx] = rng.uniform(3000.0, 9000.0);  // spines receive it
    }
  }
  // The spines pass a little of it on to the other leaves.
  for (std::size_t l = 0; l < fabric.leaf_count; ++l) {
    if (l == origin.leaf) {
      continue;
    }
    for (Port& port : fabric.switches[l].ports) {
      if (port.kind == PortKind::Uplink) {
        port.rates[PortRate::PfcRx] = rng.uniform(300.0, 1500.0);
      }
    }
  }
  return {};
}

}  // namespace netdoctor::sim
