// The commands a runbook may tell a person to type: every tool, its subcommand words and
// the flags that exist. Manual data (kb/manual/*.toml) is checked against this table when it
// loads, so a runbook never shows a made-up flag or a tool nobody has installed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::runbook {

enum class Side { Host, Switch, Any };
const char* to_string(Side side);

struct KnownFlag {
  std::string name;          // "-S", "--report_gbits"
  bool takes_value = false;  // the next word (or "=value") is its argument
};

// One invocation form: `show pfc counters`, `ethtool` (flags only), `rdma link show`.
struct KnownCommand {
  std::string tool;
  std::vector<std::string> words;  // leading subcommand words; empty: any positional
  std::vector<KnownFlag> flags;
  Side side = Side::Any;
  std::string summary;  // what it shows, one line
};

const std::vector<KnownCommand>& known_commands();

// One command of a pipeline, after quote removal: {"ethtool", "-S", "<netdev>"}.
using Words = std::vector<std::string>;

// Splits a shell line into its commands (on `|`, `;`, `&&`), honouring quotes; a leading
// `sudo` is dropped. Error on an unterminated quote.
Result<std::vector<Words>> split_command_line(std::string_view line);

// The known form a command matches, or an error naming the unknown tool, words or flag.
Result<const KnownCommand*> match_command(const Words& words);

// Checks every command of a pipeline; returns the forms in order.
Result<std::vector<const KnownCommand*>> check_command_line(std::string_view line);

}  // namespace netdoctor::runbook
