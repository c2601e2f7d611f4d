// QoS faults of one host: lossy-roce (PFC off on the RoCE priority: drops and go-back-N) and
// traffic-isolation (storage traffic shares the RoCE priority: pause, drops, less RDMA).
#include "sim/faults/fault_table.h"

namespace netdoctor::sim {
namespace {
void name_host_and_nics(FaultContext& context) {
  const EntityRef& t = context.target;
  context.culprits.push_back(host_entity(context.fabric, t.host));
  for (const std::size_t n : target_nics(context.fabric, t)) {
    context.culprits.push_back(nic_entity(context.fabric, t.host, n));
  }
}
}  // namespace

Status prepare_lossy_roce(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_host(context.fabric, "lossy-roce", context.requested, context.rng));
  name_host_and_nics(context);
  for (const std::size_t n : target_nics(context.fabric, context.target)) {
    context.fabric.hosts[context.target.host].nics[n].pfc_mask = 0;
  }
  return {};
}

Status inject_lossy_roce(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  for (const std::size_t n : target_nics(fabric, context.target)) {
    Nic& nic = fabric.hosts[context.target.host].nics[n];
    for (const NicRate rate :
         {NicRate::TxPause, NicRate::RxPause, NicRate::TxPauseMicros, NicRate::RxPauseMicros}) {
      nic.rates[rate] = 0.0;
      nic.history[rate] = 0.0;
    }
    const double drops = rng.uniform(200.0, 2000.0);
    nic.rates[NicRate::RxRoceDiscards] = drops;
    nic.rates[NicRate::RxDiscardsPhy] = drops * rng.uniform(1.0, 1.1);
    add_loss_symptoms(nic, drops, rng);
    Port& port = fabric.switches[nic.leaf].ports[nic.port];
    // The NIC ignores the switch's pause, so the switch's ingress overflows too.
    port.rates[PortRate::RxDrops] = rng.uniform(100.0, 1000.0);
    port.rates[PortRate::RoceQueueDrops] = rng.uniform(50.0, 400.0);
    const double slow = rng.uniform(0.45, 0.65);
    scale_traffic(nic, slow);
    nic.perf_bw_factor *= slow;
    nic.perf_lat_factor *= rng.uniform(1.1, 1.4);
  }
  return {};
}

Status prepare_traffic_isolation(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_host(context.fabric, "traffic-isolation", context.requested, context.rng));
  name_host_and_nics(context);
  return {};
}

Status inject_traffic_isolation(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  for (const std::size_t n : target_nics(fabric, context.target)) {
    Nic& nic = fabric.hosts[context.target.host].nics[n];
    const double line = line_rate_bytes(nic.speed_gbps);
    const double packet = rng.uniform(6000.0, 8500.0);  // NFS over jumbo-frame TCP
    nic.rates[NicRate::TxOtherRoceBytes] = line * rng.uniform(0.15, 0.3);
    nic.rates[NicRate::TxOtherRocePackets] = nic.rates[NicRate::TxOtherRoceBytes] / packet;
    nic.rates[NicRate::RxOtherRoceBytes] = line * rng.uniform(0.1, 0.25);
    nic.rates[NicRate::RxOtherRocePackets] = nic.rates[NicRate::RxOtherRoceBytes] / packet;
    for (const NicRate rate : {NicRate::TxRdmaBytes, NicRate::TxRdmaPackets, NicRate::RxRdmaBytes,
                               NicRate::RxRdmaPackets}) {
      nic.rates.scale(rate, 0.6);
    }
    nic.rates.scale(NicRate::TxPause, rng.uniform(30.0, 80.0));
    nic.rates.scale(NicRate::RxPause, rng.uniform(15.0, 40.0));
    nic.rates[NicRate::TxPauseMicros] = nic.rates[NicRate::TxPause] * rng.uniform(5.0, 15.0);
    nic.rates[NicRate::RxPauseMicros] = nic.rates[NicRate::RxPause] * rng.uniform(5.0, 15.0);
    const double drops = rng.uniform(20.0, 200.0);
    nic.rates[NicRate::RxRoceDiscards] = drops;
    nic.rates.add(NicRate::RxDiscardsPhy, drops);
    add_loss_symptoms(nic, drops, rng);
    nic.perf_bw_factor *= rng.uniform(0.55, 0.7);
    nic.perf_lat_factor *= rng.uniform(1.3, 2.0);
  }
  return {};
}

}  // namespace netdoctor::sim
