#include "sim/traffic.h"

#include <algorithm>

namespace netdoctor::sim {
namespace {

constexpr double k_max_utilization = 0.97;

void scale_direction(Nic& nic, bool tx, double factor) {
  const NicRate bytes[] = {tx ? NicRate::TxRdmaBytes : NicRate::RxRdmaBytes,
                           tx ? NicRate::TxOtherBytes : NicRate::RxOtherBytes,
                           tx ? NicRate::TxOtherRoceBytes : NicRate::RxOtherRoceBytes,
                           tx ? NicRate::TxRdmaPackets : NicRate::RxRdmaPackets,
                           tx ? NicRate::TxOtherPackets : NicRate::RxOtherPackets,
                           tx ? NicRate::TxOtherRocePackets : NicRate::RxOtherRocePackets};
  for (const NicRate rate : bytes) {
    nic.rates.scale(rate, factor);
  }
}

double nic_tx_packets(const Nic& nic) {
  return nic.rates[NicRate::TxRdmaPackets] + nic.rates[NicRate::TxOtherPackets] +
         nic.rates[NicRate::TxOtherRocePackets];
}
double nic_rx_packets(const Nic& nic) {
  return nic.rates[NicRate::RxRdmaPackets] + nic.rates[NicRate::RxOtherPackets] +
         nic.rates[NicRate::RxOtherRocePackets];
}

void fill_host_port(const Nic& nic, Port& port) {
  port.rates[PortRate::RxBytes] = nic_tx_bytes(nic);
  port.rates[PortRate::RxPackets] = nic_tx_packets(nic);
  port.rates[PortRate::TxBytes] = nic_rx_bytes(nic);
  port.rates[PortRate::TxPackets] = nic_rx_packets(nic);
  port.rates[PortRate::TxRoceBytes] =
      nic.rates[NicRate::RxRdmaBytes] + nic.rates[NicRate::RxOtherRoceBytes];
  port.rates[PortRate::TxRocePackets] =
      nic.rates[NicRate::RxRdmaPackets] + nic.rates[NicRate::RxOtherRocePackets];
  port.rates[PortRate::PfcRx] = nic.rates[NicRate::TxPause];
  port.rates[PortRate::PfcTx] = nic.rates[NicRate::RxPause];
}

struct LeafTotals {
  double rx_bytes = 0;  // from hosts
  double rx_packets = 0;
  double tx_bytes = 0;  // to hosts
  double tx_packets = 0;
  double tx_roce = 0;
};

LeafTotals leaf_totals(const Switch& leaf) {
  LeafTotals totals;
  for (const Port& port : leaf.ports) {
    if (port.kind == PortKind::HostFacing) {
      totals.rx_bytes += port.rates[PortRate::RxBytes];
      totals.rx_packets += port.rates[PortRate::RxPackets];
      totals.tx_bytes += port.rates[PortRate::TxBytes];
      totals.tx_packets += port.rates[PortRate::TxPackets];
      totals.tx_roce += port.rates[PortRate::TxRoceBytes];
    }
  }
  return totals;
}

// The share of the leaf's cross traffic the hottest uplink can carry decides how much the
// leaf's hosts can push across: 1 when everything fits.
double uplink_headroom(const Switch& leaf, double demand) {
  double weight_sum = 0;
  for (const Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink) {
      weight_sum += port.ecmp_weight;
    }
  }
  if (weight_sum <= 0 || demand <= 0) {
    return 1.0;
  }
  double headroom = 1.0;
  for (const Port& port : leaf.ports) {
    if (port.kind == PortKind::Uplink && port.ecmp_weight > 0) {
      const double share = demand * port.ecmp_weight / weight_sum;
      headroom = std::min(headroom, k_max_utilization * line_rate_bytes(port.speed_gbps) / share);
    }
  }
  return headroom;
}

}  // namespace

double roce_packet_bytes(int active_mtu) {
  // Most RoCE packets of a large transfer are full; headers: Ethernet, IPv4, UDP, BTH, RETH,
  // ICRC, FCS.
  return static_cast<double>(active_mtu) * 0.94 + 74.0;
}

double nic_tx_bytes(const Nic& nic) {
  return nic.rates[NicRate::TxRdmaBytes] + nic.rates[NicRate::TxOtherBytes] +
         nic.rates[NicRate::TxOtherRoceBytes];
}
double nic_rx_bytes(const Nic& nic) {
  return nic.rates[NicRate::RxRdmaBytes] + nic.rates[NicRate::RxOtherBytes] +
         nic.rates[NicRate::RxOtherRoceBytes];
}

