#include "parsers/registry.h"

#include <algorithm>
#include <string>

#include "parsers/chronyc_sources.h"
#include "parsers/chronyc_tracking.h"
#include "parsers/dcb.h"
#include "parsers/dmesg.h"
#include "parsers/ethtool_info.h"
#include "parsers/ethtool_link.h"
#include "parsers/ethtool_stats.h"
#include "parsers/ibdev2netdev.h"
#include "parsers/ibdiagnet_db_csv.h"
#include "parsers/ibdiagnet_log.h"
#include "parsers/ibdiagnet_net_dump.h"
#include "parsers/ibdiagnet_pm.h"
#include "parsers/ibdiagnet_sm.h"
#include "parsers/iblinkinfo.h"
#include "parsers/ibnetdiscover.h"
#include "parsers/ibnodes.h"
#include "parsers/ibqueryerrors.h"
#include "parsers/ibv_devinfo.h"
#include "parsers/ip_address.h"
#include "parsers/lldpcli_json.h"
#include "parsers/lldpcli_text.h"
#include "parsers/lspci.h"
#include "parsers/mlnx_qos.h"
#include "parsers/nccl_log.h"
#include "parsers/nccl_tests.h"
#include "parsers/ntpq.h"
#include "parsers/perfquery.h"
#include "parsers/perftest.h"
#include "parsers/pmc.h"
#include "parsers/ptp4l_log.h"
#include "parsers/rdma_link.h"
#include "parsers/rdma_resource.h"
#include "parsers/rdma_statistic.h"
#include "parsers/show_gids.h"
#include "parsers/sminfo.h"
#include "parsers/sonic_interfaces_counters.h"
#include "parsers/sonic_interfaces_status.h"
#include "parsers/sonic_lldp_table.h"
#include "parsers/sonic_pfc_counters.h"
#include "parsers/sonic_pfcwd_stats.h"
#include "parsers/sonic_queue_counters.h"

