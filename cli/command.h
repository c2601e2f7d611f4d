// The subcommand table: every `netdoctor` subcommand is one entry here, defined in its own
// cmd_<name>.cc. Handlers write to the context's streams (so tests can run them in-process)
// and set its exit code; they never call exit().
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/settings.h"

namespace netdoctor::cli {

// Exit codes (spec/diagnosis.md): 0 run completed (whatever the verdict), 1 failure that left
// no result, 2 usage error, 130 interrupted.
enum class ExitCode : int { Ok = 0, Failure = 1, Usage = 2, Interrupted = 130 };

struct Context {
  std::ostream& out;
  std::ostream& err;
  // The layered site configuration (cli/settings.h), loaded before any handler runs.
  const Settings& settings;
  ExitCode exit_code = ExitCode::Ok;
};

using Registrar = void (*)(CLI::App& app, Context& context);

struct CommandEntry {
  const char* name;
  const char* summary;
  Registrar add;
};

const std::vector<CommandEntry>& command_table();

// Runs the CLI on argv as `netdoctor` would; returns the exit code.
int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err);
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Registrars, one per cmd_*.cc.
void add_parse_command(CLI::App& app, Context& context);
void add_inventory_command(CLI::App& app, Context& context);
void add_sim_command(CLI::App& app, Context& context);
void add_diagnose_command(CLI::App& app, Context& context);
void add_incident_command(CLI::App& app, Context& context);
void add_change_command(CLI::App& app, Context& context);
void add_baseline_command(CLI::App& app, Context& context);
void add_plan_command(CLI::App& app, Context& context);
void add_collect_command(CLI::App& app, Context& context);
void add_runbook_command(CLI::App&, Context&);
void add_explain_command(CLI::App&, Context&);
void add_probes_command(CLI::App&, Context&);
void add_config_command(CLI::App&, Context&);
void add_sweep_command(CLI::App&, Context&);

}  // namespace netdoctor::cli
