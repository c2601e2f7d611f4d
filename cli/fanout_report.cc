#include "cli/fanout_report.h"

#include <fmt/format.h>

#include <chrono>

#include "collect/fanout_limits.h"

namespace netdoctor::cli {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void prepare_fanout(collect::FanoutOptions& options, std::ostream& err, const std::string& prefix) {
  const auto wanted =
      collect::k_descriptors_reserved +
      collect::k_descriptors_per_host * static_cast<std::uint64_t>(std::max(options.parallel, 1));
  const auto fit = collect::fit_parallel(options.parallel, collect::raise_open_files_limit(wanted));
  if (!fit.note.empty()) {
    err << prefix << ": " << fit.note << "\n";
  }
  options.parallel = fit.parallel;
  collect::tune_allocator_for_fanout(static_cast<int>(collect::merge_threads(options)));
}

FanoutReport::FanoutReport(std::ostream& err, std::string prefix, std::size_t total)
    : m_err(err), m_prefix(std::move(prefix)), m_counts(total, now_s()) {}

collect::ProgressSink FanoutReport::sink() {
  return [this](const collect::HostOutcome& outcome, std::size_t, std::size_t) {
    for (const auto& line : m_counts.finished(outcome, now_s())) {
      m_err << m_prefix << ": " << line << "\n";
    }
  };
}

void FanoutReport::finish() {
  m_err << m_prefix << ": " << m_counts.counts_line() << "\n";
  if (m_counts.failed() == 0) {
    return;
  }
  m_err << fmt::format("{}: left out {} host(s):\n", m_prefix, m_counts.failed());
  for (const auto& line : m_counts.left_out()) {
    m_err << m_prefix << ":   " << line << "\n";
  }
}

}  // namespace netdoctor::cli
