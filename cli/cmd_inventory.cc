#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the inventory command lands: registered so the table is complete.
void add_inventory_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("inventory", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor inventory: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