namespace netdoctor::parsers {
namespace {

using Converter = Result<nlohmann::json> (*)(std::string_view);

template <typename Record, Result<Record> (*Parse)(std::string_view)>
Result<nlohmann::json> convert(std::string_view text) {
  auto record = Parse(text);
  if (!record.ok()) {
    return record.error();
  }
  return to_json(record.value());
}

struct Entry {
  ParserKind kind;
  Converter convert;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> k_entries = {
      {{"ethtool-stats", "ethtool -S <if>: driver counters (any driver, fragments accepted)"},
       convert<EthtoolStats, parse_ethtool_stats>},
      {{"ethtool-info", "ethtool -i <if>: driver, version, firmware, bus-info"},
       convert<EthtoolInfo, parse_ethtool_info>},
      {{"ethtool-link", "ethtool <if>: speed, duplex, link modes, FEC, link detected"},
       convert<EthtoolLink, parse_ethtool_link>},
      {{"ip-address", "ip [-d] address|link: interfaces, flags, MTU, state, MAC, addresses"},
       convert<IpAddressList, parse_ip_address>},
      {{"ibv-devinfo", "ibv_devinfo [-v] (or ibstat): HCAs, ports, state, MTU, speed, GIDs"},
       convert<IbvDevinfo, parse_ibv_devinfo>},
      {{"rdma-link", "rdma link show: device/port, state, physical state, netdev"},
       convert<RdmaLinks, parse_rdma_link>},
      {{"mlnx-qos", "mlnx_qos -i <if>: trust, dscp2prio, buffers, PFC, traffic classes"},
       convert<MlnxQos, parse_mlnx_qos>},
      {{"dcb",
        "dcb [-s] [-j] pfc|ets|app|apptrust|buffer|dcbx show dev <if>: PFC, ETS, trust, APP"},
       convert<DcbConfig, parse_dcb>},
      {{"chronyc-tracking", "chronyc tracking: reference, stratum, offsets (+fast/-slow), leap"},
       convert<ChronyTracking, parse_chronyc_tracking>},
      {{"lldpcli-json", "lldpcli show neighbors -f json: neighbour per local interface"},
       convert<LldpNeighbors, parse_lldpcli_json>},
      {{"perftest", "perftest ib_*_bw / ib_*_lat: parameters, addresses, results, errors"},
       convert<PerftestResult, parse_perftest>},
      {{"sonic-interfaces-counters", "SONiC show interfaces counters: per-port packets, rates"},
       convert<SonicInterfacesCounters, parse_sonic_interfaces_counters>},
      {{"sonic-interfaces-status", "SONiC show interfaces status: speed, MTU, FEC, oper/admin"},
       convert<SonicInterfacesStatus, parse_sonic_interfaces_status>},
      {{"sonic-pfc-counters", "SONiC show pfc counters: PFC0..7 frames received and sent"},
       convert<SonicPfcCounters, parse_sonic_pfc_counters>},
      {{"sonic-queue-counters", "SONiC show queue counters: per-queue packets, bytes, drops"},
       convert<SonicQueueCounters, parse_sonic_queue_counters>},
      {{"sonic-lldp-table", "SONiC show lldp table: local port to remote device/port"},
       convert<SonicLldpTable, parse_sonic_lldp_table>},
      {{"nccl-tests", "nccl-tests *_perf: rows, bus bandwidth, failures, NET/IB devices"},
       convert<NcclTestsResult, parse_nccl_tests>},
      {{"chronyc-sources", "chronyc sources [-v]: sources, reach, offsets (+ = local ahead)"},
       convert<ChronySources, parse_chronyc_sources>},
      {{"ntpq", "ntpq -p[n]: peers, tally, reach, delay/offset/jitter (+ = local ahead)"},
       convert<NtpqPeers, parse_ntpq>},
      {{"pmc", "pmc -u -b 0 'GET <ID>': responses, master offset, gmPresent, port state"},
       convert<PmcRecord, parse_pmc>},
      {{"ptp4l-log", "ptp4l/phc2sys log or journal: offsets, servo states, port states, rms"},
       convert<Ptp4lLog, parse_ptp4l_log>},
      {{"show-gids", "show_gids: GID table per device/port, index, IPv4, RoCE version, netdev"},
       convert<ShowGids, parse_show_gids>},
      {{"ibdev2netdev", "ibdev2netdev [-v]: RDMA device/port to netdev, link state (PCI, fw)"},
       convert<Ibdev2netdev, parse_ibdev2netdev>},
      {{"rdma-statistic", "rdma statistic show: per device/port RDMA counters, optional ones"},
       convert<RdmaStatistics, parse_rdma_statistic>},
      {{"rdma-resource", "rdma resource show [qp|cq|mr|...]: object counts per device, objects"},
       convert<RdmaResources, parse_rdma_resource>},
      {{"lldpcli-text", "lldpcli show neighbors (text): neighbour per local interface"},
       convert<LldpcliText, parse_lldpcli_text>},
      {{"lspci", "lspci -vvv [-nn] [-s BDF]: devices, PCIe LnkCap/LnkSta GT/s, width, Gbit/s, VPD"},
       convert<LspciOutput, parse_lspci>},
      {{"dmesg", "dmesg [-T] / kern.log: kernel lines; link, PCIe bandwidth, AER, driver errors"},
       convert<KernelLog, parse_dmesg>},
      {{"nccl-log", "NCCL_DEBUG=INFO job log: HCAs per host, channel transports, GDR, env, WARNs"},
       convert<NcclLog, parse_nccl_log>},
      {{"sonic-pfcwd-stats", "SONiC show pfcwd stats|config: storms, ok/drop per queue, actions"},
       convert<SonicPfcwd, parse_sonic_pfcwd_stats>},
      {{"ibnetdiscover", "ibnetdiscover [-p]: nodes, GUIDs, LIDs, links with width/speed, ports"},
       convert<IbNetDiscover, parse_ibnetdiscover>},
      {{"iblinkinfo", "iblinkinfo [-S <guid>|-l]: per port width, speed, state, remote end"},
       convert<IbLinkInfo, parse_iblinkinfo>},
      {{"perfquery", "perfquery [-x|-E|-l] <lid> <port>: PMA counters, merged -x/plain, saturated"},
       convert<Perfquery, parse_perfquery>},
      {{"ibqueryerrors", "ibqueryerrors: ports with error counters over threshold, summary"},
       convert<IbQueryErrors, parse_ibqueryerrors>},
      {{"sminfo", "sminfo: subnet manager LID, GUID, priority, state, activity count"},
       convert<SmInfo, parse_sminfo>},
      {{"ibnodes", "ibnodes / ibswitches / ibhosts: node type, GUID, ports, description, LID"},
       convert<IbNodes, parse_ibnodes>},
      {{"ibdiagnet-db-csv",
        "ibdiagnet2.db_csv: every section (NODES, PORTS, LINKS, SM_INFO, PM_INFO, PM_DELTA typed)"},
       convert<IbdiagDbCsv, parse_ibdiagnet_db_csv>},
      {{"ibdiagnet-pm", "ibdiagnet2.pm: PMA counters per port (name=value blocks)"},
       convert<IbdiagPm, parse_ibdiagnet_pm>},
      {{"ibdiagnet-net-dump",
        "ibdiagnet2.net_dump: per switch port state, width, speed, MTU, FEC, neighbour"},
       convert<IbdiagNetDump, parse_ibdiagnet_net_dump>},
      {{"ibdiagnet-log", "ibdiagnet2.log: -E-/-W- lines by stage, stage summary, master SM"},
       convert<IbdiagLog, parse_ibdiagnet_log>},
      {{"ibdiagnet-sm", "ibdiagnet2.sm: the subnet managers found, master and standby"},
       convert<IbdiagSmReport, parse_ibdiagnet_sm>},
  };
  return k_entries;
}

}  // namespace

const std::vector<ParserKind>& parser_kinds() {
  static const std::vector<ParserKind> k_kinds = [] {
    std::vector<ParserKind> kinds;
    for (const auto& entry : entries()) {
      kinds.push_back(entry.kind);
    }
    return kinds;
  }();
  return k_kinds;
}

bool is_parser_kind(std::string_view kind) {
  const auto& all = entries();
  return std::any_of(all.begin(), all.end(),
                     [kind](const Entry& e) { return e.kind.name == kind; });
}

Result<nlohmann::json> parse_to_json(std::string_view kind, std::string_view text) {
  for (const auto& entry : entries()) {
    if (entry.kind.name == kind) {
      return entry.convert(text);
    }
  }
  return make_error(ErrorCode::InvalidArgument, "unknown parser kind '" + std::string(kind) + "'");
}

}  // namespace netdoctor::parsers
