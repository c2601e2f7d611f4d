// The simulated fabric: hosts with RDMA NICs, leaf and spine switches, the cables between them
// (LLDP on both ends), and the rates each entity currently carries. Built by build_topology(),
// reshaped and perturbed by fault injectors, completed by derive_links().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/rates.h"
#include "sim/rng.h"
#include "sim/sim_config.h"

namespace netdoctor::sim {

inline constexpr std::size_t k_none = static_cast<std::size_t>(-1);

// How a NIC's RoCE GID table is laid out (sim/writers/gid_writer.cc): the kernel's usual
// link-local v1/v2 then IPv4 v1/v2, or one of the ways it goes wrong (gid-mismatch).
enum class GidLayout {
  Usual,
  Ipv6First,  // a global IPv6 address added before the IPv4 one takes 2/3: IPv4 v2 at 5
  V1Only,     // RoCE v2 GIDs not populated (RoCE mode forced to v1): every entry IB/RoCE v1
  NoIpv4,     // no GID for the IPv4 address (it was added to the netdev after the table froze)
};

// InfiniBand port state (PortInfo PortState 1..4) and physical state as the subnet shows them.
enum class IbState { Down, Init, Armed, Active };
enum class IbPhys { Polling, Disabled, LinkUp };

struct Nic {
  std::string rdma_dev;  // mlx5_0, rocep26s0f0, bnxt_re0
  std::string netdev;    // ens1f0np0, enp26s0f0np0
  Vendor vendor = Vendor::Mlx5;
  std::string model;     // "ConnectX-7", "BCM57508"
  std::string board_id;  // mlx5 PSID, bnxt board
  std::string fw;
  std::string driver_version;
  int vendor_part_id = 0;
  std::string pci;  // 0000:1a:00.0
  std::string mac;
  std::string ip;
  int prefix_len = 24;
  std::string ipv6;  // a global IPv6 address added before `ip` (gid-mismatch); empty when none
  GidLayout gid_layout = GidLayout::Usual;
  int ifindex = 0;
  std::uint64_t node_guid = 0;
  int rated_gbps = 200;
  int speed_gbps = 200;
  int rated_lanes = 4;
  int lanes = 4;
  int mtu = 9000;
  int active_mtu = 4096;
  std::uint8_t pfc_mask = 0x08;  // PFC-enabled priorities (bit p)
  bool trust_dscp = true;
  std::size_t leaf = k_none;    // switch index
  std::size_t port = k_none;    // port index on that switch
  double perf_bw_factor = 1.0;  // what faults do to a perftest through this NIC
  double perf_lat_factor = 1.0;
  bool perf_fails = false;
  // PCIe link as trained and as capable (sysfs current/max_link_*, lspci, dmesg).
  int pcie_width = 16;
  int pcie_max_width = 16;
  double pcie_gt_s = 16.0;
  double pcie_max_gt_s = 16.0;
  int kernel_flaps = 0;  // link down/up pairs of its netdev in the kernel log (link-errors)
  // InfiniBand HCA port (FabricKind::Ib): state as the subnet manager left it, its LID (0: none
  // assigned) and the LID of the SM it answers to; lanes/speed_gbps/active_mtu as trained.
  IbState ib_state = IbState::Active;
  IbPhys ib_phys = IbPhys::LinkUp;
  std::uint32_t lid = 0;
  std::uint32_t sm_lid = 0;
  double ib_wait_share = 0.0;  // share of the time a fault adds to PortXmitWait over the traffic's
  NicRates rates;
  NicRates history;  // long-run average before the fault (for absolute counter values)
  NicRates before;   // the rates before the faults began (Fabric::onset_interval > 0)
};

// How the job's NCCL runs on a host: what its NCCL_DEBUG=INFO log shows (nccl-transport).
struct NcclSetup {
  bool socket = false;        // no usable HCA (NCCL_IB_DISABLE=1): channels on NET/Socket
  bool gdr = true;            // GPUDirect RDMA (nvidia-peermem loaded)
  std::size_t hcas = k_none;  // NCCL_IB_HCA naming only the first `hcas` NICs; k_none: every NIC
};

struct Host {
  std::string name;
  NcclSetup nccl;
  std::vector<Nic> nics;
  std::size_t leaf = k_none;
  double clock_offset_s = 0.0;  // host clock minus true time
  bool clock_synced = true;
  double uptime_s = 0.0;
  std::string mgmt_ip;
  std::string mgmt_mac;
};

enum class PortKind { HostFacing, Uplink, SpineDownlink };

struct Port {
  std::string name;   // Ethernet0; InfiniBand: the port number ("7")
  std::string alias;  // etp1
  int first_lane = 0;
  int lanes = 4;
  int rated_lanes = 4;
  int speed_gbps = 200;
  int rated_gbps = 200;
  int mtu = 9100;
  PortKind kind = PortKind::HostFacing;
  std::size_t peer_host = k_none;  // HostFacing: the NIC at the other end
  std::size_t peer_nic = k_none;
  std::size_t peer_switch = k_none;  // Uplink / SpineDownlink: the switch port at the other end
  std::size_t peer_port = k_none;
  double ecmp_weight = 1.0;  // Uplink: share of the leaf's cross traffic
  // InfiniBand: the port number, its state (both ends of a cable agree) and the share of the time
  // a fault adds to its PortXmitWait over what its own traffic gives.
  int number = 0;
  IbState ib_state = IbState::Active;
  IbPhys ib_phys = IbPhys::LinkUp;
  double ib_wait_share = 0.0;
  PortRates rates;
  PortRates history;
  PortRates before;  // the rates before the faults began (Fabric::onset_interval > 0)
};

struct Switch {
  std::string name;
  bool spine = false;
  std::vector<Port> ports;
  std::string mac;
  std::string mgmt_ip;
  std::string hwsku;
  double uptime_s = 0.0;
  double cross_fraction = 0.5;     // leaf: share of host traffic that leaves through the uplinks
  std::vector<std::size_t> hosts;  // leaf: hosts cabled to it
  // InfiniBand: node GUID, LID (port 0), number of ports, firmware, and how long before sample 0
  // its 32-bit PortCounters were last cleared (its uptime when never).
  std::uint64_t guid = 0;
  std::uint32_t lid = 0;
  std::size_t radix = 0;
  std::string fw;
  double pma_cleared_s = 0.0;
};

// A subnet manager as the fabric's views see it: on a switch (sw) or a host's HCA (host, nic).
struct SubnetManager {
  std::size_t sw = k_none;
  std::size_t host = k_none;
  std::size_t nic = k_none;
  std::uint64_t guid = 0;
  std::uint32_t lid = 0;
  int priority = 15;
  std::uint64_t activity = 0;  // SMInfo ActivityCount at sample 0; grows by the sweeps
};

enum class SampleNaming { Plain, Padded };  // "0", "1" or "s000", "s001"

struct Fabric {
  FabricKind kind = FabricKind::Roce;
  IbSpeed ib_speed = IbSpeed::Hdr;
  // InfiniBand: the masters; none when no SM runs; two when two SMs each think they are master
  // (sample k's sminfo reaches managers[k % size]).
  std::vector<SubnetManager> managers;
  std::vector<Host> hosts;
  std::vector<Switch> switches;  // leaves first, then spines
  std::size_t leaf_count = 0;
  int roce_priority = 3;
  QosTool qos_tool = QosTool::Auto;
  bool hw_counters = true;  // SimConfig::hw_counters
  std::vector<ClockView> clock_views = {ClockView::ChronyTracking};
  LldpView lldp_view = LldpView::Json;
  double start_time = 0.0;  // true time of the first sample
  double interval_s = 30.0;
  std::size_t samples = 2;
  // The interval (1-based: between samples k-1 and k) in which the faults begin; 0 = before the
  // capture. Only counters show it: a fault of configuration is there from the start.
  std::size_t onset_interval = 0;
  SampleNaming sample_naming = SampleNaming::Plain;
  double utilization = 0.35;  // fleet mean share of line rate
  std::uint64_t noise_seed = 0;
};

// The fabric of `config` with names, addresses, firmware and cabling; rates still zero.
// REQUIRES: validate_config(config).ok()
Fabric build_topology(const SimConfig& config, std::uint64_t seed);
// The InfiniBand form (sim/ib_topology.cc): leaf-NN / spine-NN Quantum switches with numbered
// ports, mlx5_N HCAs with IPoIB netdevs, GUIDs, and LIDs from an SM on spine-01.
Fabric build_ib_topology(const SimConfig& config, std::uint64_t seed);
// The fabric-wide settings every topology starts with (noise, times, utilization), drawn from
// `rng` in a fixed order.
Fabric start_fabric(const SimConfig& config, Rng& rng);

// Drops all but `keep` uplinks of leaf `leaf` (and the spine ports they land on): a leaf built
// with too little uplink capacity.
void keep_uplinks(Fabric& fabric, std::size_t leaf, std::size_t keep);

std::string sample_name(const Fabric& fabric, std::size_t sample);
std::vector<std::size_t> uplinks_of(const Switch& leaf);
double line_rate_bytes(int gbps);  // bytes per second on the wire

}  // namespace netdoctor::sim
