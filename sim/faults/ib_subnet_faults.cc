// InfiniBand faults of the subnet as a whole: ib-congestion (a receiver that does not drain, the
// job behind it slow or its PCIe link trained x8: the leaf port facing it runs out of credits
// and waits, and the wait spreads back up the tree to the spine ports toward that leaf and the
// other leaves' up-ports) and subnet-manager (no
// SM, two masters, or ports the SM left short of Active).
#include <algorithm>

#include "sim/faults/fault_table.h"
#include "sim/ib_traffic.h"

namespace netdoctor::sim {
namespace {

// Someone cleared the switches' PortCounters (perfquery -R, ibdiagnet --pc) just before the
// capture to watch the waits grow; returns the longest time since.
double counters_just_cleared(Fabric& fabric, Rng& rng) {
  double longest = 0.0;
  for (Switch& sw : fabric.switches) {
    sw.pma_cleared_s = rng.uniform(2.0, 5.0);
    longest = std::max(longest, sw.pma_cleared_s);
  }
  return longest;
}

// The root's share of the time waiting: 7-12 %, as far as its 32-bit PortXmitWait can count
// over the capture (an NDR tick is half an HDR one); a longer capture sees it saturate.
double root_wait_share(const Fabric& fabric, const Port& port, double cleared, Rng& rng) {
  constexpr double k_counter_room = 0.9 * 4294967295.0;
  const double window =
      fabric.interval_s * static_cast<double>(std::max<std::size_t>(1, fabric.samples - 1)) + 1.0;
  const double fits =
      k_counter_room / (xmit_wait_ticks_per_s(port.speed_gbps, port.lanes) * (cleared + window));
  return std::max(0.06, std::min(rng.uniform(0.07, 0.12), fits));
}

// A port that carries nothing: a link the SM never activated, or one that is down.
void silence(Nic& nic) {
  scale_traffic(nic, 0.0);
  nic.perf_fails = true;
}

void set_hca_state(Fabric& fabric, std::size_t h, std::size_t n, IbState state) {
  Nic& nic = fabric.hosts[h].nics[n];
  nic.ib_state = state;
  fabric.switches[nic.leaf].ports[nic.port].ib_state = state;
  if (state == IbState::Init) {
    nic.lid = 0;  // the SM assigns the LID when it configures the port
  }
}

std::vector<std::pair<std::size_t, std::size_t>> pick_hcas(const Fabric& fabric, std::size_t count,
                                                           Rng& rng) {
  std::vector<std::pair<std::size_t, std::size_t>> all;
  for (std::size_t h = 0; h < fabric.hosts.size(); ++h) {
    for (std::size_t n = 0; n < fabric.hosts[h].nics.size(); ++n) {
      all.emplace_back(h, n);
    }
  }
  for (std::size_t i = all.size(); i > 1; --i) {
    std::swap(all[i - 1], all[rng.index(i)]);
  }
  all.resize(std::min(count, all.size()));
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

Status prepare_ib_congestion(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_nic(context.fabric, "ib-congestion", context.requested, context.rng));
  // Why it does not drain: the receiving job falls behind, or its PCIe link trained x8.
  ND_TRY(pick_variant(context, {"not-draining", "pcie"}));
  const EntityRef& t = context.target;
  Nic& nic = context.fabric.hosts[t.host].nics[t.nic];
  context.culprits = {nic_entity(context.fabric, t.host, t.nic),
                      port_entity(context.fabric, nic.leaf, nic.port)};
  if (context.variant == "pcie") {
    nic.pcie_width = nic.pcie_max_width / 2;
    context.culprits.push_back(host_entity(context.fabric, t.host));
  }
  return {};
}

Status inject_ib_congestion(FaultContext& context) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  const double cleared = counters_just_cleared(fabric, rng);
  Nic& victim = fabric.hosts[context.target.host].nics[context.target.nic];
  // The root: the leaf port facing the receiver waits for credits several percent of the time.
  Switch& leaf = fabric.switches[victim.leaf];
  Port& root = leaf.ports[victim.port];
  root.ib_wait_share = root_wait_share(fabric, root, cleared, rng);
  // The receiver moves half what it did; the collective it serves slows everyone a little.
  scale_traffic(victim, rng.uniform(0.4, 0.55));
  victim.perf_bw_factor *= 0.5;
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      if (&nic != &victim) {
        scale_traffic(nic, rng.uniform(0.82, 0.9));
      }
    }
  }
  // Victims: the spine ports sending down to that leaf, the other leaves' up-ports, the HCAs
  // under the same leaf sending toward it.
  for (std::size_t s = 0; s < fabric.switches.size(); ++s) {
    for (Port& port : fabric.switches[s].ports) {
      if (port.kind == PortKind::SpineDownlink && port.peer_switch == victim.leaf) {
        port.ib_wait_share = rng.uniform(0.008, 0.02);
      } else if (port.kind == PortKind::Uplink && s != victim.leaf) {
        port.ib_wait_share = rng.uniform(0.004, 0.012);
      }
    }
  }
  for (const std::size_t h : leaf.hosts) {
    for (Nic& nic : fabric.hosts[h].nics) {
      if (&nic != &victim) {
        nic.ib_wait_share = rng.uniform(0.004, 0.01);
      }
    }
  }
  return {};
}

