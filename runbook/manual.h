// The by-hand knowledge behind each probe (kb/manual/<probe-id>.toml, embedded at build time):
// the commands a person runs on a host or a switch to see what the probe sees, the window
// over which to read them, what a healthy fleet shows, and what to look for per signal.
// Loading validates it against the registered probes and the known command table; every
// error names file:line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kb/catalog.h"
#include "kb/known_probes.h"
#include "runbook/known_commands.h"

namespace netdoctor::runbook {

struct ManualCommand {
  Side side = Side::Host;
  std::string run;    // the command line; <placeholders> and {prio} are filled when shown
  std::string shows;  // which counters / fields to read in its output
  int line = 0;
};

struct SignalReading {
  std::string signal;
  std::string look_for;     // what in the output means this signal
  std::size_t command = 0;  // index into the manual's commands of the one that shows it
  int line = 0;
};

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

// Replaces {prio} with the RoCE priority.
std::string with_priority(std::string_view text, int roce_priority);

Result<ProbeManual> parse_manual(std::string_view text, const std::string& file,
                                 const kb::KnownProbes& probes);

class ManualSet {
 public:
  // `require_all`: every registered probe must have its manual.
  static Result<ManualSet> load(const std::vector<kb::DataFile>& files,
                                const kb::KnownProbes& probes, bool require_all = true);
  // The kb/manual/*.toml compiled into the binary.
  static Result<ManualSet> load_embedded(const kb::KnownProbes& probes);

  const ProbeManual* find(std::string_view probe) const;
  const std::vector<ProbeManual>& manuals() const { return m_manuals; }

 private:
  std::vector<ProbeManual> m_manuals;
};

std::vector<kb::DataFile> embedded_manual_files();

}  // namespace netdoctor::runbook
