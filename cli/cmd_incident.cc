#include "cli/command.h"

namespace netdoctor::cli {

// Placeholder until the incident command lands: registered so the table is complete.
void add_incident_command(CLI::App& app, Context& context) {
  auto* sub = app.add_subcommand("incident", "(not yet available)");
  sub->callback([&context] {
    context.err << "netdoctor incident: not implemented yet\n";
    context.exit_code = ExitCode::Failure;
  });
}

}  // namespace netdoctor::cli
