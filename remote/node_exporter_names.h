// node_exporter's names and the files of a capture they were read from: each infiniband and
// netdev/netclass series' sysfs file (procfs sysfs/class_infiniband.go, node_exporter's netdev and
// netclass collectors) and how its value is written there, and the ethtool collector's renaming
// of `ethtool -S` stats. Tables only; remote/prometheus_host_bundle.cc lays the files out.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace netdoctor::remote {

// Where a series' file lives: under an RDMA device, one of its ports, or a netdev.
enum class SysfsScope { IbDevice, IbPort, Netdev };

// A gauge or counter series -> one file under its scope's directory.
struct SysfsValueFile {
  SysfsScope scope;
  std::string_view suffix;  // after node_infiniband_ / node_network_
  std::string_view file;    // relative to the port or netdev directory: "counters/port_rcv_data"
  std::string (*text)(double value);  // the file's content
};

// An info series' label -> one file holding the label's value.
struct SysfsLabelFile {
  SysfsScope scope;
  std::string_view suffix;
  std::string_view label;
  std::string_view file;
};

// The file `metric` fills; nullptr when it fills none.
const SysfsValueFile* find_sysfs_value_file(std::string_view metric);
// The files `metric`'s labels fill (the info series); empty when none.
std::vector<const SysfsLabelFile*> find_sysfs_label_files(std::string_view metric);

// node_exporter's ethtool collector renames stats (rx -> received, tx -> transmitted, the
// seven netdev basics with a _total suffix); this undoes it: "node_ethtool_received_prio3_pause"
// -> "rx_prio3_pause". nullopt when `metric` is not a node_ethtool_ stat.
std::optional<std::string> ethtool_stat_from_metric(std::string_view metric);
// The other way: the series name node_exporter gives `stat` ("rx_prio3_pause" ->
// "node_ethtool_received_prio3_pause"); nullopt when the name holds characters the collector
// sanitises (it could not be told back).
std::optional<std::string> ethtool_metric_from_stat(std::string_view stat);

// Every node_infiniband_ and node_network_ name the tables above read; of the counter files'
// series (counters/, hw_counters/, statistics/: model/counters.tsv maps those, the loader reads
// the rest), when `counter_wanted` is given, only those whose file it accepts.
std::vector<std::string> sysfs_metric_names(
    const std::function<bool(std::string_view file)>& counter_wanted = {});

}  // namespace netdoctor::remote
