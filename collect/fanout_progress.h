// What a person sees while `collect --hosts` runs over many hosts: one counts line, rate-limited,
// "412/1024 hosts done, 3 failed, 609 pending (slowest so far node0097 12.4s)", a line for each
// host that failed as it fails, and at the end the hosts left out with their reasons. Kept apart
// from the CLI so that the counts can be checked without a terminal or a clock.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "collect/fanout.h"

namespace netdoctor::collect {

class FanoutProgress {
 public:
  // `total` hosts; the counts line is printed at most every `min_interval_s` seconds of the
  // clock the caller passes to finished() (`start_s` is when the fan-out began on it).
  FanoutProgress(std::size_t total, double start_s, double min_interval_s = 0.5);

  // Records a finished host at `now_s`; returns the lines to print now (without a prefix): the
  // host's own line when it failed, and the counts line when the interval has passed since the
  // last one. The counts line of the last host is left to counts_line().
  std::vector<std::string> finished(const HostOutcome& outcome, double now_s);

  // "412/1024 hosts done, 3 failed, 609 pending (slowest so far node0097 12.4s)".
  std::string counts_line() const;
  // The hosts left out, "node0042: timed out after 300s ...", in the order they finished, at
  // most `max_named` of them and then "... and N more (see netdoctor_collect.log)".
  std::vector<std::string> left_out(std::size_t max_named = 20) const;

  std::size_t done() const { return m_done; }
  std::size_t failed() const { return m_failed.size(); }
  std::size_t pending() const { return m_total - m_done - m_failed.size(); }

 private:
  std::size_t m_total;
  double m_min_interval_s;
  double m_last_line_s;
  std::size_t m_done = 0;
  std::vector<std::pair<std::string, std::string>> m_failed;  // host, why: small, kept
  std::string m_slowest_host;
  double m_slowest_s = -1.0;
};

}  // namespace netdoctor::collect
