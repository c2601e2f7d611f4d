#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the plan command lands: registered so the table is complete.
void add_plan_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("plan", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor plan: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
