// InfiniBand forms of the cable and configuration faults: link-errors (symbol errors and link
// error recoveries growing on one cable, sometimes a link down), link-degraded (a cable trained
// 1X/2X, a generation slow, or down and polling), mtu-mismatch (an HCA at IB MTU 2048 where the
// rest run 4096), firmware-mismatch (HCAs on older firmware), and the traffic of ecmp-imbalance
// and oversubscription as a credit-based fabric shows it (waits, not pause frames).
#include <algorithm>

#include "sim/faults/fault_table.h"
#include "sim/ib_shape.h"
#include "sim/ib_traffic.h"
#include "sim/traffic.h"

namespace netdoctor::sim {
namespace {

// A cable by its switch end: a leaf port facing an HCA, or a leaf up-port (spine end beside).
struct Cable {
  std::size_t sw = k_none;
  std::size_t port = k_none;
  std::size_t host = k_none;  // an HCA cable: the HCA at the far end
  std::size_t nic = k_none;
};

Cable cable_at(const Fabric& fabric, std::size_t sw, std::size_t port) {
  const Port& p = fabric.switches[sw].ports[port];
  if (p.kind == PortKind::SpineDownlink) {
    return {p.peer_switch, p.peer_port, k_none, k_none};  // name it from the leaf end
  }
  if (p.kind == PortKind::HostFacing) {
    return {sw, port, p.peer_host, p.peer_nic};
  }
  return {sw, port, k_none, k_none};
}

// The cable asked for (a NIC or host: its HCA cable; a port: its cable; a switch: one of its
// cables), or one chosen by the seed: an HCA cable or a leaf-spine cable, even odds.
Result<Cable> pick_cable(FaultContext& context, std::string_view fault) {
  const Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  if (context.requested.empty()) {
    if (rng.chance(0.5)) {
      const std::size_t leaf = rng.index(fabric.leaf_count);
      const std::vector<std::size_t> ups = uplinks_of(fabric.switches[leaf]);
      if (!ups.empty()) {
        return cable_at(fabric, leaf, ups[rng.index(ups.size())]);
      }
    }
    ND_TRY_ASSIGN(const EntityRef nic, pick_nic(fabric, fault, "", rng));
    const Nic& n = fabric.hosts[nic.host].nics[nic.nic];
    return cable_at(fabric, n.leaf, n.port);
  }
  ND_TRY_ASSIGN(const EntityRef ref, find_entity(fabric, context.requested));
  if (ref.kind == EntityKind::Port) {
    return cable_at(fabric, ref.sw, ref.port);
  }
  if (ref.kind == EntityKind::Switch) {
    const auto& ports = fabric.switches[ref.sw].ports;
    if (ports.empty()) {
      return make_error(ErrorCode::InvalidArgument, "that switch has no cables", context.requested);
    }
    return cable_at(fabric, ref.sw, rng.index(ports.size()));
  }
  const std::size_t n = ref.kind == EntityKind::Nic ? ref.nic : 0;
  const Nic& nic = fabric.hosts[ref.host].nics[n];
  return cable_at(fabric, nic.leaf, nic.port);
}

std::vector<std::string> cable_culprits(const Fabric& fabric, const Cable& c) {
  const Port& p = fabric.switches[c.sw].ports[c.port];
  if (c.host != k_none) {
    return {nic_entity(fabric, c.host, c.nic), port_entity(fabric, c.sw, c.port)};
  }
  return {port_entity(fabric, c.sw, c.port), port_entity(fabric, p.peer_switch, p.peer_port)};
}

Port& far_port(Fabric& fabric, const Cable& c) {
  const Port& p = fabric.switches[c.sw].ports[c.port];
  return fabric.switches[p.peer_switch].ports[p.peer_port];
}

Status resolve_cable(FaultContext& context, std::string_view fault) {
  ND_TRY_ASSIGN(const Cable c, pick_cable(context, fault));
  context.target.kind = EntityKind::Port;
  context.target.sw = c.sw;
  context.target.port = c.port;
  context.target.host = c.host;
  context.target.nic = c.nic;
  context.culprits = cable_culprits(context.fabric, c);
  return {};
}

Cable target_cable(const FaultContext& context) {
  return {context.target.sw, context.target.port, context.target.host, context.target.nic};
}

double window_s(const Fabric& fabric) {
  return fabric.interval_s * static_cast<double>(std::max<std::size_t>(1, fabric.samples - 1));
}

// A bad cable end: symbol errors since the cable went bad (an hour or so, never up to the
// 16-bit maximum) and growing now, a link error recovery or two each window.
void bad_end(PortRates& rates, PortRates& history, double age, double window, Rng& rng) {
  const double symbols = rng.uniform(3.0, 25.0);
  rates[PortRate::SymbolErrors] = symbols;
  rates[PortRate::LinkRecovers] = rng.uniform(1.5, 4.0) / window;
  rates[PortRate::RxErrors] = symbols * rng.uniform(0.1, 0.3);
  const double onset = std::min(age, rng.uniform(600.0, 1800.0));
  history[PortRate::SymbolErrors] = symbols * onset / age;
  history[PortRate::LinkRecovers] = rates[PortRate::LinkRecovers] * onset / age;
}

}  // namespace

Status prepare_ib_link_errors(FaultContext& context) {
  return resolve_cable(context, "link-errors");
}

Status inject_ib_link_errors(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  const Cable c = target_cable(context);
  Switch& sw = fabric.switches[c.sw];
  Port& port = sw.ports[c.port];
  const double window = window_s(fabric);
  const bool flapped = rng.chance(0.5);  // the link also went down and retrained once
  bad_end(port.rates, port.history, sw.pma_cleared_s, window, rng);
  if (flapped) {
    port.rates[PortRate::LinkDowns] = 1.5 / window;
  }
  if (c.host != k_none) {
    Host& host = fabric.hosts[c.host];
    Nic& nic = host.nics[c.nic];
    const double symbols = rng.uniform(1.0, 10.0);
    nic.rates[NicRate::SymbolErrors] = symbols;
    nic.rates[NicRate::LinkRecovers] = port.rates[PortRate::LinkRecovers];
    nic.rates[NicRate::CrcErrors] = symbols * rng.uniform(0.1, 0.3);
    nic.history[NicRate::SymbolErrors] = symbols * 1200.0 / host.uptime_s;
    if (flapped) {
      nic.rates[NicRate::LinkDowns] = port.rates[PortRate::LinkDowns];
      nic.kernel_flaps = 1;
    }
    add_loss_symptoms(nic, port.rates[PortRate::RxErrors] + nic.rates[NicRate::CrcErrors], rng);
    scale_traffic(nic, rng.uniform(0.75, 0.9));
    nic.perf_bw_factor *= 0.8;
    nic.perf_lat_factor *= rng.uniform(1.2, 1.5);
    return {};
  }
  Port& far = far_port(fabric, c);
  const Switch& spine = fabric.switches[port.peer_switch];
  bad_end(far.rates, far.history, spine.pma_cleared_s, window, rng);
  if (flapped) {
    far.rates[PortRate::LinkDowns] = port.rates[PortRate::LinkDowns];
  }
  return {};
}

Status prepare_ib_link_degraded(FaultContext& context) {
  ND_TRY(resolve_cable(context, "link-degraded"));
  ND_TRY(pick_variant(context, {"width", "speed", "down"}));
  Fabric& fabric = context.fabric;
  const Cable c = target_cable(context);
  Port& port = fabric.switches[c.sw].ports[c.port];
  Nic* nic = c.host != k_none ? &fabric.hosts[c.host].nics[c.nic] : nullptr;
  Port* far = c.host == k_none ? &far_port(fabric, c) : nullptr;
  int lanes = 4;
  int gbps = port.rated_gbps;
  if (context.variant == "width") {
    lanes = context.rng.chance(0.5) ? 1 : 2;  // a damaged lane pair: trained 1X or 2X
    gbps = port.rated_gbps / 4 * lanes;
  } else if (context.variant == "speed") {
    gbps = port.rated_gbps / 2;  // a cable or optic of the generation below
  }
  const IbState state = context.variant == "down" ? IbState::Down : IbState::Active;
  const IbPhys phys = context.variant == "down" ? IbPhys::Polling : IbPhys::LinkUp;
  for (Port* p : {&port, far}) {
    if (p != nullptr) {
      p->lanes = lanes;
      p->speed_gbps = gbps;
      p->ib_state = state;
      p->ib_phys = phys;
    }
  }
  if (nic != nullptr) {
    nic->lanes = lanes;
    nic->speed_gbps = gbps;
    nic->ib_state = state;
    nic->ib_phys = phys;
  }
  if (context.variant == "down" && far != nullptr) {
    port.ecmp_weight = 0.0;  // routing moves the cable's share to the other up-ports
  }
  return {};
}

Status inject_ib_link_degraded(FaultContext& context) {
  const Cable c = target_cable(context);
  if (c.host == k_none) {
    return {};  // derive_links caps the up-port at its trained rate, or routes around it
  }
  Nic& nic = context.fabric.hosts[c.host].nics[c.nic];
  if (context.variant == "down") {
    scale_traffic(nic, 0.0);
    nic.perf_fails = true;
    return {};
  }
  // The collective still asks for the same bandwidth: the slow link runs flat out.
  scale_traffic(nic, 2.0);
  nic.perf_bw_factor *= static_cast<double>(nic.speed_gbps) / nic.rated_gbps;
  nic.perf_lat_factor *= context.rng.uniform(1.05, 1.15);
  return {};
}

Status prepare_ib_mtu_mismatch(FaultContext& context) {
  Fabric& fabric = context.fabric;
  ND_TRY_ASSIGN(context.target, pick_host(fabric, "mtu-mismatch", context.requested, context.rng));
  const EntityRef& t = context.target;
  for (const std::size_t n : target_nics(fabric, t)) {
    Nic& nic = fabric.hosts[t.host].nics[n];
    nic.active_mtu = 2048;  // IB MTU 2048 (its opensm partition or HCA port set so)
    nic.mtu = 2044;         // and IPoIB follows it
    context.culprits.push_back(nic_entity(fabric, t.host, n));
  }
  context.culprits.push_back(host_entity(fabric, t.host));
  return {};
}

Status inject_ib_mtu_mismatch(FaultContext& context) {
  for (const std::size_t n : target_nics(context.fabric, context.target)) {
    Nic& nic = context.fabric.hosts[context.target.host].nics[n];
    const double small = roce_packet_bytes(nic.active_mtu);
    nic.rates[NicRate::TxRdmaPackets] = nic.rates[NicRate::TxRdmaBytes] / small;
    nic.rates[NicRate::RxRdmaPackets] = nic.rates[NicRate::RxRdmaBytes] / small;
    scale_traffic(nic, context.rng.uniform(0.88, 0.94));
    nic.perf_bw_factor *= context.rng.uniform(0.88, 0.93);
    nic.perf_lat_factor *= context.rng.uniform(1.1, 1.25);
  }
  return {};
}

Status prepare_ib_firmware_mismatch(FaultContext& context) {
  Fabric& fabric = context.fabric;
  ND_TRY_ASSIGN(context.target,
                pick_host(fabric, "firmware-mismatch", context.requested, context.rng));
  const EntityRef& t = context.target;
  context.culprits.push_back(host_entity(fabric, t.host));
  for (const std::size_t n : target_nics(fabric, t)) {
    Nic& nic = fabric.hosts[t.host].nics[n];
    nic.fw = ib_generation(fabric.ib_speed).hca_old_fw;
    nic.driver_version = "23.10-2.1.3";
    context.culprits.push_back(nic_entity(fabric, t.host, n));
  }
  return {};
}

Status inject_ib_ecmp_imbalance(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  Switch& leaf = fabric.switches[context.target.sw];
  leaf.cross_fraction = 0.9;  // all-to-all: most traffic leaves the leaf
  for (const std::size_t h : leaf.hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      set_nic_utilization(nic, 0.7 * rng.jitter(0.03));
    }
  }
  // Static routes put the leaf's destinations on half its up-ports: those run out of credits.
  for (Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink && port.ecmp_weight >= 1.0) {
      port.ib_wait_share = rng.uniform(0.01, 0.03);
    }
  }
  return {};
}

Status inject_ib_oversubscription(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  Switch& leaf = fabric.switches[context.target.sw];
  leaf.cross_fraction = 0.85;
  for (const std::size_t h : leaf.hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      set_nic_utilization(nic, 0.6 * rng.jitter(0.03));
      nic.ib_wait_share = rng.uniform(0.01, 0.03);
      nic.perf_lat_factor *= rng.uniform(1.2, 1.5);
    }
  }
  for (Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink) {
      port.ib_wait_share = rng.uniform(0.02, 0.05);
    }
  }
  return {};
}

}  // namespace netdoctor::sim
