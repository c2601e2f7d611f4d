#include <fmt/format.h>

#include "sim/rng.h"
#include "sim/traffic.h"
#include "sim/writers/host_writers.h"
#include "sim/writers/nic_totals.h"

namespace netdoctor::sim {
namespace {

constexpr std::size_t k_channels = 8;

class StatsText {
 public:
  explicit StatsText(const char* indent) : m_indent(indent) {
    fmt::format_to(std::back_inserter(m_out), "NIC statistics:\n");
  }
  void add(std::string_view name, std::uint64_t value) {
    fmt::format_to(std::back_inserter(m_out), "{}{}: {}\n", m_indent, name, value);
  }
  std::string text() const { return fmt::to_string(m_out); }

 private:
  const char* m_indent;
  fmt::memory_buffer m_out;
};

// Packet-size histogram of the received frames: RDMA at its mean wire size, kernel traffic
// split between ACK-sized and MTU-sized frames, storage on the RoCE priority in jumbo frames.
struct SizeBins {
  std::uint64_t bins[10] = {};  // 64, 65-127, 128-255, 256-511, 512-1023, 1024-1518,
                                // 1519-2047, 2048-4095, 4096-8191, 8192-10239
};

std::size_t bin_of(double size) {
  const double edges[] = {64, 127, 255, 511, 1023, 1518, 2047, 4095, 8191};
  for (std::size_t i = 0; i < 9; ++i) {
    if (size <= edges[i]) {
      return i;
    }
  }
  return 9;
}

SizeBins size_bins(const Nic& nic, const NicSnapshot& s) {
  SizeBins b;
  const double rdma_size = nic.rates[NicRate::RxRdmaPackets] > 0
                               ? nic.rates[NicRate::RxRdmaBytes] / nic.rates[NicRate::RxRdmaPackets]
                               : roce_packet_bytes(nic.active_mtu);
  b.bins[bin_of(rdma_size)] += s[NicRate::RxRdmaPackets];
  const std::uint64_t other = s[NicRate::RxOtherPackets];
  b.bins[1] += other * 2 / 5;
  b.bins[bin_of(std::min(nic.mtu, 9000))] += other - other * 2 / 5;
  b.bins[bin_of(7000)] += s[NicRate::RxOtherRocePackets];
  return b;
}

std::uint64_t noise(const Nic& nic, std::string_view name, std::size_t sample, int magnitude) {
  const auto base = hash_u64(nic.node_guid, name, 0) % static_cast<std::uint64_t>(magnitude);
  const auto step = hash_u64(nic.node_guid, name, 1) % 50;
  return base + step * sample;
}

std::string mlx5_stats(const Fabric& fabric, const Nic& nic, const NicSnapshot& s,
                       std::size_t sample) {
  const NicTotals t = nic_totals(s);
  const auto p = static_cast<std::size_t>(fabric.roce_priority);
  StatsText out("     ");
  out.add("rx_packets", t.rx_kernel_packets);
  out.add("rx_bytes", t.rx_kernel_bytes);
  out.add("tx_packets", t.tx_kernel_packets);
  out.add("tx_bytes", t.tx_kernel_bytes);
  for (const char* name :
       {"tx_tso_packets", "tx_tso_bytes", "tx_tso_inner_packets", "tx_tso_inner_bytes",
        "tx_added_vlan_packets", "tx_nop", "rx_lro_packets", "rx_lro_bytes"}) {
    out.add(name, noise(nic, name, sample, 1000));
  }
  out.add("rx_ecn_mark", s[NicRate::EcnMarked]);
  for (const char* name :
       {"rx_removed_vlan_packets", "rx_csum_unnecessary", "rx_csum_none", "rx_csum_complete",
        "rx_csum_unnecessary_inner", "rx_xdp_drop", "rx_xdp_redirect", "tx_csum_none",
        "tx_csum_partial", "tx_csum_partial_inner", "tx_queue_stopped", "tx_queue_dropped",
        "tx_xmit_more", "tx_recover", "tx_cqes", "tx_queue_wake"}) {
    out.add(name, noise(nic, name, sample, 1000));
  }
  out.add("tx_cqe_err", 0);
  out.add("rx_wqe_err", 0);
  out.add("rx_mpwqe_filler_cqes", noise(nic, "rx_mpwqe_filler_cqes", sample, 1000));
  out.add("rx_buff_alloc_err", 0);
  for (const char* name : {"rx_cqe_compress_blks", "rx_cqe_compress_pkts", "rx_congst_umr"}) {
    out.add(name, noise(nic, name, sample, 1000));
  }
  out.add("rx_arfs_err", 0);
  for (const char* name : {"ch_events", "ch_poll", "ch_arm", "ch_aff_change", "ch_eq_rearm"}) {
    out.add(name, noise(nic, name, sample, 1000));
  }
  out.add("rx_out_of_buffer", s[NicRate::RxOutOfBuffer]);
  out.add("rx_if_down_packets", 0);
  out.add("rx_steer_missed_packets", 0);
  out.add("rx_vport_unicast_packets", t.rx_kernel_packets);
  out.add("rx_vport_unicast_bytes", t.rx_kernel_bytes);
  out.add("tx_vport_unicast_packets", t.tx_kernel_packets);
  out.add("tx_vport_unicast_bytes", t.tx_kernel_bytes);
  for (const char* name :
       {"rx_vport_multicast_packets", "rx_vport_multicast_bytes", "tx_vport_multicast_packets",
        "tx_vport_multicast_bytes", "rx_vport_broadcast_packets", "rx_vport_broadcast_bytes",
        "tx_vport_broadcast_packets", "tx_vport_broadcast_bytes"}) {
    out.add(name, noise(nic, name, sample, 5000));
  }
  out.add("rx_vport_rdma_unicast_packets", s[NicRate::RxRdmaPackets]);
  out.add("rx_vport_rdma_unicast_bytes", s[NicRate::RxRdmaBytes]);
  out.add("tx_vport_rdma_unicast_packets", s[NicRate::TxRdmaPackets]);
  out.add("tx_vport_rdma_unicast_bytes", s[NicRate::TxRdmaBytes]);
  out.add("rx_vport_rdma_multicast_packets", 0);
  out.add("rx_vport_rdma_multicast_bytes", 0);
  out.add("tx_vport_rdma_multicast_packets", 0);
  out.add("tx_vport_rdma_multicast_bytes", 0);
  out.add("tx_packets_phy", t.tx_packets);
  out.add("rx_packets_phy", t.rx_packets);
  out.add("rx_crc_errors_phy", s[NicRate::CrcErrors]);
  out.add("tx_bytes_phy", t.tx_bytes);
  out.add("rx_bytes_phy", t.rx_bytes);
  out.add("tx_multicast_phy", noise(nic, "tx_multicast_phy", sample, 2000));
  out.add("tx_broadcast_phy", noise(nic, "tx_broadcast_phy", sample, 20));
  out.add("rx_multicast_phy", noise(nic, "rx_multicast_phy", sample, 4000));
  out.add("rx_broadcast_phy", noise(nic, "rx_broadcast_phy", sample, 20));
  out.add("rx_in_range_len_errors_phy", 0);
  out.add("rx_out_of_range_len_phy", s[NicRate::OversizePackets]);
  out.add("rx_oversize_pkts_phy", s[NicRate::OversizePackets]);
  out.add("rx_symbol_err_phy", s[NicRate::SymbolErrors]);
  out.add("tx_mac_control_phy", s[NicRate::TxPause]);
  out.add("rx_mac_control_phy", s[NicRate::RxPause]);
  out.add("rx_unsupported_op_phy", 0);
  out.add("rx_pause_ctrl_phy", s[NicRate::RxPause]);
  out.add("tx_pause_ctrl_phy", s[NicRate::TxPause]);
  out.add("rx_discards_phy", s[NicRate::RxDiscardsPhy]);
  out.add("tx_discards_phy", 0);
  out.add("tx_errors_phy", 0);
  out.add("rx_undersize_pkts_phy", 0);
  out.add("rx_fragments_phy", 0);
  out.add("rx_jabbers_phy", 0);
  const SizeBins bins = size_bins(nic, s);
  const char* const bin_names[] = {"rx_64_bytes_phy",           "rx_65_to_127_bytes_phy",
                                   "rx_128_to_255_bytes_phy",   "rx_256_to_511_bytes_phy",
                                   "rx_512_to_1023_bytes_phy",  "rx_1024_to_1518_bytes_phy",
                                   "rx_1519_to_2047_bytes_phy", "rx_2048_to_4095_bytes_phy",
                                   "rx_4096_to_8191_bytes_phy", "rx_8192_to_10239_bytes_phy"};
  for (std::size_t i = 0; i < 10; ++i) {
    out.add(bin_names[i], bins.bins[i]);
  }
  out.add("link_down_events_phy", s[NicRate::LinkDowns]);
  out.add("rx_pcs_symbol_err_phy", s[NicRate::SymbolErrors]);
  out.add("rx_corrected_bits_phy", s[NicRate::CorrectedBits]);
  for (int lane = 0; lane < 4; ++lane) {
    out.add(
        fmt::format("rx_err_lane_{}_phy", lane),
        lane < nic.lanes ? s[NicRate::CorrectedBits] / static_cast<std::uint64_t>(nic.lanes) : 0);
  }
  out.add("rx_buffer_passed_thres_phy", s[NicRate::RxDiscardsPhy] / 2);
  for (const char* name : {"rx_pci_signal_integrity", "tx_pci_signal_integrity",
                           "outbound_pci_stalled_rd", "outbound_pci_stalled_wr",
                           "outbound_pci_stalled_rd_events", "outbound_pci_stalled_wr_events"}) {
    out.add(name, 0);
  }
  for (std::size_t prio = 0; prio < 8; ++prio) {
    std::uint64_t rx_b = 0, rx_p = 0, tx_b = 0, tx_p = 0, disc = 0;
    if (prio == 0) {
      rx_b = s[NicRate::RxOtherBytes];
      rx_p = s[NicRate::RxOtherPackets];
      tx_b = s[NicRate::TxOtherBytes];
      tx_p = s[NicRate::TxOtherPackets];
    } else if (prio == p) {
      rx_b = t.rx_roce_prio_bytes;
      rx_p = t.rx_roce_prio_packets;
      tx_b = t.tx_roce_prio_bytes;
      tx_p = t.tx_roce_prio_packets;
      disc = s[NicRate::RxRoceDiscards];
    }
    out.add(fmt::format("rx_prio{}_bytes", prio), rx_b);
    out.add(fmt::format("rx_prio{}_packets", prio), rx_p);
    out.add(fmt::format("rx_prio{}_discards", prio), disc);
    out.add(fmt::format("tx_prio{}_bytes", prio), tx_b);
    out.add(fmt::format("tx_prio{}_packets", prio), tx_p);
  }
  for (std::size_t prio = 0; prio < 8; ++prio) {
    const bool roce = prio == p;
    out.add(fmt::format("rx_prio{}_pause", prio), roce ? s[NicRate::RxPause] : 0);
    out.add(fmt::format("rx_prio{}_pause_duration", prio), roce ? s[NicRate::RxPauseMicros] : 0);
    out.add(fmt::format("tx_prio{}_pause", prio), roce ? s[NicRate::TxPause] : 0);
    out.add(fmt::format("tx_prio{}_pause_duration", prio), roce ? s[NicRate::TxPauseMicros] : 0);
    out.add(fmt::format("rx_prio{}_pause_transition", prio), roce ? s[NicRate::RxPause] / 2 : 0);
  }
  out.add("tx_pause_storm_warning_events", s[NicRate::PauseStormWarnings]);
  out.add("tx_pause_storm_error_events", s[NicRate::PauseStormErrors]);
  for (const char* name :
       {"module_unplug", "module_bus_stuck", "module_high_temp", "module_bad_shorted"}) {
    out.add(name, 0);
  }
  for (std::size_t ch = 0; ch < k_channels; ++ch) {
    const std::uint64_t packets = t.rx_kernel_packets / k_channels;
    out.add(fmt::format("rx{}_packets", ch), packets);
    out.add(fmt::format("rx{}_bytes", ch), t.rx_kernel_bytes / k_channels);
    out.add(fmt::format("rx{}_csum_complete", ch), packets);
    for (const char* name : {"csum_unnecessary", "xdp_drop", "wqe_err", "mpwqe_filler_cqes",
                             "buff_alloc_err", "cqe_compress_blks", "congst_umr"}) {
      out.add(fmt::format("rx{}_{}", ch, name), 0);
    }
  }
  for (std::size_t ch = 0; ch < k_channels; ++ch) {
    const std::uint64_t packets = t.tx_kernel_packets / k_channels;
    out.add(fmt::format("tx{}_packets", ch), packets);
    out.add(fmt::format("tx{}_bytes", ch), t.tx_kernel_bytes / k_channels);
    for (const char* name :
         {"tso_packets", "csum_partial", "nop", "stopped", "dropped", "xmit_more", "recover"}) {
      out.add(fmt::format("tx{}_{}", ch, name), 0);
    }
    out.add(fmt::format("tx{}_cqes", ch), packets / 8);
    out.add(fmt::format("tx{}_wake", ch), 0);
    out.add(fmt::format("tx{}_cqe_err", ch), 0);
  }
  return out.text();
}

std::string bnxt_stats(const Fabric& fabric, const Nic& nic, const NicSnapshot& s,
                       std::size_t sample) {
  const NicTotals t = nic_totals(s);
  const auto p = static_cast<std::size_t>(fabric.roce_priority);
  StatsText out("\t\t");
  // Per-ring software counters: kernel traffic only, spread over the rings.
  for (std::size_t ring = 0; ring < k_channels; ++ring) {
    const auto add = [&](std::string_view name, std::uint64_t value) {
      out.add(fmt::format("[{}]: {}", ring, name), value);
    };
    add("rx_ucast_packets", t.rx_kernel_packets / k_channels);
    add("rx_mcast_packets", ring == 0 ? noise(nic, "rx_mcast_packets", sample, 3000) : 0);
    add("rx_bcast_packets", ring == 0 ? noise(nic, "rx_bcast_packets", sample, 300) : 0);
    add("rx_discards", 0);
    add("rx_errors", 0);
    add("rx_ucast_bytes", t.rx_kernel_bytes / k_channels);
    add("rx_mcast_bytes", 0);
    add("rx_bcast_bytes", 0);
    add("tx_ucast_packets", t.tx_kernel_packets / k_channels);
    add("tx_mcast_packets", 0);
    add("tx_bcast_packets", 0);
    add("tx_errors", 0);
    add("tx_discards", 0);
    add("tx_ucast_bytes", t.tx_kernel_bytes / k_channels);
    add("tx_mcast_bytes", 0);
    add("tx_bcast_bytes", 0);
    add("tpa_packets", t.rx_kernel_packets / k_channels / 6);
    add("tpa_bytes", t.rx_kernel_bytes / k_channels / 3);
    add("tpa_events", t.rx_kernel_packets / k_channels / 14);
    add("tpa_aborts", t.rx_kernel_packets / k_channels / 30);
    add("rx_l4_csum_errors", 0);
    add("rx_resets", 0);
    add("rx_buf_errors", 0);
    add("missed_irqs", 0);
  }
  out.add("rx_total_discard_pkts", s[NicRate::RxOutOfBuffer]);
  out.add("tx_total_discard_pkts", 0);
  out.add("rx_total_netpoll_discards", 0);
  const SizeBins bins = size_bins(nic, s);
  out.add("rx_64b_frames", bins.bins[0]);
  out.add("rx_65b_127b_frames", bins.bins[1]);
  out.add("rx_128b_255b_frames", bins.bins[2]);
  out.add("rx_256b_511b_frames", bins.bins[3]);
  out.add("rx_512b_1023b_frames", bins.bins[4]);
  out.add("rx_1024b_1518b_frames", bins.bins[5]);
  out.add("rx_good_vlan_frames", 0);
  out.add("rx_1519b_2047b_frames", bins.bins[6]);
  out.add("rx_2048b_4095b_frames", bins.bins[7]);
  out.add("rx_4096b_9216b_frames", bins.bins[8] + bins.bins[9]);
  out.add("rx_9217b_16383b_frames", 0);
  out.add("rx_total_frames", t.rx_packets);
  out.add("rx_ucast_frames", t.rx_packets);
  out.add("rx_mcast_frames", noise(nic, "rx_mcast_frames", sample, 3000));
  out.add("rx_bcast_frames", noise(nic, "rx_bcast_frames", sample, 300));
  out.add("rx_fcs_err_frames", s[NicRate::CrcErrors]);
  out.add("rx_ctrl_frames", 0);
  out.add("rx_pause_frames", 0);
  out.add("rx_pfc_frames", s[NicRate::RxPause]);
  out.add("rx_align_err_frames", 0);
  out.add("rx_ovrsz_frames", s[NicRate::OversizePackets]);
  out.add("rx_jbr_frames", 0);
  out.add("rx_mtu_err_frames", s[NicRate::OversizePackets]);
  out.add("rx_tagged_frames", 0);
  out.add("rx_double_tagged_frames", 0);
  out.add("rx_good_frames", t.rx_packets);
  for (std::size_t prio = 0; prio < 8; ++prio) {
    out.add(fmt::format("rx_pfc_ena_frames_pri{}", prio), prio == p ? s[NicRate::RxPause] : 0);
  }
  out.add("rx_undrsz_frames", 0);
  out.add("rx_eee_lpi_events", 0);
  out.add("rx_eee_lpi_duration", 0);
  out.add("rx_bytes", t.rx_bytes);
  out.add("rx_runt_bytes", 0);
  out.add("rx_runt_frames", 0);
  out.add("rx_stat_discard", s[NicRate::RxDiscardsPhy]);
  out.add("rx_stat_err", 0);
  out.add("tx_64b_frames", 0);
  out.add("tx_65b_127b_frames", s[NicRate::TxOtherPackets] * 2 / 5);
  out.add("tx_128b_255b_frames", 0);
  out.add("tx_256b_511b_frames", 0);
  out.add("tx_512b_1023b_frames", 0);
  out.add("tx_1024b_1518b_frames", 0);
  out.add("tx_good_vlan_frames", 0);
  out.add("tx_1519b_2047b_frames", 0);
  out.add("tx_2048b_4095b_frames", 0);
  out.add("tx_4096b_9216b_frames", t.tx_packets - s[NicRate::TxOtherPackets] * 2 / 5);
  out.add("tx_9217b_16383b_frames", 0);
  out.add("tx_good_frames", t.tx_packets);
  out.add("tx_total_frames", t.tx_packets);
  out.add("tx_ucast_frames", t.tx_packets);
  out.add("tx_mcast_frames", noise(nic, "tx_mcast_frames", sample, 3000));
  out.add("tx_bcast_frames", noise(nic, "tx_bcast_frames", sample, 10));
  out.add("tx_pause_frames", 0);
  out.add("tx_pfc_frames", s[NicRate::TxPause]);
  out.add("tx_jabber_frames", 0);
  out.add("tx_fcs_err_frames", 0);
  out.add("tx_err", 0);
  out.add("tx_fifo_underruns", 0);
  for (std::size_t prio = 0; prio < 8; ++prio) {
    out.add(fmt::format("tx_pfc_ena_frames_pri{}", prio), prio == p ? s[NicRate::TxPause] : 0);
  }
  out.add("tx_eee_lpi_events", 0);
  out.add("tx_eee_lpi_duration", 0);
  out.add("tx_total_collisions", 0);
  out.add("tx_bytes", t.tx_bytes);
  out.add("tx_xthol_frames", 0);
  out.add("tx_stat_discard", 0);
  out.add("tx_stat_error", 0);
  out.add("link_down_events", s[NicRate::LinkDowns]);
  out.add("continuous_pause_events", s[NicRate::PauseStormWarnings]);
  out.add("resume_pause_events", s[NicRate::PauseStormWarnings]);
  out.add("continuous_roce_pause_events", s[NicRate::PauseStormErrors]);
  out.add("resume_roce_pause_events", s[NicRate::PauseStormErrors]);
  // CoS queues: cos0 carries priority 0, the RoCE priority lands on the cos of the same number.
  const auto per_cos = [&](bool rx, std::size_t cos, bool bytes) -> std::uint64_t {
    if (cos == 0) {
      return rx ? (bytes ? s[NicRate::RxOtherBytes] : s[NicRate::RxOtherPackets])
                : (bytes ? s[NicRate::TxOtherBytes] : s[NicRate::TxOtherPackets]);
    }
    if (cos == p) {
      return rx ? (bytes ? t.rx_roce_prio_bytes : t.rx_roce_prio_packets)
                : (bytes ? t.tx_roce_prio_bytes : t.tx_roce_prio_packets);
    }
    return 0;
  };
  for (std::size_t cos = 0; cos < 8; ++cos) {
    out.add(fmt::format("rx_bytes_cos{}", cos), per_cos(true, cos, true));
    out.add(fmt::format("rx_packets_cos{}", cos), per_cos(true, cos, false));
  }
  for (std::size_t prio = 0; prio < 8; ++prio) {
    out.add(fmt::format("pfc_pri{}_rx_duration_us", prio),
            prio == p ? s[NicRate::RxPauseMicros] : 0);
    out.add(fmt::format("pfc_pri{}_rx_transitions", prio), prio == p ? s[NicRate::RxPause] / 2 : 0);
  }
  out.add("rx_bits", t.rx_bytes * 8);
  out.add("rx_buffer_passed_threshold", s[NicRate::RxDiscardsPhy] / 2);
  out.add("rx_pcs_symbol_err", s[NicRate::SymbolErrors]);
  out.add("rx_corrected_bits", s[NicRate::CorrectedBits]);
  for (std::size_t cos = 0; cos < 8; ++cos) {
    const std::uint64_t drops = cos == p ? s[NicRate::RxRoceDiscards] : 0;
    out.add(fmt::format("rx_discard_bytes_cos{}", cos), drops * 4000);
    out.add(fmt::format("rx_discard_packets_cos{}", cos), drops);
  }
  out.add("rx_fec_corrected_blocks", s[NicRate::CorrectedBits] / 3);
  out.add("rx_fec_uncorrectable_blocks", s[NicRate::FecUncorrectable]);
  for (std::size_t cos = 0; cos < 8; ++cos) {
    out.add(fmt::format("tx_bytes_cos{}", cos), per_cos(false, cos, true));
    out.add(fmt::format("tx_packets_cos{}", cos), per_cos(false, cos, false));
  }
  for (std::size_t prio = 0; prio < 8; ++prio) {
    out.add(fmt::format("pfc_pri{}_tx_duration_us", prio),
            prio == p ? s[NicRate::TxPauseMicros] : 0);
    out.add(fmt::format("pfc_pri{}_tx_transitions", prio), prio == p ? s[NicRate::TxPause] / 2 : 0);
  }
  for (const bool rx : {true, false}) {
    for (const bool bytes : {true, false}) {
      for (std::size_t prio = 0; prio < 8; ++prio) {
        out.add(fmt::format("{}_{}_pri{}", rx ? "rx" : "tx", bytes ? "bytes" : "packets", prio),
                per_cos(rx, prio, bytes));
      }
    }
  }
  return out.text();
}

}  // namespace

std::string ethtool_stats(const Fabric& fabric, const Nic& nic, const NicSnapshot& counters,
                          std::size_t sample) {
  return nic.vendor == Vendor::Bnxt ? bnxt_stats(fabric, nic, counters, sample)
                                    : mlx5_stats(fabric, nic, counters, sample);
}

}  // namespace netdoctor::sim
