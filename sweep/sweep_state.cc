#include "sweep/sweep_state.h"

#include <fmt/format.h>

namespace netdoctor::sweep {

SweepState::SweepState(const SweepOptions& options, CommandRunner& runner, Clock& clock,
                       const ProgressSink& progress)
    : m_options(options), m_clock(clock), m_progress(progress) {
  m_remote.runner = &runner;
  m_remote.launcher = options.launcher;
  m_remote.pdsh_rcmd = options.pdsh_rcmd;
  m_remote.parallel = std::max(options.parallel, 1);
  // Discovery and counter reads are short: a host that takes longer is not fit to test.
  m_remote.timeout =
      std::min<std::chrono::milliseconds>(options.command_timeout, std::chrono::seconds(20));
  m_remote.cancel = options.stop;
  m_report.budget_s = static_cast<double>(options.budget.count());
  m_report.thresholds = options.thresholds;
  m_report.started_at = clock.now_unix();
}

bool SweepState::may_start(double estimate_s) {
  if (stopped()) {
    return false;
  }
  if (check_interrupt()) {
    return false;
  }
  if (m_report.wall_s + estimate_s > m_report.budget_s) {
    m_report.budget_exhausted = true;
    note(
        fmt::format("budget of {:.0f} s reached after {:.0f} s: the next step (about {:.0f} s) "
                    "was not started",
                    m_report.budget_s, m_report.wall_s, estimate_s));
    return false;
  }
  return true;
}

bool SweepState::check_interrupt() {
  if (!m_report.interrupted && m_options.stop != nullptr && m_options.stop->load()) {
    m_report.interrupted = true;
    note("interrupted: no test was started after Ctrl-C");
  }
  return m_report.interrupted;
}

void SweepState::say(const std::string& line) const {
  if (m_progress) {
    m_progress(line);
  }
}

bool SweepState::below(double measured, double expected) const {
  return expected > 0.0 && measured < expected * (1.0 - m_options.thresholds.rule);
}

}  // namespace netdoctor::sweep
