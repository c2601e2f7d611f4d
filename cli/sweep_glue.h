// What `sweep` and `diagnose --hosts ... --active` share: the sweep's flags, the options they
// make (the store's baselines as expectations), and keeping a sweep in its incident.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"
#include "cli/command.h"
#include "store/database.h"
#include "sweep/sweep.h"

namespace netdoctor::cli {

struct SweepFlags {
  std::string via = "ssh";
  std::string pdsh_rcmd;
  std::string device = "all";
  std::string test = "both";
  std::string budget = "10m";
  int per_leaf = 8;
  int parallel = 256;
  int timeout_s = 60;
  int perftest_seconds = 5;
  std::optional<int> gid_index;
  int gpus_per_host = 8;
  std::string leaf_map;
  bool force = false;
};

// The flags on `command`; `prefix` names the sweep's own ones apart ("" for `sweep`,
// "active-" for diagnose: --active-budget). --via and --pdsh-rcmd are added by the caller.
void add_sweep_flags(CLI::App& command, SweepFlags& flags, const std::string& prefix);

// The sweep's options from the flags, with the store's baselines (none when `db` is null).
// InvalidArgument for a bad flag (naming it), NotFound for an unreadable --leaf-map.
Result<sweep::SweepOptions> sweep_options(const SweepFlags& flags, store::Database* db);

// Keeps the sweep and its runs in `incident`; nullopt opens a new "slowdown" incident for it.
// Returns the incident's id.
Result<std::int64_t> record_sweep(store::Database& db, std::optional<std::int64_t> incident,
                                  const sweep::SweepReport& report, const std::string& hosts_spec,
                                  std::string json);

}  // namespace netdoctor::cli
