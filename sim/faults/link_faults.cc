// Faults of one cable: link-errors (a bad cable or optic: symbol, FCS and FEC errors, link
// downs, retransmits that follow) and link-degraded (trained at half speed on half the lanes).
#include <algorithm>

#include "sim/faults/fault_table.h"

namespace netdoctor::sim {
namespace {
void name_link(FaultContext& context) {
  const EntityRef& t = context.target;
  const Nic& nic = context.fabric.hosts[t.host].nics[t.nic];
  context.culprits = {nic_entity(context.fabric, t.host, t.nic),
                      netdev_entity(context.fabric, t.host, t.nic),
                      port_entity(context.fabric, nic.leaf, nic.port)};
}
}  // namespace

Status prepare_link_errors(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_nic(context.fabric, "link-errors", context.requested, context.rng));
  name_link(context);
  return {};
}

Status inject_link_errors(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  Nic& nic = fabric.hosts[context.target.host].nics[context.target.nic];
  Port& port = fabric.switches[nic.leaf].ports[nic.port];
  const double window =
      fabric.interval_s * static_cast<double>(std::max<std::size_t>(1, fabric.samples - 1));
  nic.rates[NicRate::SymbolErrors] = rng.uniform(80.0, 600.0);
  nic.rates[NicRate::CrcErrors] = rng.uniform(10.0, 80.0);
  nic.rates[NicRate::CorrectedBits] = rng.uniform(2e5, 2e6);
  nic.rates[NicRate::FecUncorrectable] = rng.uniform(2.0, 15.0);
  // Two to four flaps inside the window, and a history of them since the cable went bad.
  nic.rates[NicRate::LinkDowns] = static_cast<double>(2 + rng.below(3)) / window;
  nic.history[NicRate::LinkDowns] = rng.uniform(20.0, 60.0) / fabric.hosts[0].uptime_s;
  nic.history[NicRate::SymbolErrors] = rng.uniform(1.0, 5.0);
  // The kernel logs each drop: "Link down" then "Link up" (mlx5_core), "NIC Link is Down/Up"
  // (bnxt_en). A fixed count: no draw, so the other figures stay as they were.
  nic.kernel_flaps = 3;
  port.rates[PortRate::RxErrors] = rng.uniform(10.0, 80.0);
  port.rates[PortRate::RxDrops] = port.rates[PortRate::RxErrors] * rng.uniform(0.8, 1.0);
  port.rates[PortRate::LinkDowns] = nic.rates[NicRate::LinkDowns];
  add_loss_symptoms(nic, nic.rates[NicRate::CrcErrors] + port.rates[PortRate::RxErrors], rng);
  const double slow = rng.uniform(0.6, 0.8);
  scale_traffic(nic, slow);
  nic.perf_bw_factor *= slow;
  nic.perf_lat_factor *= rng.uniform(1.2, 1.6);
  return {};
}

Status prepare_link_degraded(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_nic(context.fabric, "link-degraded", context.requested, context.rng));
  name_link(context);
  Nic& nic = context.fabric.hosts[context.target.host].nics[context.target.nic];
  Port& port = context.fabric.switches[nic.leaf].ports[nic.port];
  nic.speed_gbps = nic.rated_gbps / 2;
  nic.lanes = std::max(1, nic.rated_lanes / 2);
  port.speed_gbps = nic.speed_gbps;  // SONiC shows the operational speed
  return {};
}

Status inject_link_degraded(FaultContext& context) {
  Nic& nic = context.fabric.hosts[context.target.host].nics[context.target.nic];
  // The collective still asks for the same bandwidth: the slow link runs flat out and pauses.
  scale_traffic(nic, 2.0);
  nic.rates.scale(NicRate::TxPause, context.rng.uniform(5.0, 15.0));
  nic.perf_bw_factor *= 0.5;
  nic.perf_lat_factor *= context.rng.uniform(1.05, 1.15);
  return {};
}

}  // namespace netdoctor::sim
