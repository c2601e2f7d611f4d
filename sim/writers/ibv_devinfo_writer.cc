#include <fmt/format.h>

#include <algorithm>

#include "sim/ib_shape.h"
#include "sim/nic_models.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

std::string guid(std::uint64_t value) {
  return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}", value >> 48, (value >> 32) & 0xffff,
                     (value >> 16) & 0xffff, value & 0xffff);
}

// IB MTU enum: 256=1 ... 4096=5.
int mtu_code(int mtu) {
  int code = 1;
  for (int size = 256; size < mtu; size *= 2) {
    ++code;
  }
  return code;
}

std::string width(int lanes) {
  switch (lanes) {
    case 1:
      return "1X (1)";
    case 2:
      return "2X (16)";
    case 8:
      return "8X (4)";
    default:
      return "4X (2)";
  }
}

const char* port_state(const Nic& nic, bool ib) {
  if (!ib) {
    return "PORT_ACTIVE (4)";
  }
  switch (nic.ib_state) {
    case IbState::Down:
      return "PORT_DOWN (1)";
    case IbState::Init:
      return "PORT_INIT (2)";
    case IbState::Armed:
      return "PORT_ARMED (3)";
    case IbState::Active:
      break;
  }
  return "PORT_ACTIVE (4)";
}

const char* phys_state(const Nic& nic, bool ib) {
  if (!ib || nic.ib_phys == IbPhys::LinkUp) {
    return "LINK_UP (5)";
  }
  return nic.ib_phys == IbPhys::Polling ? "POLLING (2)" : "DISABLED (3)";
}

// "50.0 Gbps (64)" (HDR lanes), "100.0 Gbps (128)" (NDR); RoCE ports print the HDR form.
std::string active_speed(const Nic& nic, bool ib) {
  if (!ib) {
    return "50.0 Gbps (64)";
  }
  const int lane = nic.speed_gbps / std::max(1, nic.lanes);
  return fmt::format("{:.1f} Gbps ({})", static_cast<double>(lane), ib_speed_code(lane));
}

}  // namespace

std::string ibv_devinfo(const Host& host, FabricKind kind) {
  const bool ib = kind == FabricKind::Ib;
  fmt::memory_buffer out;
  auto o = std::back_inserter(out);
  bool first = true;
  for (const Nic& nic : host.nics) {
    if (!first) {
      fmt::format_to(o, "\n");
    }
    first = false;
    const bool mlx5 = nic.vendor == Vendor::Mlx5;
    const NicModel& model = nic_model(nic.vendor);
    fmt::format_to(o, "hca_id:\t{}\n", nic.rdma_dev);
    fmt::format_to(o, "\ttransport:\t\t\tInfiniBand (0)\n");
    fmt::format_to(o, "\tfw_ver:\t\t\t\t{}\n", fw_version_only(nic.fw));
    fmt::format_to(o, "\tnode_guid:\t\t\t{}\n", guid(nic.node_guid));
    fmt::format_to(o, "\tsys_image_guid:\t\t\t{}\n", guid(nic.node_guid ^ 0x1000));
    fmt::format_to(o, "\tvendor_id:\t\t\t{}\n", model.vendor_id);
    fmt::format_to(o, "\tvendor_part_id:\t\t\t{}\n", nic.vendor_part_id);
    fmt::format_to(o, "\thw_ver:\t\t\t\t{}\n", mlx5 ? "0x0" : "0x1");
    fmt::format_to(o, "\tboard_id:\t\t\t{}\n", nic.board_id);
    fmt::format_to(o, "\tphys_port_cnt:\t\t\t1\n");
    fmt::format_to(o, "\tmax_mr_size:\t\t\t0xffffffffffffffff\n");
    fmt::format_to(o, "\tpage_size_cap:\t\t\t{}\n", mlx5 ? "0xfffffffffffff000" : "0x201000");
    fmt::format_to(o, "\tmax_qp:\t\t\t\t{}\n", mlx5 ? 131072 : 65537);
    fmt::format_to(o, "\tmax_qp_wr:\t\t\t{}\n", mlx5 ? 32768 : 65407);
    fmt::format_to(o, "\tmax_cq:\t\t\t\t{}\n", mlx5 ? 16777216 : 131072);
    fmt::format_to(o, "\tmax_mr:\t\t\t\t{}\n", mlx5 ? 16777216 : 262144);
    fmt::format_to(o, "\tmax_pd:\t\t\t\t{}\n", mlx5 ? 8388608 : 65536);
    fmt::format_to(o, "\t\tport:\t1\n");
    fmt::format_to(o, "\t\t\tstate:\t\t\t{}\n", port_state(nic, ib));
    fmt::format_to(o, "\t\t\tmax_mtu:\t\t4096 (5)\n");
    fmt::format_to(o, "\t\t\tactive_mtu:\t\t{} ({})\n", nic.active_mtu, mtu_code(nic.active_mtu));
    fmt::format_to(o, "\t\t\tsm_lid:\t\t\t{}\n", ib ? nic.sm_lid : 0);
    fmt::format_to(o, "\t\t\tport_lid:\t\t{}\n", ib ? nic.lid : 0);
    fmt::format_to(o, "\t\t\tport_lmc:\t\t0x00\n");
    fmt::format_to(o, "\t\t\tlink_layer:\t\t{}\n", ib ? "InfiniBand" : "Ethernet");
    fmt::format_to(o, "\t\t\tmax_msg_sz:\t\t{}\n", mlx5 ? "0x40000000" : "0x7fffffff");
    fmt::format_to(o, "\t\t\tport_cap_flags:\t\t{}\n", mlx5 ? "0x04010000" : "0x041d0000");
    fmt::format_to(o, "\t\t\tport_cap_flags2:\t0x0000\n");
    fmt::format_to(o, "\t\t\tmax_vl_num:\t\t{}\n", ib ? "4 (3)" : "invalid value (0)");
    fmt::format_to(o, "\t\t\tbad_pkey_cntr:\t\t0x0\n");
    fmt::format_to(o, "\t\t\tqkey_viol_cntr:\t\t0x0\n");
    fmt::format_to(o, "\t\t\tsm_sl:\t\t\t0\n");
    fmt::format_to(o, "\t\t\tpkey_tbl_len:\t\t{}\n", ib ? 128 : 1);
    fmt::format_to(o, "\t\t\tgid_tbl_len:\t\t{}\n", mlx5 ? 255 : 256);
    fmt::format_to(o, "\t\t\tsubnet_timeout:\t\t0\n");
    fmt::format_to(o, "\t\t\tinit_type_reply:\t0\n");
    fmt::format_to(o, "\t\t\tactive_width:\t\t{}\n", width(nic.lanes));
    fmt::format_to(o, "\t\t\tactive_speed:\t\t{}\n", active_speed(nic, ib));
    fmt::format_to(o, "\t\t\tphys_state:\t\t{}\n", phys_state(nic, ib));
    if (ib) {
      fmt::format_to(o, "\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:{}\n", guid(nic.node_guid));
    } else {
      fmt::format_to(o, "\t\t\tGID[  3]:\t\t::ffff:{}, RoCE v2\n", nic.ip);
    }
  }
  return fmt::to_string(out);
}

std::string rdma_link_show(const Host& host) {
  fmt::memory_buffer out;
  for (const Nic& nic : host.nics) {
    fmt::format_to(std::back_inserter(out),
                   "link {}/1 state ACTIVE physical_state LINK_UP netdev {} \n", nic.rdma_dev,
                   nic.netdev);
  }
  return fmt::to_string(out);
}

}  // namespace netdoctor::sim
