// A simulator bundle exported as the series real exporters would have scraped from its machines,
// in OpenMetrics text for `promtool tsdb create-blocks-from openmetrics`:
//   hosts    node_exporter's infiniband, ethtool, netdev and netclass collectors, plus the
//            netdoctor_rdma_link_info and netdoctor_lldp_neighbor_info textfile series
//   switches snmp_exporter's if_mib module (IF-MIB names, ifIndex/ifName/ifDescr labels, the
//            target address as instance and a relabelled `switch` label), sonic-exporter's
//            queue series, netdoctor_switch_pfc_*_frames_total and LLDP neighbours.
// Written from the bundle's files with the parsers, independently of remote/'s own tables.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace netdoctor::testing {

struct Point {
  double time;
  double value;
};
// metric name -> label text ({a="x",b="y"}) -> points
using Exposition = std::map<std::string, std::map<std::string, std::vector<Point>>>;
using LabelList = std::vector<std::pair<std::string, std::string>>;

void add_point(Exposition& out, const std::string& metric, const LabelList& labels, double time,
               double value);

// One host sample of a bundle as node_exporter (and the textfile series) exported it at `time`.
void export_host_sample(const std::filesystem::path& dir, const std::string& host, double time,
                        Exposition& out);

// A switch's samples, in time order, exported at `times` (one per sample). Octet counters, which
// SONiC shows only as rates, are the bytes counted at the rate each sample printed over the
// seconds since the time before; with `times` just before the instants a query evaluates, the
// rate the query's points give is the one SONiC printed. `index` numbers the switch's address.
void export_switch_samples(const std::vector<std::filesystem::path>& samples,
                           const std::string& name, std::size_t index,
                           const std::vector<double>& times, Exposition& out);

std::string openmetrics(const Exposition& exposition);

// The sample directories of every machine under `root` (a bundle's hosts/ or switches/), in time
// order; empty when `root` does not exist.
std::map<std::string, std::vector<std::filesystem::path>> samples_under(
    const std::filesystem::path& root);

// A sample directory's captured_at.
double captured_at(const std::filesystem::path& sample);

}  // namespace netdoctor::testing
