// `netdoctor explain CAUSE [--format text|md] [--fabric ib|roce]` and `netdoctor explain --list`: a
// root cause from the kb for a person. Unknown cause: exit 2 with the valid ids and the nearest
// ones.
#include <memory>
#include <string>

#include "cli/command.h"
#include "runbook/explain.h"
#include "runbook/library.h"

namespace netdoctor::cli {
namespace {

struct ExplainArgs {
  std::string cause;
  bool list = false;
  std::string format = "text";
  std::string fabric;  // "ib", "roce", or "" (either)
  int roce_priority = 3;
};

void run_explain(const ExplainArgs& args, Context& context) {
  if (args.cause.empty() && !args.list) {
    context.err << "netdoctor explain: name a cause, or --list to see them\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  auto library = runbook::load_library();
  if (!library.ok()) {
    context.err << "netdoctor explain: " << library.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  const bool markdown = args.format == "md";
  if (args.list) {
    context.out << (markdown ? runbook::render_cause_list_markdown(**library)
                             : runbook::render_cause_list_text(**library));
    context.exit_code = ExitCode::Ok;
    return;
  }
  auto explanation = runbook::explain_cause(**library, args.cause, args.roce_priority, args.fabric);
  if (!explanation.ok()) {
    context.err << "netdoctor explain: " << explanation.error().message << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  context.out << (markdown ? runbook::render_explanation_markdown(*explanation)
                           : runbook::render_explanation_text(*explanation));
  context.exit_code = ExitCode::Ok;
}

}  // namespace

void add_explain_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<ExplainArgs>();
  auto* sub = app.add_subcommand(
      "explain", "A root cause from the kb: mechanism, signs, remediation, first change to try");
  sub->add_option("cause", args->cause, "root-cause id (see --list)");
  sub->add_flag("--list", args->list, "list every root cause");
  sub->add_option("--format", args->format, "text (default) or md")
      ->check(CLI::IsMember({"text", "md"}));
  sub->add_option("--fabric", args->fabric,
                  "ib or roce: each sign's command for that kind of fabric (default: either)")
      ->check(CLI::IsMember({"ib", "roce"}));
  sub->add_option("--roce-priority", args->roce_priority, "the lossless priority RoCE uses (0-7)")
      ->check(CLI::Range(0, 7));
  sub->callback([args, &context] { run_explain(*args, context); });
}

}  // namespace netdoctor::cli
