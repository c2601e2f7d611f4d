#include "model/source_names.h"

namespace netdoctor::model::source {

const std::vector<std::string>& known_sources() {
  static const std::vector<std::string> sources = {
      k_ethtool_stats,
      k_ethtool_info,
      k_ethtool_link,
      k_ibv_devinfo,
      k_rdma_link,
      k_mlnx_qos,
      k_dcb,
      k_ip_address,
      k_chronyc_tracking,
      k_chronyc_sources,
      k_ntpq,
      k_pmc,
      k_ptp4l_log,
      k_lldpcli,
      k_lspci,
      k_dmesg,
      k_ibdev2netdev,
      k_rdma_statistic,
      k_rdma_resource,
      k_sysfs_infiniband,
      k_sysfs_fw_ver,
      k_sysfs_port,
      k_sysfs_hw_counters,
      k_sysfs_counters,
      k_sysfs_net,
      k_sysfs_pcie,
      k_sysfs_gids,
      k_show_gids,
      k_captured_at,
      k_show_interfaces_counters,
      k_show_interfaces_status,
      k_show_pfc_counters,
      k_show_queue_counters,
      k_show_lldp_table,
      k_show_pfcwd,
      k_perftest,
      k_perftest_baseline,
      k_nccl,
      k_sweep,
      k_ibnetdiscover,
      k_iblinkinfo,
      k_perfquery,
      k_ibqueryerrors,
      k_sminfo,
      k_ibnodes,
      k_ibdiagnet,
  };
  return sources;
}

const std::set<std::string>& inventory_sources() {
  static const std::set<std::string> sources = {
      k_sysfs_infiniband, k_rdma_link, k_ibdev2netdev, k_ibv_devinfo,
      k_ethtool_info,     k_lldpcli,   k_captured_at,
  };
  return sources;
}

const std::set<std::string>& moving_sources() {
  static const std::set<std::string> k_moving = {
      k_ethtool_stats,
      k_rdma_statistic,
      k_sysfs_hw_counters,
      k_sysfs_counters,
      k_show_interfaces_counters,
      k_show_pfc_counters,
      k_show_queue_counters,
      k_show_pfcwd,
      k_perfquery,
      k_ibqueryerrors,
      k_ibdiagnet,
      k_sminfo,
  };
  return k_moving;
}

}  // namespace netdoctor::model::source
