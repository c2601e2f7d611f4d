// Prometheus series -> a bundle (spec/bundle.md), so that the existing loader, counter table and
// probes apply unchanged. A series belongs to the machine its host label ("instance" by default)
// names without its ":port"; a switch or LLDP series to the one its `switch` label names when it
// has one (snmp_exporter's instance is the target address). A machine with any switch series
// (remote/prometheus_switch_bundle.h: IF-MIB, PFC, queue counters) is a switch and becomes
// switches/<name>/<sample>/ with SONiC command outputs; every other one a host
// (remote/prometheus_host_bundle.h). Every distinct point time is one sample, shared by all
// machines. docs/prometheus.md lists the names.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "remote/bundle_files.h"
#include "remote/prometheus_api.h"
#include "remote/prometheus_layout.h"

namespace netdoctor::remote {

struct PromLayoutOptions {
  std::string host_label = "instance";
  std::string switch_label = "switch";  // on switch and LLDP series: names their machine
  std::string source = "prometheus";    // names the server in problems
};

BundleFiles prometheus_to_bundle(const std::vector<PromSeries>& series,
                                 const PromLayoutOptions& options = {});

// The machine a series belongs to (the rule above); empty when no label names a usable one.
std::string machine_of(const PromSeries& series, const PromLayoutOptions& options);

// The problems for series left out: `unnamed` without a usable machine label, and those whose
// labels were not plain names (`left_out`).
void add_left_out_problems(std::size_t unnamed, const LeftOut& left_out,
                           const PromLayoutOptions& options, std::vector<Error>& problems);

// Receives each file of a bundle being laid out: its path and content.
using FileSink = std::function<void(std::string path, std::string content)>;

// Writes `machines` under root/<machine>/<sample>/ (root "hosts" or "switches"), each sample
// directory named by `names` (point time -> "000"), with its captured_at.
void emit_machine_files(std::string_view root, MachineFiles& machines,
                        const std::map<double, std::string>& names, const FileSink& sink);

// "gpu-a001:9100" -> "gpu-a001", "[fe80::1]:9100" -> "fe80__1"; characters a directory name
// should not hold become '_'. Empty for an empty label.
std::string host_from_instance(std::string_view instance);

}  // namespace netdoctor::remote
