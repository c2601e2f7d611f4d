#include "collect/fanout_progress.h"

#include <fmt/format.h>

#include "collect/host_collector.h"

namespace netdoctor::collect {

FanoutProgress::FanoutProgress(std::size_t total, double start_s, double min_interval_s)
    : m_total(total), m_min_interval_s(min_interval_s), m_last_line_s(start_s) {}

std::vector<std::string> FanoutProgress::finished(const HostOutcome& outcome, double now_s) {
  std::vector<std::string> lines;
  if (outcome.ok) {
    ++m_done;
  } else {
    m_failed.emplace_back(outcome.host, outcome.error);
    lines.push_back(fmt::format("[{}/{}] {}: FAILED: {}", m_done + m_failed.size(), m_total,
                                outcome.host, outcome.error));
  }
  if (outcome.seconds > m_slowest_s) {
    m_slowest_s = outcome.seconds;
    m_slowest_host = outcome.host;
  }
  if (pending() > 0 && now_s - m_last_line_s >= m_min_interval_s) {
    m_last_line_s = now_s;
    lines.push_back(counts_line());
  }
  return lines;
}

std::string FanoutProgress::counts_line() const {
  std::string line = fmt::format("{}/{} hosts done, {} failed, {} pending", m_done, m_total,
                                 m_failed.size(), pending());
  if (!m_slowest_host.empty()) {
    line += fmt::format(" (slowest so far {} {:.1f}s)", m_slowest_host, m_slowest_s);
  }
  return line;
}

std::vector<std::string> FanoutProgress::left_out(std::size_t max_named) const {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < m_failed.size() && i < max_named; ++i) {
    lines.push_back(fmt::format("{}: {}", m_failed[i].first, m_failed[i].second));
  }
  if (m_failed.size() > max_named) {
    lines.push_back(
        fmt::format("... and {} more (see {})", m_failed.size() - max_named, k_collect_log));
  }
  return lines;
}

}  // namespace netdoctor::collect
