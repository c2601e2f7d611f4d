// The fabric model: hosts -> NICs (RDMA device <-> netdev <-> port) -> the switch port each
// NIC is cabled to; switches -> ports -> peers; perftest results; and every problem met while
// building it. Built once from a Bundle (or a live capture, or Prometheus) by the loader, then
// only read by probes, inventory, plan and the engine.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "model/entity_names.h"
#include "model/ib_fabric.h"
#include "model/metric.h"
#include "model/port_state.h"
#include "model/source_state.h"

namespace netdoctor::model {

// A NIC's QoS configuration as its config tool reports it: NVIDIA's mlnx_qos or iproute2's
// dcb (any driver with dcbnl). Empty `tool` when neither was captured.
struct QosConfig {
  std::string tool;                                  // source::k_mlnx_qos, source::k_dcb
  std::string trust;                                 // "dscp", "pcp", empty when unknown
  std::array<std::optional<bool>, 8> pfc_enabled{};  // per priority
  std::string dcbx_mode;                             // "OS controlled", "firmware controlled"
  std::map<int, int> dscp_to_priority;               // from the dscp2prio table, when present
};

struct ClockState {
  std::string source;                // the view read: source::k_chronyc_tracking, k_pmc, ...
  std::optional<double> offset_s;    // system time minus reference (positive = fast)
  std::optional<bool> synchronised;  // from Leap status / reference
  std::string leap_status;
  std::string reference;  // "0A000101 (10.0.1.1)"
  std::optional<int> stratum;
};

// A NIC's PCIe link: what it trained at against what it (and its slot) can do. Read from sysfs
// (<netdev>/device/current_link_width and the like), else from `lspci -vvv` by the NIC's bus
// address; the kernel's "available PCIe bandwidth ... limited by" line (dmesg) corroborates it
// and may name an upstream bridge as the bottleneck. Empty `source` when nothing was captured.
struct PcieLink {
  std::string source;                       // source::k_sysfs_pcie, k_lspci or k_dmesg
  std::optional<std::uint32_t> width;       // lanes trained
  std::optional<std::uint32_t> max_width;   // lanes it is capable of
  std::optional<double> gt_s;               // per-lane rate trained
  std::optional<double> max_gt_s;           // per-lane rate it is capable of
  std::optional<std::uint32_t> generation;  // of the trained rate (parsers/pcie.h)
  // Usable Gb/s per direction: width x GT/s x encoding of the trained link, lowered to the
  // kernel's "available" figure when an upstream link limits it; and the same at capability.
  std::optional<double> ceiling_gbps;
  std::optional<double> capable_gbps;
  bool width_downgraded = false;  // trained narrower than it can
  bool speed_downgraded = false;  // trained slower than it can
  // The kernel's PCIe bandwidth warning naming this NIC ("limited by ... at <address>").
  bool kernel_limited = false;
  std::string limited_at;  // the bottleneck link's PCI address (the NIC's own or a bridge)
};

// One entry of an RDMA port's GID table: sysfs gids/<index> with its gid_attrs, or a show_gids
// row. All-zero (unused) entries are left out.
struct Gid {
  int index = 0;
  std::string gid;   // as printed: "0000:0000:0000:0000:0000:ffff:0a60:531a"
  std::string type;  // "RoCE v2" or "IB/RoCE v1" (model/nic_gids.h); empty when not captured
  std::string ndev;  // the netdev the entry belongs to; empty when none
  std::string ipv4;  // "10.96.83.26" for an IPv4-mapped GID (::ffff:a.b.c.d), else empty
};

// What the kernel log (dmesg) says about one NIC: its netdev's link transitions and the driver,
// firmware and PCIe AER errors naming its netdev or PCI address (ethtool -i bus-info). Times are
// the log's own stamps, seconds since boot; the log is history since boot (or since the ring
// buffer wrapped), not the capture window. Empty when no kernel log was captured
// (nic.sources[source::k_dmesg] says which).
struct KernelEvents {
  std::size_t link_downs = 0;  // "Link down" / "NIC Link is Down" lines of its netdev
  std::size_t link_ups = 0;
  // Downs of a link that had been up, or that stayed down: every down but the carrier-off a
  // driver prints at bring-up (a first down followed by an up).
  std::size_t flaps = 0;
  std::vector<double> flap_times_s;  // seconds since boot of each flap's down line, when stamped
  std::size_t driver_errors = 0;     // driver / firmware error lines (command timeout, health)
  std::size_t aer_corrected = 0;     // PCIe AER reports ("PCIe Bus Error") on its address
  std::size_t aer_uncorrected = 0;
  std::string first_error;  // the first driver error or AER line, as printed
};

// A device's verbs objects as `rdma resource show` counts them (per RDMA device, every port).
struct RdmaResourceCounts {
  std::optional<std::uint64_t> qp;
  std::optional<std::uint64_t> cq;
  std::optional<std::uint64_t> mr;
  std::optional<std::uint64_t> pd;
};

struct Nic {
  std::string host;
  std::string device;  // RDMA device ("mlx5_0", "rocep90s0f0", "bnxt_re1"); empty if none
  std::string netdev;  // "ens1f0np0"; empty when not known
  int port = 1;        // RDMA port number
  std::string vendor;  // "mlx5", "bnxt", "irdma", ... from the driver; "unknown"
  std::string driver;  // "mlx5_core", "bnxt_en"
  std::string driver_version;
  std::string firmware;  // first token of the firmware version
  std::string board_id;
  std::string part_id;  // vendor_part_id
  std::string bus_info;

