#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the parse command lands: registered so the table is complete.
void add_parse_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("parse", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor parse: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
