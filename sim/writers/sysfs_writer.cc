#include <fmt/format.h>

#include "sim/nic_models.h"
#include "sim/writers/host_writers.h"
#include "sim/writers/nic_totals.h"

namespace netdoctor::sim {
namespace {

std::string rate_text(const Nic& nic) {
  return fmt::format("{} Gb/sec ({}X HDR)", nic.speed_gbps, nic.lanes);
}

}  // namespace

void sysfs_files(const Nic& nic, const Host& host, const NicSnapshot& s, const FileSink& emit) {
  const NicTotals t = nic_totals(s);
  const std::string ib = "sys/class/infiniband/" + nic.rdma_dev + "/";
  const std::string port = ib + "ports/1/";
  const auto num = [](std::uint64_t value) { return fmt::format("{}\n", value); };

  emit(ib + "fw_ver", fw_version_only(nic.fw) + "\n");
  emit(ib + "node_desc", host.name + " " + nic.rdma_dev + "\n");
  emit(port + "state", "4: ACTIVE\n");
  emit(port + "phys_state", "5: LinkUp\n");
  emit(port + "rate", rate_text(nic) + "\n");
  emit(port + "link_layer", "Ethernet\n");
  emit(ib + "device/net/" + nic.netdev + "/ifindex", num(static_cast<std::uint64_t>(nic.ifindex)));

  if (nic.vendor == Vendor::Mlx5) {
    // IB PMA counters; port_*_data counts 4-octet words.
    const std::string c = port + "counters/";
    const std::uint64_t symbol = s[NicRate::SymbolErrors];
    emit(c + "VL15_dropped", "0\n");
    emit(c + "excessive_buffer_overrun_errors", "0\n");
    emit(c + "link_downed", num(s[NicRate::LinkDowns]));
    emit(c + "link_error_recovery", num(s[NicRate::LinkDowns] / 2));
    emit(c + "local_link_integrity_errors", "0\n");
    emit(c + "multicast_rcv_packets", "0\n");
    emit(c + "multicast_xmit_packets", "0\n");
    emit(c + "port_rcv_constraint_errors", "0\n");
    emit(c + "port_rcv_data", num(t.rx_bytes / 4));
    emit(c + "port_rcv_errors", num(s[NicRate::CrcErrors] + s[NicRate::FecUncorrectable]));
    emit(c + "port_rcv_packets", num(t.rx_packets));
    emit(c + "port_rcv_remote_physical_errors", "0\n");
    emit(c + "port_rcv_switch_relay_errors", "0\n");
    emit(c + "port_xmit_constraint_errors", "0\n");
    emit(c + "port_xmit_data", num(t.tx_bytes / 4));
    emit(c + "port_xmit_discards", "0\n");
    emit(c + "port_xmit_packets", num(t.tx_packets));
    emit(c + "port_xmit_wait", num(s[NicRate::RxPauseMicros] * 4));
    emit(c + "symbol_error", num(symbol));
    emit(c + "unicast_rcv_packets", num(t.rx_packets));
    emit(c + "unicast_xmit_packets", num(t.tx_packets));

    const std::string h = port + "hw_counters/";
    emit(h + "duplicate_request", num(s[NicRate::DuplicateRequest]));
    emit(h + "implied_nak_seq_err", num(s[NicRate::ImpliedNakSeqErr]));
    emit(h + "lifespan", "10\n");
    emit(h + "local_ack_timeout_err", num(s[NicRate::LocalAckTimeout]));
    emit(h + "np_cnp_sent", num(s[NicRate::CnpSent]));
    emit(h + "np_ecn_marked_roce_packets", num(s[NicRate::EcnMarked]));
    emit(h + "out_of_buffer", num(s[NicRate::RdmaOutOfBuffer]));
    emit(h + "out_of_sequence", num(s[NicRate::OutOfSequence]));
    emit(h + "packet_seq_err", num(s[NicRate::PacketSeqErr]));
    emit(h + "req_cqe_error", "0\n");
    emit(h + "req_cqe_flush_error", "0\n");
    emit(h + "req_remote_access_errors", "0\n");
    emit(h + "req_remote_invalid_request", "0\n");
    emit(h + "resp_cqe_error", "0\n");
    emit(h + "resp_cqe_flush_error", "0\n");
    emit(h + "resp_local_length_error", "0\n");
    emit(h + "resp_remote_access_errors", "0\n");
    emit(h + "rnr_nak_retry_err", num(s[NicRate::RnrNakRetryErr]));
    emit(h + "roce_adp_retrans", "0\n");
    emit(h + "roce_adp_retrans_to", "0\n");
    emit(h + "roce_slow_restart", "0\n");
    emit(h + "roce_slow_restart_cnps", "0\n");
    emit(h + "roce_slow_restart_trans", "0\n");
    emit(h + "rp_cnp_handled", num(s[NicRate::CnpHandled]));
    emit(h + "rp_cnp_ignored", num(s[NicRate::CnpIgnored]));
    emit(h + "rx_atomic_requests", "0\n");
    emit(h + "rx_dct_connect", "0\n");
    emit(h + "rx_icrc_encapsulated", "0\n");
    emit(h + "rx_read_requests", num(s[NicRate::RxRdmaPackets] / 150));
    emit(h + "rx_write_requests", num(s[NicRate::RxRdmaPackets] / 16));
  } else {
    // bnxt_re: no IB PMA counters/ directory, its own hw_counters names.
    const std::string h = port + "hw_counters/";
    emit(h + "active_ahs", "0\n");
    emit(h + "active_cqs", "132\n");
    emit(h + "active_mrs", "260\n");
    emit(h + "active_mws", "0\n");
    emit(h + "active_pds", "9\n");
    emit(h + "active_qps", "130\n");
    emit(h + "active_srqs", "0\n");
    emit(h + "bad_resp_err", "0\n");
    emit(h + "dup_req", num(s[NicRate::DuplicateRequest]));
    emit(h + "local_protection_err", "0\n");
    emit(h + "local_qp_op_err", "0\n");
    emit(h + "max_retry_exceeded", "0\n");
    emit(h + "mem_mgmt_op_err", "0\n");
    emit(h + "missing_resp", num(s[NicRate::ImpliedNakSeqErr]));
    emit(h + "recoverable_errors", "0\n");
    emit(h + "remote_access_err", "0\n");
    emit(h + "remote_invalid_req_err", "0\n");
    emit(h + "remote_op_err", "0\n");
    emit(h + "res_exceed_max", "0\n");
    emit(h + "res_length_mismatch", "0\n");
    emit(h + "res_oos_drop_count", num(s[NicRate::OutOfSequence]));
    emit(h + "rnr_naks_rcvd", num(s[NicRate::RnrNakRetryErr]));
    emit(h + "rx_bytes", num(s[NicRate::RxRdmaBytes]));
    emit(h + "rx_cnp_pkts", num(s[NicRate::CnpHandled]));
    emit(h + "rx_ecn_marked_pkts", num(s[NicRate::EcnMarked]));
    emit(h + "rx_pkts", num(s[NicRate::RxRdmaPackets]));
    emit(h + "rx_roce_discards", num(s[NicRate::RdmaOutOfBuffer]));
    emit(h + "rx_roce_errors", "0\n");
    emit(h + "rx_roce_good_bytes", num(s[NicRate::RxRdmaBytes]));
    emit(h + "rx_roce_good_pkts", num(s[NicRate::RxRdmaPackets]));
    emit(h + "seq_err_naks_rcvd", num(s[NicRate::PacketSeqErr]));
    emit(h + "to_retransmits", num(s[NicRate::LocalAckTimeout]));
    emit(h + "tx_bytes", num(s[NicRate::TxRdmaBytes]));
    emit(h + "tx_cnp_pkts", num(s[NicRate::CnpSent]));
    emit(h + "tx_pkts", num(s[NicRate::TxRdmaPackets]));
    emit(h + "tx_roce_discards", "0\n");
    emit(h + "tx_roce_errors", "0\n");
    emit(h + "unrecoverable_err", "0\n");
  }

  const std::string net = "sys/class/net/" + nic.netdev + "/";
  emit(net + "mtu", fmt::format("{}\n", nic.mtu));
  emit(net + "operstate", "up\n");
  emit(net + "speed", fmt::format("{}\n", nic.speed_gbps * 1000));
  emit(net + "address", nic.mac + "\n");
  // The PCI device's link, as the kernel prints it: "16.0 GT/s PCIe", a lane count.
  const auto gts = [](double gt_s) { return fmt::format("{:.1f} GT/s PCIe\n", gt_s); };
  emit(net + "device/current_link_width", fmt::format("{}\n", nic.pcie_width));
  emit(net + "device/max_link_width", fmt::format("{}\n", nic.pcie_max_width));
  emit(net + "device/current_link_speed", gts(nic.pcie_gt_s));
  emit(net + "device/max_link_speed", gts(nic.pcie_max_gt_s));
  // The kernel's view: only traffic that went through the netdev (RDMA bypasses it).
  const std::string st = net + "statistics/";
  emit(st + "rx_bytes", num(t.rx_kernel_bytes));
  emit(st + "rx_crc_errors", num(s[NicRate::CrcErrors]));
  emit(st + "rx_dropped", num(s[NicRate::RxOutOfBuffer]));
  emit(st + "rx_errors", num(s[NicRate::CrcErrors] + s[NicRate::OversizePackets]));
  emit(st + "rx_packets", num(t.rx_kernel_packets));
  emit(st + "tx_bytes", num(t.tx_kernel_bytes));
  emit(st + "tx_errors", "0\n");
  emit(st + "tx_packets", num(t.tx_kernel_packets));
}

}  // namespace netdoctor::sim
