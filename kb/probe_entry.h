// A probe's entry in the knowledge base (kb/probes/<probe-id>.toml, embedded at build time):
//   [[threshold]]  every number the probe judges by: value, unit, why, source (the article, a
//                  vendor document, physics), and the site-configuration key that tunes it;
//   [[signal]]     what each of its signals means, what a person looks for to see it, and how
//                  it weighs on root causes ([[signal.supports]] / [[signal.against]]);
//   the manual     title, window, what a healthy fleet shows, the [[command]]s a person runs.
// kb/probes/fleet.toml holds the thresholds every probe shares, and nothing else.
//
// Loading checks the entry against the registered probe both ways (every declared signal and
// threshold has its table, nothing undeclared), every {placeholder} in its texts, and every
// value against its unit; errors name file:line. The runbook adds the check of each command's
// tool and flags (runbook/manual.h); the catalog checks the cause ids (kb/catalog.h).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "kb/known_probes.h"

namespace netdoctor::kb {

using DataFile = std::pair<std::string, std::string>;  // {file name, text}

// The kinds of value a threshold's unit implies.
enum class ThresholdKind {
  Fraction,  // unit "fraction": 0..1, written 0.05 or "5%" in a site file
  Strength,  // unit "strength": a finding's strength, 0..1
  Count,     // unit "count": a whole number
  Amount,    // any other unit ("frames/s", "seconds", "ratio"...): a non-negative number
};
ThresholdKind threshold_kind(std::string_view unit);

struct Threshold {
  std::string probe;  // the probe id, or "fleet"
  std::string name;   // snake_case: "min_pause_rate"
  double value = 0.0;
  std::string unit;
  std::string why;
  std::string source;
  std::string setting;  // the site-configuration key: "<probe>.<name>" unless the entry says
  int line = 0;
  std::string file;
  ThresholdKind kind() const { return threshold_kind(unit); }
};

// How one signal weighs on one cause.
struct CauseWeight {
  std::string cause;
  double weight = 0.0;    // > 0; multiplied by the finding's strength (0..1)
  std::string note;       // why this signal bears on the cause
  bool localizes = true;  // its entities name the culprit (supports only; false for victims)
  int line = 0;
};

struct EntryCommand {
  std::string side;  // "host" or "switch"
  // The kind of fabric it applies to: "ib" (InfiniBand) or "roce"; "" for either. A runbook
  // or explanation for one kind of fabric shows only the commands that fit it.
  std::string fabric;
  std::string run;    // the command line; <placeholders> and {placeholders} filled when shown
  std::string shows;  // which counters / fields to read in its output
  int line = 0;
};

struct SignalEntry {
  std::string id;
  std::string means;        // what the finding says about the fabric
  std::string look_for;     // what in a command's output shows it
  std::size_t command = 0;  // index of the command that shows it
  std::vector<CauseWeight> supports;
  std::vector<CauseWeight> against;
  int line = 0;
};

struct ProbeEntry {
  std::string probe;
  std::string title;
  std::string window;   // how to turn reads into a rate: how many reads, how far apart
  std::string healthy;  // what a healthy fleet shows
  std::vector<Threshold> thresholds;
  std::vector<EntryCommand> commands;
  std::vector<SignalEntry> signals;  // in the probe's signal order
  std::string file;

  const Threshold* threshold(std::string_view name) const;
  const SignalEntry* signal(std::string_view id) const;
};

// The id under which the shared thresholds are kept (the file kb/probes/fleet.toml).
inline constexpr std::string_view k_fleet_entry = "fleet";

// Parses one probe's entry against its registration.
Result<ProbeEntry> parse_probe_entry(std::string_view text, const std::string& file,
                                     const KnownProbes& probes);
// Parses kb/probes/fleet.toml: `[[threshold]]` tables only.
Result<std::vector<Threshold>> parse_fleet_entry(std::string_view text, const std::string& file);

class ProbeEntrySet {
 public:
  // `require_all`: every registered probe must have its entry, and fleet.toml must be there.
  static Result<ProbeEntrySet> load(const std::vector<DataFile>& files, const KnownProbes& probes,
                                    bool require_all = true);
  // The kb/probes/*.toml compiled into the binary.
  static Result<ProbeEntrySet> load_embedded(const KnownProbes& probes);

  const ProbeEntry* find(std::string_view probe) const;
  const std::vector<ProbeEntry>& entries() const { return m_entries; }  // registry order
  const std::vector<Threshold>& fleet_thresholds() const { return m_fleet; }
  // Every threshold: the shared ones first, then each probe's in registry order.
  std::vector<const Threshold*> all_thresholds() const;

 private:
  std::vector<ProbeEntry> m_entries;
  std::vector<Threshold> m_fleet;
};

// Replaces {prio} with the RoCE priority and {name} with the value of the probe's (or the
// fleet's) threshold `name`, as `value_of` gives it; anything else is left as written.
std::string fill_placeholders(
    std::string_view text, int roce_priority,
    const std::function<std::optional<std::string>(std::string_view)>& value_of);

}  // namespace netdoctor::kb
