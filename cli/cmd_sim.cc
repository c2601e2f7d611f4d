#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the sim command lands: registered so the table is complete.
void add_sim_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("sim", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor sim: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
