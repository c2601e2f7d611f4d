// The result of a diagnosis: one report model, rendered as JSON (spec/diagnosis.md, a
// contract), text for a person under pressure, or Markdown for a ticket.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace netdoctor::engine {

enum class Verdict { RootCauseFound, Inconclusive, Healthy };
const char* to_string(Verdict verdict);  // "root-cause-found", "inconclusive", "healthy"

struct EvidenceItem {
  std::string probe;    // probe id
  std::string signal;   // finding signal
  std::string summary;  // with numbers and the fleet's normal
  double weight = 0.0;  // score contribution (negative: argues against)
  std::optional<double> value;
  std::optional<double> fleet_normal;
  std::string unit;
};

// The single next change to try, one variable at a time, and how to know it worked.
struct NextChange {
  std::string entity;
  std::string variable;
  std::string from;
  std::string to;
  std::string action;  // what to do, with the command where the field has one
  std::string verify;  // which probe / perftest to re-run and what value counts as fixed
};

// One interval of a long capture (three samples or more) as a cause's probes saw it.
struct IntervalReading {
  std::size_t interval = 0;  // 1-based: from sample interval-1 to sample interval
  double from = 0.0;         // seconds since the epoch, the fleet's median clock
  double to = 0.0;
  bool shows = false;           // a probe's finding for the cause's entities holds here
  std::optional<double> value;  // its deciding figure (a rate over this interval) when it shows
  std::string unit;
};

// When a cause began: the first interval of the capture where it shows (engine/onset.h).
struct Onset {
  std::size_t interval = 0;   // 1-based; 1 = it was there from the capture's first interval
  std::size_t intervals = 0;  // how many the capture has
  double from = 0.0;          // when that interval began and ended
  double to = 0.0;
  bool before_capture() const { return interval == 1; }
  std::vector<IntervalReading> timeline;  // every interval, in order
};

struct RankedCause {
  std::string id;  // spec cause id
  std::string title;
  double confidence = 0.0;            // 0..1
  std::vector<std::string> entities;  // most specific first
  std::vector<EvidenceItem> evidence;
  std::vector<std::string> remediation;
  std::optional<NextChange> next_change;
  std::optional<Onset> onset;  // captures of three samples or more, from the probes that count
};

struct ProbeRun {
  std::string id;
  std::string status;  // "ran", "skipped", "failed"
  std::string reason;
  double duration_ms = 0.0;
};

struct ScoreMove {  // for --explain: every movement of a cause's score
  std::string cause;
  std::string probe;
  std::string signal;
  double delta = 0.0;
  std::string why;
};

// A site setting that differed from netdoctor's default when the diagnosis ran (set by the
// CLI from its layered configuration), so the result can be reproduced.
struct SettingUsed {
  std::string key;     // "baseline.threshold"
  std::string value;   // "50%"
  std::string origin;  // "/etc/netdoctor/netdoctor.toml:3", "--set", "--threshold"
};

struct Diagnosis {
  std::string symptom;
  Verdict verdict = Verdict::Inconclusive;
  std::vector<RankedCause> causes;         // highest confidence first; empty when healthy
  std::vector<ProbeRun> probes;            // in run order
  std::vector<std::string> ruled_out;      // what was checked and looked normal
  std::vector<std::string> data_problems;  // files that could not be read, and why
  std::vector<ScoreMove> explain;
  std::vector<SettingUsed> settings;  // non-default settings only; empty with the defaults
};

}  // namespace netdoctor::engine
