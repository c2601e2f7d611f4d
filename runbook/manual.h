// The by-hand knowledge behind each probe, from its kb entry (kb/probes/<probe-id>.toml): the
// commands a person runs on a host or a switch to see what the probe sees, the window over
// which to read them, what a healthy fleet shows, and what to look for per signal. Building it
// checks every command against the known command table (tool, flags, the side it runs on) and
// its <placeholders>; errors name file:line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kb/probe_entry.h"
#include "probes/probe.h"
#include "runbook/known_commands.h"

namespace netdoctor::runbook {

struct ManualCommand {
  Side side = Side::Host;
  std::string run;    // the command line; <placeholders> and {prio} are filled when shown
  std::string shows;  // which counters / fields to read in its output
  int line = 0;
  std::string fabric = {};  // "ib", "roce", or "" for either (kb::EntryCommand::fabric)
};

// What a person looks for to see a signal, and which command shows it: the kb entry's own
// description of the signal (look_for, command), read as it is.
using SignalReading = kb::SignalEntry;

struct ProbeManual {
  std::string probe;
  std::string title;
  std::string window;   // how to turn reads into a rate: how many reads, how far apart
  std::string healthy;  // what a healthy fleet shows
  std::vector<ManualCommand> commands;
  std::vector<SignalReading> readings;  // one per signal of the probe
  std::string file;

  const SignalReading* reading(std::string_view signal) const;
};

// The placeholders a command may carry: a person fills them in, the annotated runbook fills
// them from the culprit's entities.
const std::vector<std::string>& known_placeholders();

// Fills a probe's texts for people: {prio} with the RoCE priority and {name} with the value of
// the probe's (or the fleet's) threshold as `values` has it, written in its unit (a fraction
// as a percentage).
class TextFiller {
 public:
  explicit TextFiller(int roce_priority, const kb::ProbeEntrySet* entries = nullptr,
                      probes::ThresholdBook values = {});
  std::string operator()(std::string_view text, std::string_view probe) const;
  int roce_priority() const { return m_roce_priority; }

 private:
  int m_roce_priority;
  const kb::ProbeEntrySet* m_entries;
  probes::ThresholdBook m_values;
};

// One probe's manual from its entry, each command checked.
Result<ProbeManual> manual_of(const kb::ProbeEntry& entry);
// Every probe's text filled: the manual as a person reads it.
ProbeManual filled(const ProbeManual& manual, const TextFiller& fill);

// The kinds of fabric a runbook can be written for: "" (either: every command), "ib", "roce".
bool is_fabric_kind(std::string_view fabric);

// The manual for one kind of fabric: the commands marked for the other kind are left out, and
// a signal shown by one of them is shown by the first command kept for this kind instead
// (its counterpart: perfquery for ethtool -S), or by none. A manual whose every command is for
// the other kind (a probe of that fabric only) is kept whole. `fabric` "" keeps everything.
ProbeManual for_fabric(const ProbeManual& manual, std::string_view fabric);

class ManualSet {
 public:
  static Result<ManualSet> from_entries(const kb::ProbeEntrySet& entries);

  const ProbeManual* find(std::string_view probe) const;
  const std::vector<ProbeManual>& manuals() const { return m_manuals; }

 private:
  std::vector<ProbeManual> m_manuals;
};

}  // namespace netdoctor::runbook
