// The sweep's thresholds (kb/sweep/sweep.toml: each with its unit, why and source), read from
// the data compiled into the binary.
#pragma once

#include <string>

#include "base/result.h"

namespace netdoctor::sweep {

struct Thresholds {
  double rule = 0.0;                 // a run this share below its expectation is slow
  double perftest_efficiency = 0.0;  // healthy ib_write_bw / the slower end's line rate
  double nccl_efficiency = 0.0;      // healthy busbw / the per-host line rate
  double busy_gbps = 0.0;            // a NIC moving more than this is in use
  double bisect_below_share = 0.0;   // a half this share of the other is the slow one
};

// Parse naming kb/sweep/sweep.toml:line for a missing or unknown threshold.
Result<Thresholds> load_thresholds();

}  // namespace netdoctor::sweep
