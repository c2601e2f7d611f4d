// SampleSource: one capture of one machine (a "sample"): its files by absolute path
// ("/sys/class/net/eth0/mtu"), its command outputs by command line, and when it was taken.
// A bundle sample, an sos report and the live host all implement it; probes and loaders
// read nothing any other way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/command_runner.h"
#include "base/file_tree.h"
#include "base/result.h"

namespace netdoctor {

class SampleSource {
 public:
  virtual ~SampleSource() = default;

  // A file by its absolute path on the machine. Outcomes are kept distinct: NotFound (not
  // captured / feature absent), PermissionDenied, Io, Refused.
  virtual Result<std::string> read_file(std::string_view abs_path) const = 0;
  virtual Result<std::vector<DirEntry>> list_dir(std::string_view abs_path) const = 0;

  // The standard output of a command, e.g. {"ethtool", "-S", "ens1f0np0"}. NotFound when it
  // was not captured (bundle) or the tool is not installed (live).
  virtual Result<std::string> command(const std::vector<std::string>& argv) const = 0;

  // Unix time of the capture by the machine's own clock.
  virtual Result<double> captured_at() const = 0;

  // For messages: "node01 sample 0 (bundle /x)".
  virtual std::string describe() const = 0;

  // Where an absolute path or command of this sample lives, for messages naming a file.
  virtual std::string display_path(std::string_view abs_path) const = 0;
  virtual std::string display_command(const std::vector<std::string>& argv) const = 0;
};

// The `sos report` file name for a command line (spec/bundle.md): drops a leading
// /usr/bin/, /bin/, /usr/sbin/ or /sbin/, maps runs of characters other than [A-Za-z0-9_./-]
// to '_', '/' to '.', strips leading and trailing " ._-".
std::string mangle_command(const std::vector<std::string>& argv);
std::string mangle_command_line(std::string_view command_line);

// The time printed by `date` in its usual forms, as Unix seconds: "Wed Dec  2 09:02:57 UTC 2026"
// (also with AM/PM and day-before-month locales), `date -R` ("Wed, 02 Dec 2026 09:02:57
// +0000") and ISO 8601 ("2026-12-02T09:02:57+00:00"). Zones: UTC, GMT, Z or a numeric offset;
// nullopt for anything else (a zone abbreviation's offset is not knowable).
std::optional<double> parse_date_output(std::string_view text);

// A sample stored in a tree at `prefix` (bundle layout or an extracted sos report). Its time is
// `captured_at`, else the sos report's sos_commands/date/date_--utc or date/date, else NotFound.
// Thread-safe.
std::unique_ptr<SampleSource> make_tree_sample(std::shared_ptr<const FileTree> tree,
                                               std::string prefix, std::string label);

// The live host: files under `root` ("/" normally, a fake sysfs tree in tests), commands run
// through `runner` (stdout when it exits 0; Io with its stderr otherwise; NotFound when the
// tool is not installed), time from the system clock at construction (or `fixed_time`).
// Under a root other than "/", links are contained as in a bundle directory.
std::unique_ptr<SampleSource> make_live_sample(std::string root, CommandRunner& runner,
                                               CommandOptions options = {},
                                               std::optional<double> fixed_time = {});

}  // namespace netdoctor
