#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the change command lands: registered so the table is complete.
void add_change_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("change", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor change: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