  std::optional<int> mtu;            // netdev MTU
  std::optional<int> active_mtu;     // RoCE / IB path MTU in bytes (ibv active_mtu)
  std::optional<int> max_mtu;        // ibv max_mtu in bytes
  std::optional<double> speed_gbps;  // current link speed (ethtool / sysfs speed / ibv rate)
  std::optional<double> rated_gbps;  // the highest speed the port supports/advertises
  std::optional<int> active_width;   // lanes (ibv active_width 4X -> 4)
  RdmaPortState state = RdmaPortState::Unknown;  // the RDMA port's logical state
  PhysState phys_state = PhysState::Unknown;
  LinkState operstate = LinkState::Unknown;  // the netdev's
  std::string link_layer;                    // "Ethernet" (RoCE) or "InfiniBand"
  std::string mac;
  std::vector<std::string> ipv4;  // CIDR, "10.10.0.15/24"
  QosConfig qos;
  std::vector<Gid> gids;  // the RDMA port's GID table by index (model/nic_gids.h)

  std::string switch_name;  // from LLDP on the host or the switch's LLDP table
  std::string switch_port;

  std::vector<CounterSample> samples;  // canonical metrics, one per host sample
  SourceMap sources;
  PcieLink pcie;
  KernelEvents kernel;
  RdmaResourceCounts resources;  // empty when `rdma resource show` was not captured

  // Entity names (model/entity_names.h).
  std::string nic_entity() const;     // "nic:<host>/<device>" (falls back to netdev)
  std::string netdev_entity() const;  // "netdev:<host>/<netdev>" (falls back to device)
  std::string port_entity() const;    // "port:<switch>/<port>" or empty

