// An InfiniBand host's own view of its HCAs: sysfs under sys/class/infiniband and the IPoIB
// netdev, `ibstat` (shared/reference/ib/ibstat_cx6_hdr_sm_lid1.txt) and `rdma link show`.
#include <fmt/format.h>

#include <algorithm>

#include "sim/ib_shape.h"
#include "sim/nic_models.h"
#include "sim/writers/ib_writers.h"
#include "sim/writers/nic_totals.h"

namespace netdoctor::sim {
namespace {

struct StateText {
  const char* sysfs;   // "4: ACTIVE"
  const char* ibstat;  // "Active"
  const char* rdma;    // "ACTIVE"
};

StateText state_text(IbState state) {
  switch (state) {
    case IbState::Down:
      return {"1: DOWN", "Down", "DOWN"};
    case IbState::Init:
      return {"2: INIT", "Initializing", "INIT"};
    case IbState::Armed:
      return {"3: ARMED", "Armed", "ARMED"};
    case IbState::Active:
      break;
  }
  return {"4: ACTIVE", "Active", "ACTIVE"};
}

StateText phys_text(IbPhys phys) {
  switch (phys) {
    case IbPhys::Polling:
      return {"2: Polling", "Polling", "POLLING"};
    case IbPhys::Disabled:
      return {"3: Disabled", "Disabled", "DISABLED"};
    case IbPhys::LinkUp:
      break;
  }
  return {"5: LinkUp", "LinkUp", "LINK_UP"};
}

// The port's rate as the kernel prints it: "200 Gb/sec (4X HDR)"; a port that never trained
// reports the SDR floor.
std::string rate_text(const Nic& nic) {
  if (nic.ib_state == IbState::Down) {
    return "10 Gb/sec (4X SDR)";
  }
  const int lane = nic.speed_gbps / std::max(1, nic.lanes);
  return fmt::format("{} Gb/sec ({}X {})", nic.speed_gbps, nic.lanes, ib_speed_name(lane));
}

void emit_counters(const std::string& c, const NicSnapshot& s, const NicTotals& t,
                   const FileSink& emit) {
  const auto num = [](std::uint64_t value) { return fmt::format("{}\n", value); };
  emit(c + "VL15_dropped", "0\n");
  emit(c + "excessive_buffer_overrun_errors", "0\n");
  emit(c + "link_downed", num(s[NicRate::LinkDowns]));
  emit(c + "link_error_recovery", num(s[NicRate::LinkRecovers]));
  emit(c + "local_link_integrity_errors", "0\n");
  emit(c + "multicast_rcv_packets", num(t.rx_kernel_packets / 50));
  emit(c + "multicast_xmit_packets", num(t.tx_kernel_packets / 80));
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
  emit(c + "port_xmit_wait", num(s[NicRate::XmitWait]));
  emit(c + "symbol_error", num(s[NicRate::SymbolErrors]));
  emit(c + "unicast_rcv_packets", num(t.rx_packets - t.rx_kernel_packets / 50));
  emit(c + "unicast_xmit_packets", num(t.tx_packets - t.tx_kernel_packets / 80));
}

void emit_hw_counters(const std::string& h, const NicSnapshot& s, const FileSink& emit) {
  const auto num = [](std::uint64_t value) { return fmt::format("{}\n", value); };
  emit(h + "duplicate_request", num(s[NicRate::DuplicateRequest]));
  emit(h + "implied_nak_seq_err", num(s[NicRate::ImpliedNakSeqErr]));
  emit(h + "lifespan", "10\n");
  emit(h + "local_ack_timeout_err", num(s[NicRate::LocalAckTimeout]));
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
  emit(h + "rx_atomic_requests", "0\n");
  emit(h + "rx_dct_connect", "0\n");
  emit(h + "rx_read_requests", num(s[NicRate::RxRdmaPackets] / 150));
  emit(h + "rx_write_requests", num(s[NicRate::RxRdmaPackets] / 16));
}

void emit_netdev(const Nic& nic, const NicSnapshot& s, const NicTotals& t, const FileSink& emit) {
  const auto num = [](std::uint64_t value) { return fmt::format("{}\n", value); };
  const std::string net = "sys/class/net/" + nic.netdev + "/";
  const bool up = nic.ib_state == IbState::Active;
  emit(net + "mtu", fmt::format("{}\n", nic.mtu));
  emit(net + "operstate", up ? "up\n" : "down\n");
  emit(net + "speed", fmt::format("{}\n", up ? nic.speed_gbps * 1000 : -1));
  emit(net + "address", nic.mac + "\n");
  const auto gts = [](double gt_s) { return fmt::format("{:.1f} GT/s PCIe\n", gt_s); };
  emit(net + "device/current_link_width", fmt::format("{}\n", nic.pcie_width));
  emit(net + "device/max_link_width", fmt::format("{}\n", nic.pcie_max_width));
  emit(net + "device/current_link_speed", gts(nic.pcie_gt_s));
  emit(net + "device/max_link_speed", gts(nic.pcie_max_gt_s));
  const std::string st = net + "statistics/";
  emit(st + "rx_bytes", num(t.rx_kernel_bytes));
  emit(st + "rx_dropped", num(s[NicRate::RxOutOfBuffer]));
  emit(st + "rx_errors", "0\n");
  emit(st + "rx_packets", num(t.rx_kernel_packets));
  emit(st + "tx_bytes", num(t.tx_kernel_bytes));
  emit(st + "tx_errors", "0\n");
  emit(st + "tx_packets", num(t.tx_kernel_packets));
}

std::string guid_colons(std::uint64_t value) {
  return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}", value >> 48, (value >> 32) & 0xffff,
                     (value >> 16) & 0xffff, value & 0xffff);
}

}  // namespace

