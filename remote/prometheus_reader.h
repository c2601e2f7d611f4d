// Reads a fabric from Prometheus in bounded batches, laid out as a bundle
// (remote/prometheus_bundle.h) that the usual loader reads:
//   1. the machines: the host label's values over the host series, and the switches' names
//      (their `switch` label, else their host label) over the switch series (label values API);
//   2. one range query per group of at most `machines_per_query` of them (switch groups, then
//      host groups), never one per host, switch or port, at most `queries_in_flight` at a time,
//      each asking only for the names netdoctor reads; with a queue_traffic_rule, the queues'
//      traffic series after the switch groups, for the switches that want them;
//   3. each answer read as it streams (never as one JSON document), its hosts laid out as bundle
//      files into a compact tree (`layout_threads` host groups at once), and freed once loaded.
// A batch that fails (timeout, HTTP error, refusal, answer over the size limit), warns, or leaves
// hosts without series is a problem naming its hosts; the rest goes on. No switch series is a
// problem ("switch data not available"), not a failure.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "base/result.h"
#include "remote/http_client.h"
#include "remote/prometheus_switch_bundle.h"

namespace netdoctor::remote {

struct PrometheusRequest {
  std::string url;             // server base URL: "http://prom:9090" (a path prefix is kept)
  double at = 0.0;             // Unix seconds: the end of the window
  double window = 300.0;       // seconds
  std::optional<double> step;  // seconds between samples; default: the window (two samples)
  std::string selector;        // extra label matchers for every query: job="node",cluster="a"
  std::string host_label = "instance";
  std::chrono::milliseconds timeout{30'000};  // each query
  // The `ethtool -S` stats to ask for (model/counters.tsv's); empty: every node_ethtool_ series.
  std::vector<std::string> ethtool_stats;
  // Which sysfs counter files ("counters/port_rcv_data", "hw_counters/np_cnp_sent",
  // "statistics/rx_bytes") to ask for the series of; empty: all of them.
  std::function<bool(std::string_view file)> sysfs_counter_wanted;
  // The one priority of the switches' per-priority PFC series to ask for; unset: every priority.
  std::optional<int> switch_pfc_priority;
  // Which switch queue series to ask for, by the model metric each becomes; empty: all of them.
  std::function<bool(std::string_view)> switch_queue_wanted;
  // Which IF-MIB counters to ask for, by the model metric each becomes; empty: all of them.
  std::function<bool(std::string_view)> switch_counter_wanted;
  // When set, the queues' traffic series (sent packets, sent bytes) are left out of the switch
  // groups and asked for after them, for the switches with a port this wants them for given
  // its other series (diagnose: probes::probes_read_queue_traffic); unset: with the rest.
  QueueTrafficRule queue_traffic_rule;
  std::size_t machines_per_query = 128;
  std::size_t queries_in_flight = 2;
  // Host batches laid out at once, each on a thread of its own while the last is loaded; 2 is the
  // machine budget the tool is designed for.
  std::size_t layout_threads = 2;
};

// What was read, for the run's summary line.
struct PrometheusReadStats {
  std::size_t queries = 0;  // HTTP requests, discovery included
  std::size_t series = 0;
  std::size_t bytes = 0;  // answer bodies
  std::size_t hosts = 0;
  std::size_t switches = 0;
  std::size_t failed_batches = 0;
};

struct PrometheusRead {
  std::shared_ptr<const FileTree> tree;  // the bundle's files
  std::vector<Error> problems;           // per batch and per source; the rest was read
  PrometheusReadStats stats;
};

// The PromQL name regex of the host series: node_exporter's names netdoctor reads (the ethtool
// ones limited to `ethtool_stats` unless empty, the sysfs counters to those `sysfs_counter_wanted`
// accepts when given) and its textfile series.
std::string host_metric_pattern(
    const std::vector<std::string>& ethtool_stats,
    const std::function<bool(std::string_view file)>& sysfs_counter_wanted = {});

// InvalidArgument for a bad window/step; Io/Timeout/... when the machines could not be listed
// (the server did not answer); NotFound when it holds none of the series in the window.
// With a `sink`, the switches (once their groups are read) and then each batch's hosts are handed
// to it as open_bundle would capture them, and the tree holds none of them: a 4,096-host read is
// loaded a batch at a time rather than held whole. Without one, the tree holds every file (to be
// saved).
Result<PrometheusRead> read_prometheus(HttpClient& client, const PrometheusRequest& request,
                                       MachineSink* sink = nullptr);

}  // namespace netdoctor::remote
