// Captures this host into a bundle (spec/bundle.md): hosts/<host>/<sample>/ with the sysfs
// files and command outputs of the capture plan, one sample every `interval`.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "base/sample_source.h"
#include "base/tree_writer.h"
#include "collect/capture_plan.h"
#include "collect/fabric_collector.h"
#include "collect/verbs_source.h"

namespace netdoctor::collect {

struct CollectOptions {
  std::string host;  // the directory name under hosts/
  int samples = 1;
  std::chrono::milliseconds interval{1000};  // from the start of one sample to the next
  // Commands run at once within a sample. Above 1 the runner must be thread-safe (the live one
  // is); outputs are still written in plan order.
  int command_parallelism = 1;
  // The InfiniBand fabric views (fabric/<sample>/), captured after each host sample when
  // `fabric_runner` is set and fabric.mode says so (Auto: this host has an InfiniBand port).
  FabricOptions fabric;
  CommandRunner* fabric_runner = nullptr;
};

struct CollectReport {
  CapturePlan plan;
  std::vector<std::string> sample_names;
  std::size_t files_written = 0;
  std::size_t commands_captured = 0;
  std::size_t fabric_samples = 0;  // fabric/<sample>/ directories written
  std::size_t fabric_outputs = 0;  // fabric views and perfquery outputs written
  std::size_t fabric_failed = 0;   // fabric commands that failed (noted)
  std::vector<std::string> notes;  // every note, also given to the note sink as it happens
};

// A view of the host whose captured_at is `time`; called once per sample (and once to plan).
using SampleFactory = std::function<std::unique_ptr<SampleSource>(double time)>;
using NoteSink = std::function<void(const std::string& note)>;

// The name of the log written into every sample directory.
inline constexpr const char* k_collect_log = "netdoctor_collect.log";

// Sample directory names that sort in time order: "0".."9", or "00".."11" for 12 samples.
std::string sample_name(int index, int total);

// InvalidArgument unless `host` can be one directory name.
Status check_host_name(const std::string& host);

// The host name as the host gives it (/proc/sys/kernel/hostname, then /etc/hostname).
Result<std::string> host_name_of(const SampleSource& host);

// Fails only for bad options or when the writer fails; what could not be read or run is noted
// (in the sample's netdoctor_collect.log, the report and `on_note`) and the rest captured.
// `verbs` may be null (no libibverbs, or a fake root).
Result<CollectReport> collect_host(const CollectOptions& options, const SampleFactory& factory,
                                   const VerbsSource* verbs, Clock& clock, TreeWriter& out,
                                   const NoteSink& on_note);

// bundle.json (optional manifest of the bundle spec).
Status write_manifest(TreeWriter& out, double created_at, const std::string& notes);

}  // namespace netdoctor::collect