void ib_sysfs_files(const Nic& nic, const Host& host, const NicSnapshot& s, const FileSink& emit) {
  const NicTotals t = nic_totals(s);
  const std::string ib = "sys/class/infiniband/" + nic.rdma_dev + "/";
  const std::string port = ib + "ports/1/";
  emit(ib + "fw_ver", fw_version_only(nic.fw) + "\n");
  emit(ib + "node_desc", hca_description(host, nic) + "\n");
  emit(ib + "node_guid", guid_colons(nic.node_guid) + "\n");
  emit(ib + "sys_image_guid", guid_colons(nic.node_guid) + "\n");
  emit(ib + "hca_type", fmt::format("MT{}\n", nic.vendor_part_id));
  emit(ib + "board_id", nic.board_id + "\n");
  emit(port + "state", std::string(state_text(nic.ib_state).sysfs) + "\n");
  emit(port + "phys_state", std::string(phys_text(nic.ib_phys).sysfs) + "\n");
  emit(port + "rate", rate_text(nic) + "\n");
  emit(port + "link_layer", "InfiniBand\n");
  emit(port + "lid", fmt::format("0x{:x}\n", nic.lid));
  emit(port + "sm_lid", fmt::format("0x{:x}\n", nic.sm_lid));
  emit(port + "lid_mask_count", "0\n");
  emit(port + "sm_sl", "0\n");
  emit(port + "cap_mask", "0xa651e848\n");
  emit(ib + "device/net/" + nic.netdev + "/ifindex", fmt::format("{}\n", nic.ifindex));
  emit_counters(port + "counters/", s, t, emit);
  emit_hw_counters(port + "hw_counters/", s, emit);
  emit_netdev(nic, s, t, emit);
}

std::string ibstat(const Host& host) {
  fmt::memory_buffer out;
  auto o = std::back_inserter(out);
  for (const Nic& nic : host.nics) {
    const int rate = nic.ib_state == IbState::Down ? 10 : nic.speed_gbps;
    fmt::format_to(o, "CA '{}'\n", nic.rdma_dev);
    fmt::format_to(o, "\tCA type: MT{}\n", nic.vendor_part_id);
    fmt::format_to(o, "\tNumber of ports: 1\n");
    fmt::format_to(o, "\tFirmware version: {}\n", fw_version_only(nic.fw));
    fmt::format_to(o, "\tHardware version: 0\n");
    fmt::format_to(o, "\tNode GUID: 0x{:016x}\n", nic.node_guid);
    fmt::format_to(o, "\tSystem image GUID: 0x{:016x}\n", nic.node_guid);
    fmt::format_to(o, "\tPort 1:\n");
    fmt::format_to(o, "\t\tState: {}\n", state_text(nic.ib_state).ibstat);
    fmt::format_to(o, "\t\tPhysical state: {}\n", phys_text(nic.ib_phys).ibstat);
    fmt::format_to(o, "\t\tRate: {}\n", rate);
    fmt::format_to(o, "\t\tBase lid: {}\n", nic.lid);
    fmt::format_to(o, "\t\tLMC: 0\n");
    fmt::format_to(o, "\t\tSM lid: {}\n", nic.sm_lid);
    fmt::format_to(o, "\t\tCapability mask: 0xa651e848\n");
    fmt::format_to(o, "\t\tPort GUID: 0x{:016x}\n", nic.node_guid);
    fmt::format_to(o, "\t\tLink layer: InfiniBand\n");
  }
  return fmt::to_string(out);
}

std::string ib_rdma_link_show(const Host& host) {
  fmt::memory_buffer out;
  for (const Nic& nic : host.nics) {
    fmt::format_to(std::back_inserter(out),
                   "link {}/1 subnet_prefix fe80:0000:0000:0000 lid {} sm_lid {} lmc 0 state {} "
                   "physical_state {} netdev {} \n",
                   nic.rdma_dev, nic.lid, nic.sm_lid, state_text(nic.ib_state).rdma,
                   phys_text(nic.ib_phys).rdma, nic.netdev);
  }
  return fmt::to_string(out);
}

}  // namespace netdoctor::sim
