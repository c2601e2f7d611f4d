// The host half of prometheus_to_bundle: node_exporter's series become the files a capture
// holds (spec/bundle.md), so that the loader, counter table and probes apply unchanged. Its
// infiniband collector becomes sysfs .../ports/<p>/counters|hw_counters files, its ethtool
// collector `ethtool -S` / `ethtool -i`, its netdev and netclass collectors
// /sys/class/net/<if>/ files; the textfile series netdoctor_rdma_link_info becomes
// `rdma link show` and a host's LLDP neighbour series `lldpcli show neighbors -f json`.
// docs/prometheus.md lists every name.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/result.h"
#include "remote/prometheus_api.h"
#include "remote/prometheus_layout.h"

namespace netdoctor::remote {

class HostBundle {
 public:
  // `source` names the server in problems; refused labels are counted into `left_out`.
  HostBundle(std::string source, LeftOut& left_out);

  // A series of `host` (a plain name); names netdoctor does not read are ignored.
  void add(const std::string& host, const PromSeries& series);

  // Every host's files, and a problem for each host whose RDMA devices cannot be tied to their
  // netdevs (no netdoctor_rdma_link_info).
  MachineFiles finish(std::vector<Error>& problems);

 private:
  struct Sample {
    std::map<std::string, std::string> files;  // relative to the sample directory
    std::map<std::string, std::map<std::string, std::string>> ethtool_stats;  // netdev -> stat
    std::map<std::string, std::map<std::string, std::string>> ethtool_info;   // netdev -> labels
    std::map<std::string, std::string> rdma_links;   // "device/port" -> netdev
    std::map<std::string, LldpNeighborLabels> lldp;  // local netdev -> neighbour
  };
  void add_ethtool(const std::string& host, const PromSeries& series);
  void add_tables(const std::string& host, const PromSeries& series);
  bool safe(const std::string& label_value);

  std::string m_source;
  LeftOut& m_left_out;
  std::map<std::string, std::map<double, Sample>> m_hosts;
};

}  // namespace netdoctor::remote
