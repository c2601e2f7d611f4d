// `netdoctor runbook SYMPTOM [--format text|md] [--bundle PATH] [--fabric ib|roce]
// [--roce-priority 3]`: the
// symptom's playbook as a manual runbook, in the engine's order; with --bundle, annotated with
// what the diagnosis of that bundle found at each step. Exit 0 when a runbook was printed, 2
// for an unknown symptom or bad option, 1 when the kb or the bundle could not be read.
#include <algorithm>
#include <memory>
#include <string>

#include "base/bundle.h"
#include "base/strings.h"
#include "cli/command.h"
#include "engine/pipeline.h"
#include "kb/playbook.h"
#include "model/loader.h"
#include "runbook/annotate.h"
#include "runbook/library.h"
#include "runbook/render.h"
#include "runbook/runbook.h"

namespace netdoctor::cli {
namespace {

struct RunbookArgs {
  std::string symptom;
  std::string format = "text";
  std::string bundle;
  std::string fabric;  // "ib", "roce"; "" = the bundle's kind, or either without one
  int roce_priority = 3;
};

constexpr int k_load_threads = 2;  // the machine budget the tool is designed for

void run_runbook(const RunbookArgs& args, Context& context) {
  const auto& symptoms = kb::spec_symptoms();
  if (std::find(symptoms.begin(), symptoms.end(), args.symptom) == symptoms.end()) {
    context.err << "netdoctor runbook: unknown symptom '" << args.symptom
                << "'; valid symptoms: " << join(symptoms, ", ") << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  auto library = runbook::load_library();
  if (!library.ok()) {
    context.err << "netdoctor runbook: " << library.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  const bool markdown = args.format == "md";
  if (args.bundle.empty()) {
    auto book = runbook::build_runbook(**library, args.symptom, args.roce_priority,
                                       context.settings.tuned_thresholds(), args.fabric);
    if (!book.ok()) {
      context.err << "netdoctor runbook: " << book.error().describe() << "\n";
      context.exit_code = ExitCode::Usage;
      return;
    }
    context.out << (markdown ? runbook::render_markdown(*book) : runbook::render_text(*book));
    context.exit_code = ExitCode::Ok;
    return;
  }
  engine::DiagnoseOptions options;
  options.symptom = args.symptom;
  options.explain = true;  // every score movement, to show at its step
  options.probe_options.roce_priority = args.roce_priority;
  options.threshold_settings = context.settings.tuned_thresholds();
  std::string fabric_kind = args.fabric;
  auto diagnosis = [&]() -> Result<engine::Diagnosis> {
    ND_TRY_ASSIGN(Bundle bundle, open_bundle(args.bundle));
    model::LoadOptions load_options;
    load_options.threads = k_load_threads;
    ND_TRY_ASSIGN(model::Fabric fabric, model::load_fabric(bundle, load_options));
    if (fabric_kind.empty()) {
      fabric_kind = engine::fabric_kind(fabric);  // the commands that fit this capture
    }
    return engine::diagnose_loaded_bundle(bundle, fabric, options);
  }();
  if (!diagnosis.ok()) {
    context.err << "netdoctor runbook: no diagnosis for bundle " << args.bundle << ": "
                << diagnosis.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  auto book = runbook::build_runbook(**library, args.symptom, args.roce_priority,
                                     context.settings.tuned_thresholds(), fabric_kind);
  if (!book.ok()) {
    context.err << "netdoctor runbook: " << book.error().describe() << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  auto annotated = runbook::annotate(std::move(*book), std::move(*diagnosis));
  context.out << (markdown ? runbook::render_markdown(annotated) : runbook::render_text(annotated));
  context.exit_code = ExitCode::Ok;
}

}  // namespace

void add_runbook_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<RunbookArgs>();
  auto* sub = app.add_subcommand(
      "runbook",
      "A symptom's playbook as a manual runbook: commands to run by hand and how to read them");
  sub->add_option("symptom", args->symptom,
                  "slowdown, low-utilization, asymmetric-bandwidth, timeouts, high-latency or auto")
      ->required();
  sub->add_option("--format", args->format, "text (default) or md")
      ->check(CLI::IsMember({"text", "md"}));
  sub->add_option("--bundle", args->bundle,
                  "annotate each step with what this capture bundle shows (directory or tar)");
  sub->add_option("--fabric", args->fabric,
                  "ib or roce: show only the commands for that kind of fabric (default: the "
                  "bundle's kind, or both without a bundle)")
      ->check(CLI::IsMember({"ib", "roce"}));
  sub->add_option("--roce-priority", args->roce_priority, "the lossless priority RoCE uses (0-7)")
      ->check(CLI::Range(0, 7));
  sub->callback([args, &context] { run_runbook(*args, context); });
}

}  // namespace netdoctor::cli
