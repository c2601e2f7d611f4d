// Configuration drift on hosts and switch ports: mtu-mismatch (a netdev at 1500 / RoCE path MTU
// 1024, or a switch port with a small MTU) and firmware-mismatch (one host on other firmware
// and driver than the rest of its NIC model).
#include "sim/faults/fault_table.h"
#include "sim/nic_models.h"
#include "sim/traffic.h"

namespace netdoctor::sim {

Status prepare_mtu_mismatch(FaultContext& context) {
  Fabric& fabric = context.fabric;
  EntityRef ref;
  if (!context.requested.empty()) {
    ND_TRY_ASSIGN(ref, find_entity(fabric, context.requested));
  }
  if (ref.kind == EntityKind::Port || ref.kind == EntityKind::Switch) {
    ND_TRY_ASSIGN(context.target,
                  pick_host_port(fabric, "mtu-mismatch", context.requested, context.rng));
    Port& port = fabric.switches[context.target.sw].ports[context.target.port];
    port.mtu = 1500;
    context.culprits = {port_entity(fabric, context.target.sw, context.target.port),
                        nic_entity(fabric, port.peer_host, port.peer_nic),
                        netdev_entity(fabric, port.peer_host, port.peer_nic)};
    return {};
  }
  if (context.requested.empty()) {
    ref = EntityRef{};
    ref.kind = EntityKind::Nic;
    ref.host = context.rng.index(fabric.hosts.size());
    ref.nic = context.rng.index(fabric.hosts[ref.host].nics.size());
  } else if (ref.kind != EntityKind::Host && ref.kind != EntityKind::Nic) {
    return make_error(ErrorCode::InvalidArgument,
                      "mtu-mismatch needs a host, a NIC or a switch port as its place",
                      context.requested);
  }
  context.target = ref;
  for (const std::size_t n : target_nics(fabric, ref)) {
    Nic& nic = fabric.hosts[ref.host].nics[n];
    nic.mtu = 1500;
    nic.active_mtu = 1024;  // the RoCE path MTU follows the netdev
    context.culprits.push_back(netdev_entity(fabric, ref.host, n));
    context.culprits.push_back(nic_entity(fabric, ref.host, n));
  }
  context.culprits.push_back(host_entity(fabric, ref.host));
  return {};
}

Status inject_mtu_mismatch(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  if (context.target.kind == EntityKind::Port) {
    // Every RoCE frame from the NIC is larger than the port MTU: dropped at ingress, the
    // requester retries until its ACK timer gives up.
    Port& port = fabric.switches[context.target.sw].ports[context.target.port];
    Nic& nic = fabric.hosts[port.peer_host].nics[port.peer_nic];
    const double attempted = nic.rates[NicRate::TxRdmaPackets] * 0.02;
    scale_traffic(nic, 0.02);
    port.rates[PortRate::RxDrops] = attempted + rng.uniform(1000.0, 5000.0);
    nic.rates[NicRate::LocalAckTimeout] = rng.uniform(5.0, 20.0);
    nic.rates[NicRate::PacketSeqErr] = rng.uniform(1.0, 10.0);
    nic.perf_fails = true;
    return {};
  }
  for (const std::size_t n : target_nics(fabric, context.target)) {
    Nic& nic = fabric.hosts[context.target.host].nics[n];
    // Same bytes in 1 KiB packets; jumbo TCP frames from peers are too long for it.
    const double small = roce_packet_bytes(nic.active_mtu);
    nic.rates[NicRate::TxRdmaPackets] = nic.rates[NicRate::TxRdmaBytes] / small;
    nic.rates[NicRate::RxRdmaPackets] = nic.rates[NicRate::RxRdmaBytes] / small;
    nic.rates[NicRate::OversizePackets] = rng.uniform(5.0, 60.0);
    nic.rates.add(NicRate::RxDiscardsPhy, nic.rates[NicRate::OversizePackets]);
    scale_traffic(nic, rng.uniform(0.85, 0.92));
    nic.perf_bw_factor *= rng.uniform(0.85, 0.9);
    nic.perf_lat_factor *= rng.uniform(1.2, 1.4);
  }
  return {};
}

Status prepare_firmware_mismatch(FaultContext& context) {
  Fabric& fabric = context.fabric;
  ND_TRY_ASSIGN(context.target,
                pick_host(fabric, "firmware-mismatch", context.requested, context.rng));
  const EntityRef& t = context.target;
  context.culprits.push_back(host_entity(fabric, t.host));
  for (const std::size_t n : target_nics(fabric, t)) {
    Nic& nic = fabric.hosts[t.host].nics[n];
    const NicModel& model = nic_model(nic.vendor);
    nic.fw = model.old_fw;
    nic.driver_version = model.old_driver_version;
    context.culprits.push_back(nic_entity(fabric, t.host, n));
  }
  return {};
}

Status inject_firmware_mismatch(FaultContext& context) {
  for (const std::size_t n : target_nics(context.fabric, context.target)) {
    Nic& nic = context.fabric.hosts[context.target.host].nics[n];
    // Older firmware: slower completion path, a little less bandwidth.
    nic.perf_lat_factor *= context.rng.uniform(1.12, 1.25);
    nic.perf_bw_factor *= context.rng.uniform(0.96, 0.99);
  }
  return {};
}

}  // namespace netdoctor::sim
