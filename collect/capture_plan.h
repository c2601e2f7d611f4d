// What one host capture reads, decided once before the first sample so that every sample reads
// the same files and runs the same commands in the same order (rates need like-for-like
// samples). Discovery goes through a SampleSource: the live root or a fake tree.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/sample_source.h"
#include "collect/verbs_source.h"

namespace netdoctor::collect {

struct PlannedCommand {
  std::vector<std::string> argv;
  std::string group;  // sos_commands/<group>/
};

struct CapturePlan {
  std::vector<std::string> rdma_devices;  // sorted
  std::vector<std::string> interfaces;    // netdevs captured, sorted
  // Absolute paths, counters first, then state and configuration.
  std::vector<std::string> files;
  // Values sysfs did not give but libibverbs did, written in sysfs form (absolute path ->
  // content), so the capture reads the same either way.
  std::map<std::string, std::string> verbs_files;
  // Counter commands first (ethtool -S), then configuration.
  std::vector<PlannedCommand> commands;
  std::vector<std::string> notes;  // what discovery could not read
};

// The sos_commands group a program's output is filed under ("ethtool" -> "networking").
std::string command_group(const std::string& program);

// The netdevs captured are those of RDMA devices plus every other interface that is up
// (loopback aside). `verbs` (may be null) adds devices and ports rdma-core knows of.
CapturePlan plan_capture(const SampleSource& host, const std::vector<VerbsDevice>* verbs);

}  // namespace netdoctor::collect
