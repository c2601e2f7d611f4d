// What a person sees while a fan-out runs, the same for `collect --hosts` and
// `diagnose --hosts`: "<prefix>: 412/1024 hosts done, 3 failed, 609 pending (slowest so far
// node0097 12.4s)" at most every half second, a line for each host that fails as it fails, the
// counts at the end, and the hosts left out with their reasons. Also readies the process for
// the fan-out (collect/fanout_limits.h) and says when --parallel had to be lowered.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "collect/fanout.h"
#include "collect/fanout_progress.h"

namespace netdoctor::cli {

// Raises the open-file limit as far as `options.parallel` needs, lowers options.parallel when
// the limit still does not allow it (saying so on `err`, after `prefix`), and tunes the
// allocator for the worker threads.
void prepare_fanout(collect::FanoutOptions& options, std::ostream& err, const std::string& prefix);

class FanoutReport {
 public:
  // `prefix` starts every line ("netdoctor collect").
  FanoutReport(std::ostream& err, std::string prefix, std::size_t total);

  // For fan_out(): the failure lines and the rate-limited counts line.
  collect::ProgressSink sink();
  // The final counts line, then the hosts left out (at most 20 named).
  void finish();

  const collect::FanoutProgress& counts() const { return m_counts; }

 private:
  std::ostream& m_err;
  std::string m_prefix;
  collect::FanoutProgress m_counts;
};

}  // namespace netdoctor::cli
