// The CLI side of remote sources: `diagnose --prometheus URL` (a bundle read from Prometheus)
// and `collect --switches FILE` (switch APIs polled into a bundle). Options are declared here
// so cmd_diagnose.cc and cmd_collect.cc only wire them.
#pragma once

#include <optional>
#include <string>

#include "base/bundle.h"
#include "base/result.h"
#include "cli/command.h"

namespace netdoctor::cli {

struct PrometheusArgs {
  std::string url;
  std::string at;  // Unix seconds or ISO 8601; default now
  std::string window = "5m";
  std::string step;      // default: the window (two samples)
  std::string selector;  // extra label matchers: job="node"
  std::string host_label = "instance";
  std::string ca_file;
  bool insecure = false;
  std::optional<double> timeout_s;  // unset: the prometheus.timeout setting
  std::size_t batch = 128;          // hosts (or switches) per query
  std::string save_bundle;          // also write the bundle read (directory or .tar.gz)
  // The RoCE priority the diagnosis reads (diagnose sets it): the other priorities' per-priority
  // stats are not fetched unless a probe reads them there (probes/counters_read.h), or
  // --save-bundle keeps a record others may read with another priority. Unset: every priority.
  std::optional<int> roce_priority;
};

void add_prometheus_options(CLI::App& command, PrometheusArgs& args);

// The bundle read from Prometheus; `source` gets the redacted URL for records and messages.
// InvalidArgument for a bad --at/--window/--step (a usage error); other errors as the reader's.
// With a `sink` (and no --save-bundle, which needs every file), the machines go to it batch by
// batch and the bundle returned holds the rest: problems, no machines.
Result<Bundle> bundle_from_prometheus(const PrometheusArgs& args, Context& context,
                                      std::string& source, MachineSink* sink = nullptr);

struct SwitchArgs {
  std::string list;         // --switches FILE
  std::string credentials;  // --credentials FILE (mode 0600); else NETDOCTOR_SWITCH_CREDENTIALS
  std::string ca_file;
  bool insecure = false;
  std::optional<double> timeout_s;  // per request; unset: the switches.timeout setting
};

void add_switch_options(CLI::App& command, SwitchArgs& args);

// `collect --switches`: `samples` rounds `interval_s` apart into `out` (directory or .tar.gz).
void run_switch_collect(const SwitchArgs& args, const std::string& out, int samples,
                        double interval_s, Context& context);

}  // namespace netdoctor::cli
