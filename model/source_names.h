// The names of the data sources the loaders read, as they appear in every entity's SourceMap
// (model/fabric.h), in Problem::source and in what a probe declares it reads. One name may
// cover several files or command forms ("sysfs net" is every /sys/class/net/<netdev> file,
// "ip address" is `ip -d address` or `ip address`). Spelling a source anywhere else as a literal
// invites a typo that no test would catch.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace netdoctor::model::source {

// Hosts: commands.
inline const std::string k_ethtool_stats = "ethtool -S";  // counters per netdev
inline const std::string k_ethtool_info = "ethtool -i";   // driver, firmware, bus
inline const std::string k_ethtool_link = "ethtool";      // link speed, supported speeds
inline const std::string k_ibv_devinfo = "ibv_devinfo";   // devices, ports, MTUs, ids
inline const std::string k_rdma_link = "rdma link";       // device/port -> netdev, state
inline const std::string k_mlnx_qos = "mlnx_qos";         // trust, PFC, dscp2prio
inline const std::string k_dcb = "dcb";                   // iproute2 dcb: PFC, apptrust, APP
inline const std::string k_ip_address = "ip address";     // addresses, MTU, operstate
inline const std::string k_chronyc_tracking = "chronyc tracking";
// Other clock views, read when chronyc tracking was not captured.
inline const std::string k_chronyc_sources = "chronyc sources";
inline const std::string k_ntpq = "ntpq";            // ntpq -p / -pn (ntpd, ntpsec)
inline const std::string k_pmc = "pmc";              // linuxptp pmc GET TIME_STATUS_NP ...
inline const std::string k_ptp4l_log = "ptp4l log";  // var/log/ptp4l.log, phc2sys.log
inline const std::string k_lldpcli = "lldpcli";      // the host's LLDP neighbours
inline const std::string k_lspci = "lspci";          // lspci -vvv: PCIe LnkCap / LnkSta
inline const std::string k_dmesg = "dmesg";  // kernel log: PCIe bandwidth, link flaps, errors
inline const std::string k_ibdev2netdev = "ibdev2netdev";      // device/port -> netdev, state
inline const std::string k_rdma_statistic = "rdma statistic";  // per-port RDMA hw counters
inline const std::string k_rdma_resource = "rdma resource";    // QP/CQ/MR/PD counts per device

// Hosts: sysfs.
inline const std::string k_sysfs_infiniband = "sysfs infiniband";    // the RDMA device listing
inline const std::string k_sysfs_fw_ver = "sysfs fw_ver";            // <device>/fw_ver
inline const std::string k_sysfs_port = "sysfs port";                // state, rate, link layer
inline const std::string k_sysfs_hw_counters = "sysfs hw_counters";  // <port>/hw_counters
inline const std::string k_sysfs_counters = "sysfs counters";        // <port>/counters (IB PMA)
inline const std::string k_sysfs_net = "sysfs net";    // /sys/class/net/<netdev> values and stats
inline const std::string k_sysfs_pcie = "sysfs pcie";  // <netdev>/device/*_link_{width,speed}

// Hosts: the RoCE GID table (spec/bundle.md 1.1), from sysfs or from MLNX_OFED's script.
inline const std::string k_sysfs_gids = "sysfs gids";  // <port>/gids, gid_attrs/{types,ndevs}
inline const std::string k_show_gids = "show_gids";

// Every machine: the time of each sample.
inline const std::string k_captured_at = "captured_at";

// SONiC switches.
inline const std::string k_show_interfaces_counters = "show interfaces counters";
inline const std::string k_show_interfaces_status = "show interfaces status";
inline const std::string k_show_pfc_counters = "show pfc counters";
inline const std::string k_show_queue_counters = "show queue counters";
inline const std::string k_show_lldp_table = "show lldp table";
// The PFC watchdog: `show pfcwd stats` (or `pfcwd show stats`) and `show pfcwd config`.
inline const std::string k_show_pfcwd = "show pfcwd";

// Perftest output files of the bundle, recorded against the client host.
inline const std::string k_perftest = "perftest";
inline const std::string k_perftest_baseline = "perftest-baseline";

// nccl/<job>/ files (spec/bundle.md 1.1): NCCL_DEBUG=INFO logs and nccl-tests output, recorded
// against each host they name.
inline const std::string k_nccl = "nccl";

// sweep/<name>.json: the conclusion of an active sweep (docs/sweep.md), recorded for the fabric.
inline const std::string k_sweep = "sweep";

// InfiniBand fabric views (spec/bundle.md 1.1): fabric/<sample>/sos_commands/*/<command>,
// recorded in IbFabric::sources and in each IbNode's sources (model/ib_loader.h).
inline const std::string k_ibnetdiscover = "ibnetdiscover";  // topology and -p port forms
inline const std::string k_iblinkinfo = "iblinkinfo";        // port states, widths, speeds
inline const std::string k_perfquery = "perfquery";          // PMA counters, every file form
inline const std::string k_ibqueryerrors = "ibqueryerrors";  // ports over error thresholds
inline const std::string k_sminfo = "sminfo";                // the master subnet manager
inline const std::string k_ibnodes = "ibnodes";              // ibnodes, ibswitches, ibhosts
inline const std::string k_ibdiagnet = "ibdiagnet";  // var/tmp/ibdiagnet2/ibdiagnet2.* files

// Every source above, each once, in the order above.
const std::vector<std::string>& known_sources();

// The sources that say which NICs a host has, what they are called and which vendor made them,
// and when each sample was taken: a load always reads them, even when LoadOptions::only_sources
// leaves them out, so withholding other sources never changes which entities exist.
//   sysfs infiniband  the RDMA devices, their ports and bound netdevs (device/net)
//   rdma link         device/port -> netdev, and NICs where sysfs was not captured
//   ibdev2netdev      device/port -> netdev where neither sysfs nor rdma link gives it
//   ibv_devinfo       NICs where neither was captured, and the PCI vendor id for the vendor
//   ethtool -i        the driver, the first clue to the vendor
//   lldpcli           the NICs of a host with no RDMA device captured at all (its cabled netdevs)
//   captured_at       the sample times that order and window every counter series
const std::set<std::string>& inventory_sources();

// The sources whose figures move between samples of one capture: counters (ethtool -S, the RDMA
// and PMA counters, the switches' counter tables, the PFC watchdog's stats) and the subnet
// manager each sample reached. What a probe finds from them can begin inside a capture; what it
// finds from configuration (MTU, QoS, firmware, cabling) was there before it (engine/onset.h).
const std::set<std::string>& moving_sources();

}  // namespace netdoctor::model::source
