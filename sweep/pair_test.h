// One wave of perftest pairs: every server started first (each waits for its one client),
// then, after the head start, every client; the client's report is the measurement
// (docs/sweep.md: ib_write_bw -F --report_gbits -D SECS, its own TCP port per pair).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "sweep/inventory.h"
#include "sweep/remote.h"

namespace netdoctor::sweep {

struct PairSpec {
  const Nic* client = nullptr;
  const Nic* server = nullptr;
  int tcp_port = 18515;
};

struct PerftestSettings {
  int seconds = 5;
  std::optional<int> gid_index;
  std::chrono::seconds timeout{60};  // the remote `timeout`; the launcher gets 15 s more
  std::chrono::milliseconds head_start{1'000};
};

struct PairOutcome {
  std::optional<double> gbps;       // the client's BW average
  std::string failure;              // empty when measured
  bool client_unreachable = false;  // timed out or could not be reached
  bool server_unreachable = false;
  double seconds = 0.0;  // the client's run
};

// The remote argv of one side: the server's when `server_host` is empty.
std::vector<std::string> perftest_argv(const Nic& nic, const PerftestSettings& settings,
                                       int tcp_port, const std::string& server_host);

struct WaveResult {
  std::vector<PairOutcome> outcomes;  // in the order of `pairs`
  double seconds = 0.0;               // head start + the longest client
};

WaveResult run_pair_wave(const std::vector<PairSpec>& pairs, const PerftestSettings& settings,
                         const Remote& remote, Clock& clock);

}  // namespace netdoctor::sweep
