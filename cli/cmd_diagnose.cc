#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the diagnose command lands: registered so the table is complete.
void add_diagnose_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("diagnose", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor diagnose: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
