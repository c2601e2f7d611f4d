// What a sweep in progress keeps: the report being written, the time spent against the budget,
// the round number, and whether Ctrl-C asked it to stop. Shared by the pair and collective
// searches; one thread at a time.
#pragma once

#include <string>

#include "base/clock.h"
#include "sweep/remote.h"
#include "sweep/sweep.h"

namespace netdoctor::sweep {

class SweepState {
 public:
  SweepState(const SweepOptions& options, CommandRunner& runner, Clock& clock,
             const ProgressSink& progress);

  // False (and the reason recorded once) when Ctrl-C was pressed or a step expected to take
  // `estimate_s` would end past the budget.
  bool may_start(double estimate_s);
  // True (and recorded once in the report) when Ctrl-C was pressed: also after the last wave,
  // whose tests it cut although nothing was scheduled after them.
  bool check_interrupt();
  void spend(double seconds) { m_report.wall_s += seconds; }
  int next_round() { return ++m_report.rounds; }
  void say(const std::string& line) const;
  void note(std::string text) { m_report.notes.push_back(std::move(text)); }
  // A run's slowness judged against its expectation (the 5 % rule).
  bool below(double measured, double expected) const;

  const SweepOptions& options() const { return m_options; }
  const Remote& remote() const { return m_remote; }
  Clock& clock() { return m_clock; }
  SweepReport& report() { return m_report; }
  bool stopped() const { return m_report.budget_exhausted || m_report.interrupted; }

 private:
  const SweepOptions& m_options;
  Remote m_remote;
  Clock& m_clock;
  const ProgressSink& m_progress;
  SweepReport m_report;
};

}  // namespace netdoctor::sweep
