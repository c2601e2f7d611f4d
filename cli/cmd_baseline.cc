#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the baseline command lands: registered so the table is complete.
void add_baseline_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("baseline", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor baseline: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
