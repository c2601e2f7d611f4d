// Prometheus series -> a bundle (spec/bundle.md), so that the existing loader, counter table and
// probes apply unchanged: node_exporter's infiniband collector becomes sysfs
// .../ports/<p>/counters|hw_counters files, its ethtool collector `ethtool -S` / `ethtool -i`
// outputs, its netdev/netclass collectors /sys/class/net/<if>/ files, and the optional
// netdoctor_rdma_link_info series `rdma link show` (the RDMA device <-> netdev tie that
// node_exporter does not export). Every distinct point time is one sample; a host is the
// host label ("instance" by default) without its ":port". docs/prometheus.md lists the names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "remote/bundle_files.h"
#include "remote/prometheus_api.h"

namespace netdoctor::remote {

struct PromLayoutOptions {
  std::string host_label = "instance";
  std::string source = "prometheus";  // names the server in problems
};

BundleFiles prometheus_to_bundle(const std::vector<PromSeries>& series,
                                 const PromLayoutOptions& options = {});

// node_exporter's ethtool collector renames stats (rx -> received, tx -> transmitted, the
// seven netdev basics with a _total suffix); this undoes it: "node_ethtool_received_prio3_pause"
// -> "rx_prio3_pause". nullopt when `metric` is not a node_ethtool_ stat.
std::optional<std::string> ethtool_stat_from_metric(std::string_view metric);

// "gpu-a001:9100" -> "gpu-a001", "[fe80::1]:9100" -> "fe80__1"; characters a directory name
// should not hold become '_'. Empty for an empty label.
std::string host_from_instance(std::string_view instance);

}  // namespace netdoctor::remote