void set_nic_utilization(Nic& nic, double utilization) {
  const double target = utilization * line_rate_bytes(nic.speed_gbps);
  const double tx = nic_tx_bytes(nic);
  const double rx = nic_rx_bytes(nic);
  if (tx > 0) {
    scale_direction(nic, true, target / tx);
  }
  if (rx > 0) {
    scale_direction(nic, false, target / rx);
  }
}

void seed_base_rates(Fabric& fabric, Rng& rng) {
  for (Host& host : fabric.hosts) {
    const double host_load = rng.jitter(0.05);
    for (Nic& nic : host.nics) {
      NicRates& r = nic.rates;
      const double line = line_rate_bytes(nic.speed_gbps);
      const double util = std::clamp(fabric.utilization * host_load * rng.jitter(0.06), 0.02, 0.9);
      const double rdma_packet = roce_packet_bytes(nic.active_mtu);
      for (const bool tx : {true, false}) {
        const double total = util * line * rng.jitter(0.02);
        const double other = total * rng.uniform(0.008, 0.02);
        const double other_packet = rng.uniform(700.0, 1100.0);
        r[tx ? NicRate::TxRdmaBytes : NicRate::RxRdmaBytes] = total - other;
        r[tx ? NicRate::TxRdmaPackets : NicRate::RxRdmaPackets] = (total - other) / rdma_packet;
        r[tx ? NicRate::TxOtherBytes : NicRate::RxOtherBytes] = other;
        r[tx ? NicRate::TxOtherPackets : NicRate::RxOtherPackets] = other / other_packet;
      }
      r[NicRate::TxPause] = rng.uniform(5.0, 60.0);
      r[NicRate::RxPause] = rng.uniform(20.0, 200.0);
      r[NicRate::TxPauseMicros] = r[NicRate::TxPause] * rng.uniform(2.0, 4.0);
      r[NicRate::RxPauseMicros] = r[NicRate::RxPause] * rng.uniform(2.0, 4.0);
      r[NicRate::EcnMarked] = r[NicRate::RxRdmaPackets] * rng.uniform(2e-5, 1e-4);
      r[NicRate::CnpSent] = r[NicRate::EcnMarked] * rng.uniform(0.93, 0.99);
      r[NicRate::CnpHandled] = r[NicRate::TxRdmaPackets] * rng.uniform(2e-5, 1e-4);
      r[NicRate::RxDiscardsPhy] = rng.uniform(0.0, 0.002);
      r[NicRate::RxOutOfBuffer] = rng.uniform(0.0, 0.01);
      r[NicRate::OutOfSequence] = rng.uniform(0.0, 0.004);
      r[NicRate::PacketSeqErr] = rng.uniform(0.0, 0.002);
      r[NicRate::DuplicateRequest] = rng.uniform(0.0, 0.002);
      r[NicRate::SymbolErrors] = rng.uniform(0.0, 2e-5);
      r[NicRate::CrcErrors] = rng.uniform(0.0, 1e-5);
      r[NicRate::CorrectedBits] = rng.uniform(5.0, 200.0);
    }
  }
  for (Switch& sw : fabric.switches) {
    for (Port& port : sw.ports) {
      port.rates[PortRate::RxErrors] = rng.uniform(0.0, 2e-5);
      port.rates[PortRate::RxDrops] = rng.uniform(0.0, 5e-4);
      port.rates[PortRate::OtherQueueDrops] = rng.uniform(0.0, 1e-3);
      if (port.kind != PortKind::HostFacing) {
        port.rates[PortRate::PfcRx] = rng.uniform(10.0, 100.0);
        port.rates[PortRate::PfcTx] = rng.uniform(10.0, 100.0);
      }
    }
  }
}

void snapshot_history(Fabric& fabric, Rng& rng) {
  for (Host& host : fabric.hosts) {
    const double share = rng.uniform(0.5, 0.9);
    for (Nic& nic : host.nics) {
      nic.history = nic.rates;
      for (std::size_t i = 0; i < static_cast<std::size_t>(NicRate::Count); ++i) {
        const auto rate = static_cast<NicRate>(i);
        if (is_traffic(rate)) {
          nic.history.scale(rate, share);
        }
      }
      nic.history[NicRate::LinkDowns] = static_cast<double>(1 + rng.below(2)) / host.uptime_s;
    }
  }
  for (Switch& sw : fabric.switches) {
    const double share = rng.uniform(0.5, 0.9);
    for (Port& port : sw.ports) {
      port.history = port.rates;
      for (std::size_t i = 0; i < static_cast<std::size_t>(PortRate::Count); ++i) {
        const auto rate = static_cast<PortRate>(i);
        if (is_traffic(rate)) {
          port.history.scale(rate, share);
        }
      }
      port.history[PortRate::LinkDowns] = static_cast<double>(1 + rng.below(2)) / sw.uptime_s;
    }
  }
}

