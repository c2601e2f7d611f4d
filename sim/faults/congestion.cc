// Congestion faults of the leaf-spine layer: ecmp-imbalance (flows hashed onto a few uplinks),
// oversubscription (too little uplink for the leaf's hosts), buffer-exhaustion (a lossless
// queue drops: too little buffer or headroom), ecn-misconfig (no marking behind one leaf, PFC
// does all the work).
#include <algorithm>

#include "sim/faults/fault_table.h"
#include "sim/traffic.h"

namespace netdoctor::sim {
namespace {

void load_leaf(Fabric& fabric, std::size_t leaf, double utilization, Rng& rng) {
  for (const std::size_t h : fabric.switches[leaf].hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      set_nic_utilization(nic, utilization * rng.jitter(0.03));
    }
  }
}

}  // namespace

Status prepare_ecmp_imbalance(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_leaf(context.fabric, "ecmp-imbalance", context.requested, context.rng));
  Switch& leaf = context.fabric.switches[context.target.sw];
  const std::vector<std::size_t> ups = uplinks_of(leaf);
  if (ups.size() < 2) {
    return make_error(ErrorCode::InvalidArgument,
                      "ecmp-imbalance needs a leaf with at least two uplinks", leaf.name);
  }
  context.culprits = {switch_entity(context.fabric, context.target.sw)};
  // Half the uplinks (picked by the hash, so not necessarily neighbours) carry the elephants.
  std::vector<std::size_t> order = ups;
  for (std::size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[context.rng.index(i)]);
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    Port& port = leaf.ports[order[i]];
    if (i < std::max<std::size_t>(1, order.size() / 2)) {
      port.ecmp_weight = 1.0;
      context.culprits.push_back(port_entity(context.fabric, context.target.sw, order[i]));
    } else {
      port.ecmp_weight = context.rng.uniform(0.03, 0.08);
    }
  }
  return {};
}

Status inject_ecmp_imbalance(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Switch& leaf = fabric.switches[context.target.sw];
  leaf.cross_fraction = 0.9;  // all-to-all: most traffic leaves the leaf
  load_leaf(fabric, context.target.sw, 0.7, context.rng);
  for (const std::size_t h : leaf.hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      nic.rates.scale(NicRate::EcnMarked, context.rng.uniform(4.0, 8.0));
      nic.rates.scale(NicRate::CnpSent, context.rng.uniform(4.0, 8.0));
      nic.rates.scale(NicRate::RxPause, context.rng.uniform(3.0, 6.0));
    }
  }
  return {};
}

Status prepare_oversubscription(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_leaf(context.fabric, "oversubscription", context.requested, context.rng));
  const std::size_t leaf = context.target.sw;
  const std::size_t ups = uplinks_of(context.fabric.switches[leaf]).size();
  // Built with a quarter of the uplinks it needs (a 1:4 leaf in a 1:1 fabric).
  keep_uplinks(context.fabric, leaf, std::max<std::size_t>(1, ups / 4));
  context.culprits = {switch_entity(context.fabric, leaf)};
  return {};
}

Status inject_oversubscription(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  Switch& leaf = fabric.switches[context.target.sw];
  leaf.cross_fraction = 0.85;
  load_leaf(fabric, context.target.sw, 0.6, rng);
  for (const std::size_t h : leaf.hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      nic.rates[NicRate::RxPause] = rng.uniform(1500.0, 4000.0);
      nic.rates[NicRate::RxPauseMicros] = rng.uniform(0.15, 0.35) * 1e6;
      nic.rates.scale(NicRate::CnpHandled, rng.uniform(8.0, 15.0));
      nic.rates.scale(NicRate::EcnMarked, rng.uniform(8.0, 15.0));
      nic.rates.scale(NicRate::CnpSent, rng.uniform(8.0, 15.0));
      nic.perf_lat_factor *= rng.uniform(1.2, 1.5);
    }
  }
  for (Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink) {
      port.rates[PortRate::PfcRx] = rng.uniform(1000.0, 3000.0);
      port.rates[PortRate::PfcTx] = rng.uniform(500.0, 1500.0);
      port.rates[PortRate::OtherQueueDrops] = rng.uniform(5.0, 50.0);
    }
  }
  return {};
}

Status prepare_buffer_exhaustion(FaultContext& context) {
  ND_TRY_ASSIGN(context.target, pick_host_port(context.fabric, "buffer-exhaustion",
                                               context.requested, context.rng));
  context.culprits = {port_entity(context.fabric, context.target.sw, context.target.port),
                      switch_entity(context.fabric, context.target.sw)};
  return {};
}

Status inject_buffer_exhaustion(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  Port& port = fabric.switches[context.target.sw].ports[context.target.port];
  const double drops = rng.uniform(300.0, 2500.0);
  port.rates[PortRate::RoceQueueDrops] = drops;  // egress toward the NIC, lossless queue
  port.rates[PortRate::RxDrops] = rng.uniform(20.0, 200.0);
  Nic& nic = fabric.hosts[port.peer_host].nics[port.peer_nic];
  nic.rates.scale(NicRate::TxPause, rng.uniform(10.0, 30.0));  // headroom too small anyway
  add_loss_symptoms(nic, drops, rng);
  nic.rates[NicRate::RdmaOutOfBuffer] = rng.uniform(20.0, 200.0);
  scale_traffic(nic, rng.uniform(0.65, 0.8));
  nic.perf_bw_factor *= rng.uniform(0.6, 0.75);
  nic.perf_lat_factor *= rng.uniform(1.4, 2.0);
  return {};
}

Status prepare_ecn_misconfig(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_leaf(context.fabric, "ecn-misconfig", context.requested, context.rng));
  context.culprits = {switch_entity(context.fabric, context.target.sw)};
  return {};
}

Status inject_ecn_misconfig(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  Switch& leaf = fabric.switches[context.target.sw];
  for (const std::size_t h : leaf.hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      for (const NicRate rate : {NicRate::EcnMarked, NicRate::CnpSent, NicRate::CnpHandled}) {
        nic.rates[rate] = 0.0;
        nic.history.scale(rate, 0.3);  // marking was switched off some days ago
      }
      nic.rates[NicRate::RxPause] = rng.uniform(2000.0, 6000.0);
      nic.rates[NicRate::RxPauseMicros] = rng.uniform(0.15, 0.3) * 1e6;
      nic.rates[NicRate::TxPause] = rng.uniform(300.0, 1200.0);
      nic.rates[NicRate::TxPauseMicros] = nic.rates[NicRate::TxPause] * rng.uniform(20.0, 60.0);
      const double slow = rng.uniform(0.7, 0.85);
      scale_traffic(nic, slow);
      nic.perf_bw_factor *= slow;
      nic.perf_lat_factor *= rng.uniform(1.3, 1.8);
    }
  }
  for (Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink) {
      port.rates[PortRate::PfcRx] = rng.uniform(1500.0, 4000.0);
      port.rates[PortRate::PfcTx] = rng.uniform(1500.0, 4000.0);
    }
  }
  return {};
}

}  // namespace netdoctor::sim