namespace {

// OpenSM died; HCAs that came up since (a reboot, a reseated cable) wait in Initialize.
void no_sm(FaultContext& context, const std::string& sm_node, std::size_t hcas) {
  Fabric& fabric = context.fabric;
  fabric.managers.clear();
  context.culprits = {sm_node};
  for (const auto& [h, n] : pick_hcas(fabric, std::max<std::size_t>(1, hcas / 8), context.rng)) {
    set_hca_state(fabric, h, n, IbState::Init);
    fabric.hosts[h].nics[n].sm_lid = 0;
    context.culprits.push_back(nic_entity(fabric, h, n));
  }
}

// opensm started on a compute node by mistake, at the same priority: both claim the subnet and
// part of the HCAs follow the second one.
void two_masters(FaultContext& context, const std::string& sm_node) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  const auto picked = pick_hcas(fabric, 1, rng).front();
  const std::size_t h = picked.first;
  const std::size_t n = picked.second;
  SubnetManager second;
  second.host = h;
  second.nic = n;
  second.guid = fabric.hosts[h].nics[n].node_guid;
  second.lid = fabric.hosts[h].nics[n].lid;
  second.priority = fabric.managers.front().priority;
  second.activity = 100 + rng.below(5000);
  fabric.managers.push_back(second);
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      if (rng.chance(0.4)) {
        nic.sm_lid = second.lid;
      }
    }
  }
  context.culprits = {nic_entity(fabric, h, n), host_entity(fabric, h), sm_node};
}

// The SM runs but left some ports short of Active: Armed (LID given) or Initialize (none).
void stuck_ports(FaultContext& context, const std::string& sm_node) {
  Fabric& fabric = context.fabric;
  Rng& rng = context.rng;
  for (const auto& [h, n] : pick_hcas(fabric, 1 + rng.below(3), rng)) {
    set_hca_state(fabric, h, n, rng.chance(0.5) ? IbState::Armed : IbState::Init);
    context.culprits.push_back(nic_entity(fabric, h, n));
  }
  context.culprits.push_back(sm_node);
}

}  // namespace

Status prepare_subnet_manager(FaultContext& context) {
  Fabric& fabric = context.fabric;
  if (!context.requested.empty() && context.requested != "fabric") {
    return make_error(ErrorCode::InvalidArgument,
                      "subnet-manager is subnet-wide: give no place (or @fabric)",
                      context.requested);
  }
  ND_TRY(pick_variant(context, {"no-sm", "two-masters", "stuck-ports"}));
  const std::string sm_node = switch_entity(fabric, fabric.managers.front().sw);
  std::size_t hcas = 0;
  for (const Host& host : fabric.hosts) {
    hcas += host.nics.size();
  }
  if (context.variant == "no-sm") {
    no_sm(context, sm_node, hcas);
  } else if (context.variant == "two-masters") {
    two_masters(context, sm_node);
  } else {
    stuck_ports(context, sm_node);
  }
  return {};
}

Status inject_subnet_manager(FaultContext& context) {
  for (Host& host : context.fabric.hosts) {
    for (Nic& nic : host.nics) {
      if (nic.ib_state != IbState::Active) {
        silence(nic);
      }
    }
  }
  return {};
}

}  // namespace netdoctor::sim