void derive_links(Fabric& fabric) {
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      const double line = k_max_utilization * line_rate_bytes(nic.speed_gbps);
      if (nic_tx_bytes(nic) > line) {
        scale_direction(nic, true, line / nic_tx_bytes(nic));
      }
      if (nic_rx_bytes(nic) > line) {
        scale_direction(nic, false, line / nic_rx_bytes(nic));
      }
    }
  }
  for (std::size_t l = 0; l < fabric.leaf_count; ++l) {
    Switch& leaf = fabric.switches[l];
    for (Port& port : leaf.ports) {
      if (port.kind == PortKind::HostFacing) {
        fill_host_port(fabric.hosts[port.peer_host].nics[port.peer_nic], port);
      }
    }
    LeafTotals totals = leaf_totals(leaf);
    // Hosts behind saturated uplinks are throttled (PFC and DCQCN at work): their cross-leaf
    // share shrinks until the hottest uplink just fits.
    const double headroom = std::min(uplink_headroom(leaf, leaf.cross_fraction * totals.rx_bytes),
                                     uplink_headroom(leaf, leaf.cross_fraction * totals.tx_bytes));
    if (headroom < 1.0) {
      const double factor = 1.0 - leaf.cross_fraction + leaf.cross_fraction * headroom;
      for (const std::size_t h : leaf.hosts) {
        for (Nic& nic : fabric.hosts[h].nics) {
          scale_direction(nic, true, factor);
          scale_direction(nic, false, factor);
          fill_host_port(nic, leaf.ports[nic.port]);
        }
      }
      totals = leaf_totals(leaf);
    }
    double weight_sum = 0;
    for (const Port& port : leaf.ports) {
      if (port.kind == PortKind::Uplink) {
        weight_sum += port.ecmp_weight;
      }
    }
    const double up_packet = totals.rx_packets > 0 ? totals.rx_bytes / totals.rx_packets : 1500.0;
    const double down_packet = totals.tx_packets > 0 ? totals.tx_bytes / totals.tx_packets : 1500.0;
    const double roce_share = totals.tx_bytes > 0 ? totals.tx_roce / totals.tx_bytes : 0.98;
    for (Port& port : leaf.ports) {
      if (port.kind != PortKind::Uplink || weight_sum <= 0) {
        continue;
      }
      const double share = port.ecmp_weight / weight_sum;
      const double cap = k_max_utilization * line_rate_bytes(port.speed_gbps);
      port.rates[PortRate::TxBytes] = std::min(cap, leaf.cross_fraction * totals.rx_bytes * share);
      port.rates[PortRate::TxPackets] = port.rates[PortRate::TxBytes] / up_packet;
      port.rates[PortRate::TxRoceBytes] = port.rates[PortRate::TxBytes] * roce_share;
      port.rates[PortRate::TxRocePackets] = port.rates[PortRate::TxPackets] * roce_share;
      port.rates[PortRate::RxBytes] = std::min(cap, leaf.cross_fraction * totals.tx_bytes * share);
      port.rates[PortRate::RxPackets] = port.rates[PortRate::RxBytes] / down_packet;
      Port& far = fabric.switches[port.peer_switch].ports[port.peer_port];
      far.rates[PortRate::RxBytes] = port.rates[PortRate::TxBytes];
      far.rates[PortRate::RxPackets] = port.rates[PortRate::TxPackets];
      far.rates[PortRate::TxBytes] = port.rates[PortRate::RxBytes];
      far.rates[PortRate::TxPackets] = port.rates[PortRate::RxPackets];
      far.rates[PortRate::TxRoceBytes] = port.rates[PortRate::RxBytes] * roce_share;
      far.rates[PortRate::TxRocePackets] = port.rates[PortRate::RxPackets] * roce_share;
      far.rates[PortRate::PfcRx] = port.rates[PortRate::PfcTx];
      far.rates[PortRate::PfcTx] = port.rates[PortRate::PfcRx];
    }
  }
}

}  // namespace netdoctor::sim
