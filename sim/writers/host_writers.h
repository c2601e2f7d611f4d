// Host command outputs and sysfs files, each in the exact layout the real tool prints (see
// shared/reference/FORMATS.md and the example scenarios). Pure: text in, nothing written.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/counter_clock.h"
#include "sim/topology.h"

namespace netdoctor::sim {

// `ethtool -S <if>`: mlx5 naming (per-priority, *_phy, vport_rdma) or bnxt_en naming (per-ring
// "[N]: " blocks, *_pfc_ena_frames_pri*, *_cos*). `sample` only moves housekeeping counters.
std::string ethtool_stats(const Fabric& fabric, const Nic& nic, const NicSnapshot& counters,
                          std::size_t sample);
std::string ethtool_info(const Nic& nic);      // ethtool -i
std::string ethtool_settings(const Nic& nic);  // ethtool <if>

// `ip -d address`: lo, the management port, then one block per RDMA netdev (InfiniBand: the
// HCAs' IPoIB netdevs, link/infiniband).
std::string ip_address(const Host& host, FabricKind kind = FabricKind::Roce);
// `ibv_devinfo -v` and `rdma link show` for all the host's RDMA devices; on InfiniBand the
// port's state, LIDs, width and speed as trained, link_layer InfiniBand.
std::string ibv_devinfo(const Host& host, FabricKind kind = FabricKind::Roce);
std::string rdma_link_show(const Host& host);
// `mlnx_qos -i <if>` (mlx5 only): trust, dscp2prio, PFC bitmap, tc map.
std::string mlnx_qos(const Nic& nic);
// iproute2's `dcb <object> show dev <if>` for pfc, apptrust, app and ets: {object, output}.
std::vector<std::pair<std::string, std::string>> dcb_show(const Nic& nic, int roce_priority);
// `chronyc tracking` as the host sees it at `host_time` (its own clock).
std::string chronyc_tracking(const Fabric& fabric, const Host& host, double host_time,
                             std::size_t sample);
// The host's clock as `view` shows it: {path in the sample, text}. chronyc tracking as above;
// phc2sys's log (var/log/phc2sys.log), pmc TIME_STATUS_NP, chronyc sources or ntpq -pn, each
// locked with a small offset, or unlocked carrying the host's drift when its clock is not synced.
std::pair<std::string, std::string> clock_view_output(const Fabric& fabric, const Host& host,
                                                      ClockView view, double host_time,
                                                      std::size_t sample);
// `lldpcli show neighbors -f json`: one entry per NIC, the leaf port at the far end.
std::string lldp_neighbors(const Fabric& fabric, const Host& host);
// `lldpcli show neighbors` in lldpd's default text form: the same neighbours.
std::string lldp_neighbors_text(const Fabric& fabric, const Host& host);

// Files under sys/class/infiniband/<dev>/ and sys/class/net/<if>/, relative to the sample
// directory, handed to `emit` one by one.
using FileSink = std::function<void(std::string_view path, std::string_view content)>;
void sysfs_files(const Nic& nic, const Host& host, const NicSnapshot& counters,
                 const FileSink& emit);

// `lspci -vvv`: one Ethernet controller block per NIC, LnkCap against LnkSta.
std::string lspci_vvv(const Host& host);
// `dmesg`: each NIC driver's boot-time "available PCIe bandwidth" line (with "limited by" where
// a link trained below its capability) and its netdev's "Link up", then each NIC's
// nic.kernel_flaps down/up pairs spread over the uptime, in its driver's wording.
std::string dmesg(const Host& host);
// MLNX_OFED's `ibdev2netdev`: "mlx5_0 port 1 ==> ens1f0np0 (Up)" per NIC.
std::string ibdev2netdev(const Host& host);
// One port's line of `rdma statistic show`: "link mlx5_0/1 name value ..." from the counters
// its sysfs hw_counters directory holds (the tool prints the kernel's names and values).
using CounterFile = std::pair<std::string, std::string>;  // name, file content
std::string rdma_statistic_line(const Nic& nic, const std::vector<CounterFile>& counters);
// `rdma resource show`: "0: mlx5_0: pd 9 cq 132 qp 130 ..." per RDMA device.
std::string rdma_resource_show(const Host& host);

// The kernel's usable bandwidth of a PCIe link in Mb/s (per-lane rate rounded down first, as
// drivers/pci/pci.c does): 16 GT/s x16 -> 252048.
long pcie_kernel_mbps(double gt_s, int width);

// "Wed Dec 02 07:58:31 2026" for a Unix time (UTC), as chrony and date print it.
std::string format_utc(double unix_time);

// The RoCE GID table of the NIC's port 1 under sys/class/infiniband/<dev>/ports/1/: gids/<i>
// with gid_attrs/types/<i> and gid_attrs/ndevs/<i>, in the usual mlx5 layout (link-local v1/v2
// at 0/1, then a v1/v2 pair per address in the order added: the IPv4 one at 2/3 unless an IPv6
// address came first), then unused all-zero entries.
void gid_files(const Nic& nic, const FileSink& emit);
// `show_gids` (MLNX_OFED's script) for every RDMA device of the host, tab separated.
std::string show_gids(const Host& host);

// The NCCL job every host runs (nccl/<job>/ of the bundle, spec/bundle.md 1.1), in the formats
// of shared/reference/nccl and tests/parsers/data/nccl_log_*: one host's NCCL_DEBUG=INFO log
// (bootstrap, NET/IB or NET/Socket, GPUDirect RDMA per HCA, its ring channels, Init COMPLETE),
// and all_reduce_perf's output over every host, its bus bandwidth set by the slowest host.
inline constexpr const char* k_nccl_job = "allreduce";
std::string nccl_log(const Fabric& fabric, std::size_t host);
std::string nccl_tests_output(const Fabric& fabric);
// The job's peak bus bandwidth in GB/s: a share of the slowest host's NCCL line rate.
double nccl_peak_busbw(const Fabric& fabric);

}  // namespace netdoctor::sim
