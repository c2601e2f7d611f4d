// `netdoctor probes [ID] [--format text|md|json]`: the probe vocabulary, generated from the
// registry and the kb entries: what each probe reads, what each of its signals means and
// weighs, and the thresholds it judges by as this site runs them (cli/settings.h).
#include <memory>
#include <string>

#include "base/json_text.h"
#include "cli/command.h"
#include "engine/thresholds.h"
#include "runbook/probe_table.h"

namespace netdoctor::cli {
namespace {

struct ProbesArgs {
  std::string probe;
  std::string format = "text";
};

void run_probes(const ProbesArgs& args, Context& context) {
  auto library = runbook::load_library();
  if (!library.ok()) {
    context.err << "netdoctor probes: " << library.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  const auto values = engine::resolve_thresholds((*library)->knowledge.entries,
                                                 context.settings.tuned_thresholds());
  const auto rows = runbook::probe_rows(**library, values, args.probe);
  if (rows.empty()) {
    context.err << "netdoctor probes: unknown probe '" << args.probe
                << "' (`netdoctor probes` lists them)\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  if (args.format == "json") {
    context.out << json_text(runbook::probe_table_json(rows), 2) << "\n";
  } else if (args.format == "md") {
    context.out << runbook::render_probe_table_markdown(rows);
  } else {
    context.out << runbook::render_probe_table_text(rows);
  }
  context.exit_code = ExitCode::Ok;
}

}  // namespace

void add_probes_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<ProbesArgs>();
  auto* sub = app.add_subcommand(
      "probes", "The probes: what each reads, its signals and their weights, its thresholds");
  sub->add_option("probe", args->probe, "one probe id, or \"fleet\" for the shared thresholds");
  sub->add_option("--format", args->format, "text (default), md or json")
      ->check(CLI::IsMember({"text", "md", "json"}));
  sub->callback([args, &context] { run_probes(*args, context); });
}

}  // namespace netdoctor::cli