  // The QoS tool to name in advice for this NIC: the one its configuration was read with, else
  // mlnx_qos on mlx5 (NVIDIA ships it) and iproute2's dcb on any other driver.
  std::string qos_tool() const;
};

struct Host {
  std::string name;
  std::vector<double> captured_at;  // per sample
  ClockState clock;
  std::vector<Nic> nics;  // RDMA NICs and the netdevs bound to them, sorted by device
  // Every netdev with an address, RDMA or not, for addressing checks.
  struct Interface {
    std::string name;
    std::optional<int> mtu;
    LinkState state = LinkState::Unknown;
    std::vector<std::string> ipv4;
  };
  std::vector<Interface> interfaces;
  SourceMap sources;
  std::string entity() const { return host_entity(name); }
  // The time daemon to name in advice, from the clock view read: "chrony" (chronyc tracking or
  // sources), "linuxptp" (ptp4l/phc2sys logs, pmc), "ntpd" (ntpq); "chrony" when none was read,
  // the default of the distributions.
  std::string clock_tool() const;
};

// The SONiC PFC watchdog of one port, as the latest sample shows it: `show pfcwd config` (what
// it does on a storm, after how long) and the queues `show pfcwd stats` lists (those watched).
struct PfcWatchdog {
  bool configured = false;  // the port has a row in show pfcwd config
  std::string action;       // "drop", "forward", "alert"
  std::optional<std::uint64_t> detection_time_ms;
  std::optional<std::uint64_t> restoration_time_ms;
  std::vector<int> queues;   // queues with a row in show pfcwd stats
  std::vector<int> stormed;  // of those, the ones in status "stormed" (the watchdog acting now)
  bool watches(int queue) const;
};

struct SwitchPort {
  std::string name;  // "Ethernet0"
  std::string alias;
  std::optional<double> speed_gbps;
  std::optional<int> mtu;
  LinkState oper = LinkState::Unknown;
  LinkState admin = LinkState::Unknown;
  std::string peer_device;  // from show lldp table
  std::string peer_port;
  // Metrics per sample: rx_packets, tx_packets, rx_errors, rx_drops, rx_overruns, tx_errors,
  // tx_drops, tx_overruns, rx_bps, tx_bps (bytes/s as shown), rx_util_pct, tx_util_pct,
  // pfc_rx_pause_frames[p], pfc_tx_pause_frames[p], queue_tx_packets[q], queue_tx_bytes[q],
  // queue_drop_packets[q], queue_drop_bytes[q] (q: UC index; MC queues as q + 100),
  // pfcwd_storms_detected[q], pfcwd_storms_restored[q], pfcwd_tx_drops[q], pfcwd_rx_drops[q]
  // (the PFC watchdog's storms and the packets it dropped on queue q).
  std::vector<CounterSample> samples;
  PfcWatchdog pfcwd;
};

struct Switch {
  std::string name;
  std::vector<double> captured_at;
  std::vector<SwitchPort> ports;  // in the switch's own order
  SourceMap sources;
  std::string entity() const { return switch_entity(name); }
  const SwitchPort* find_port(const std::string& port) const;
};

struct PerftestResult {
  std::string client;
  std::string server;
  std::string test;    // "ib_write_bw", "ib_read_lat", ...
  std::string device;  // from "-d" or the Device line
  bool baseline = false;
  bool ok = false;    // a result table was read
  std::string error;  // "Couldn't connect ...", "Completion with error ..."
  std::optional<std::uint64_t> msg_bytes;
  std::optional<double> bw_avg_gbps;
  std::optional<double> bw_peak_gbps;  // 0 when perftest did not measure the peak
  std::optional<double> msg_rate_mpps;
  std::optional<double> lat_typical_us;
  std::optional<double> lat_avg_us;
  std::optional<double> lat_p99_us;
  std::string file;  // where it came from, for messages
};

// One host of an NCCL job as its NCCL_DEBUG=INFO log shows it (model/nccl_job.h).
struct NcclHostView {
  std::string host;         // as the log names it; "" when the log strips it
  std::string fabric_host;  // the fabric's host it joins to by name; "" when none
  std::string network;      // "IB", "IBext_v8", "Socket" ("Using network X"); "" when not logged
  std::vector<std::string> hcas;                // "NET/IB : Using [0]mlx5_0:1/RoCE ...", in order
  std::vector<std::string> socket_devices;      // "NET/Socket : Using [0]eth0:10.0.0.1<0>"
  std::map<std::string, bool> gdr;              // HCA -> "GPU Direct RDMA Enabled|Disabled for HCA"
  std::optional<bool> rings_gdr;                // "Connected all rings, use ring PXN 0 GDR 0|1"
  std::map<std::string, std::size_t> channels;  // channel lines by transport ("NET/IB", "SHM")
  std::size_t net_channels = 0;                 // of them over the network (NET/...)
  std::size_t gdr_channels = 0;                 // of those, with /GDRDMA
  std::map<std::string, std::string> env;       // NCCL_* of the file(s) the host logged in
  std::vector<std::string> warnings;            // "NCCL WARN" messages
};

// A job's nccl/<job>/ files: NCCL_DEBUG=INFO logs and nccl-tests output (spec/bundle.md 1.1).
struct NcclJob {
  std::string name;                          // <job>
  std::vector<std::string> files;            // display paths of the files read
  std::vector<NcclHostView> hosts;           // sorted by host
  std::map<std::string, std::string> env;    // every NCCL_* logged, first value seen
  std::vector<std::string> test_hosts;       // the hosts of nccl-tests' ranks, sorted, unique
  std::optional<double> busbw_peak_gbyte_s;  // the highest busbw of any nccl-tests row
  std::optional<double> busbw_avg_gbyte_s;   // "# Avg bus bandwidth"
  std::vector<std::string> failures;         // nccl-tests "Test NCCL failure" lines
};

// A sweep recorded in the bundle (sweep/<name>.json, docs/sweep.md): the conclusion of
// `netdoctor sweep`, or of the active step of `diagnose --active`.
struct SweepSlow {
  std::string entity;  // nic:, host: or link:
  double measured_gbps = 0.0;
  double expected_gbps = 0.0;
  std::vector<std::string> evidence;
  std::string kind;  // "perftest" when pair tests named it, "collective" when nccl-tests did
};
struct SweepResult {
  std::string file;     // display path
  std::string verdict;  // "slow-found", "all-healthy", "inconclusive"
  std::string summary;
  std::vector<SweepSlow> slow;
  std::size_t nics = 0;
  std::size_t tested_nics = 0;
  std::size_t runs = 0;
  int rounds = 0;
  std::vector<std::string> left_out;  // "node07 (unreachable)"
};

struct Problem {
  std::string entity;  // the host or switch it concerns, empty for the bundle
  std::string source;  // "ethtool -S ens1f0np0"
  Error error;         // context holds the file path
};

struct Fabric {
  std::string name;              // from bundle.json "cluster", or the bundle's file name
  std::vector<Host> hosts;       // sorted by name
  std::vector<Switch> switches;  // sorted by name
  std::vector<PerftestResult> perftests;
  std::vector<NcclJob> nccl_jobs;   // sorted by name
  std::vector<SweepResult> sweeps;  // sorted by file
  IbFabric ib;                      // the InfiniBand subnet's fabric views (model/ib_fabric.h)
  std::vector<Problem> problems;

  const Host* find_host(const std::string& host_name) const;
  Host* find_host(const std::string& host_name);
  const Switch* find_switch(const std::string& switch_name) const;
};

// Whether the fabric has Ethernet (RoCE) ports: a SONiC switch, or a NIC whose link layer is
// not InfiniBand (an unknown link layer counts: older captures do not say).
bool has_ethernet(const Fabric& fabric);
// Whether it has InfiniBand: fabric views, or a NIC whose link layer is InfiniBand.
bool has_infiniband(const Fabric& fabric);

}  // namespace netdoctor::model
