// Captures the InfiniBand subnet as seen from this host (spec/bundle.md "InfiniBand fabric
// views"): fabric/<sample>/ with captured_at, the infiniband-diags views under
// sos_commands/infiniband/ and a perfquery sweep of every node ibnetdiscover found, planned by
// collect/fabric_plan.h. Every command runs through the CommandRunner (argv, its own timeout, the
// environment passed on, so LD_PRELOAD/IBSIM_SOCKNAME reach the tools).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"
#include "base/sample_source.h"
#include "base/tree_writer.h"
#include "collect/capture_plan.h"

namespace netdoctor::collect {

// Auto: capture when a port of this host's RDMA devices has link_layer InfiniBand.
enum class FabricMode { Auto, On, Off };

// One line for a person while a long sweep runs ("fabric sample 0: perfquery -x 400/2000").
using FabricProgress = std::function<void(const std::string& line)>;

struct FabricOptions {
  FabricMode mode = FabricMode::Auto;
  int parallelism = 8;               // perfquery commands at once
  CommandOptions view_command;       // each subnet-wide view (ibnetdiscover of a large subnet)
  CommandOptions perfquery_command;  // each perfquery of the sweep
  FabricProgress progress;           // may be empty
};

struct FabricSampleReport {
  std::size_t views = 0;      // view outputs written
  std::size_t perfquery = 0;  // perfquery outputs written
  std::size_t failed = 0;     // commands whose failure was noted
  std::size_t nodes = 0;      // nodes of this sample's ibnetdiscover
  std::size_t targets = 0;    // switches and HCA ports swept
  double seconds = 0.0;
  std::vector<std::string> notes;  // what failed or was skipped, also in the sample's log
};

// The name of the log written into every fabric sample directory: each failed command with its
// exit status and the end of its stderr.
inline constexpr const char* k_fabric_log = "netdoctor_collect.log";

// True when some port of the planned RDMA devices reads link_layer "InfiniBand".
bool has_infiniband_port(const SampleSource& host, const CapturePlan& plan);

// Captures fabric/<sample>/ (captured_at = `at`). A command that exits non-zero keeps its
// standard output when it printed more than its iberror line; one that printed nothing else
// (or nothing at all, whatever its exit status), timed out or is not installed is only noted.
// Without infiniband-diags nothing but the log is written. Fails only when the writer fails.
Result<FabricSampleReport> capture_fabric_sample(const std::string& sample, double at,
                                                 CommandRunner& runner,
                                                 const FabricOptions& options, TreeWriter& out);

}  // namespace netdoctor::collect
