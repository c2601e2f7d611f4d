// `netdoctor diagnose --symptom S --bundle PATH [--bundle PATH]... [--format text|json|md]
// [--explain] [--threshold 5%] [--roce-priority 3]`: runs the symptom's playbook over a capture
// bundle, or several diagnosed as one fabric.
// Exit 0 whenever a diagnosis was produced (whatever the verdict), 2 for usage errors, 1 when
// no diagnosis could be made (bundle missing, kb invalid).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/remote_glue.h"
#include "cli/store_glue.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "kb/playbook.h"

namespace netdoctor::cli {
namespace {

struct DiagnoseArgs {
  std::string symptom = "auto";
  std::vector<std::string> bundles;  // several are diagnosed as one fabric
  std::string format = "text";
  bool explain = false;
  std::optional<std::string> threshold;  // unset: the configured baseline.threshold
  std::optional<int> roce_priority;      // unset: the configured roce.priority
  std::optional<std::int64_t> incident;
  std::string db;
  bool no_record = false;
  PrometheusArgs prometheus;
};

constexpr int k_load_threads = 2;  // the machine budget the tool is designed for

// The command's own flags are the top layer of the site configuration: a given flag wins
// over every file and --set, and is recorded as the origin of its value.
Result<Settings> effective_settings(const DiagnoseArgs& args, const Settings& site) {
  Settings settings = site;
  if (args.threshold) {
    ND_TRY(settings.set("baseline.threshold", *args.threshold, "--threshold"));
  }
  if (args.roce_priority) {
    ND_TRY(settings.set("roce.priority", std::to_string(*args.roce_priority), "--roce-priority"));
  }
  return settings;
}

void run_diagnose(const DiagnoseArgs& args, Context& context) {
  const auto& symptoms = kb::spec_symptoms();
  if (std::find(symptoms.begin(), symptoms.end(), args.symptom) == symptoms.end()) {
    context.err << "netdoctor diagnose: unknown symptom '" << args.symptom
                << "'; valid symptoms: " << join(symptoms, ", ") << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  auto settings = effective_settings(args, context.settings);
  if (!settings.ok()) {
    context.err << "netdoctor diagnose: " << settings.error().describe() << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  engine::DiagnoseOptions options;
  options.symptom = args.symptom;
  options.explain = args.explain;
  options.probe_options.roce_priority = static_cast<int>(settings->number("roce.priority"));
  options.threshold_settings = settings->tuned_thresholds();

  if (args.bundles.empty() == args.prometheus.url.empty()) {
    context.err << "netdoctor diagnose: give exactly one of --bundle PATH and --prometheus URL\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  std::string source = "bundle " + join(args.bundles, " + ");
  Result<engine::Diagnosis> diagnosis = make_error(ErrorCode::Internal, "not run");
  if (args.prometheus.url.empty()) {
    diagnosis = engine::diagnose_bundles(args.bundles, options, k_load_threads);
  } else if (auto bundle = bundle_from_prometheus(args.prometheus, context, source); bundle.ok()) {
    diagnosis = engine::diagnose_opened_bundle(*bundle, options, k_load_threads);
  } else if (bundle.error().code == ErrorCode::InvalidArgument) {
    context.err << "netdoctor diagnose: " << bundle.error().describe() << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  } else {
    diagnosis = bundle.error();
  }
  if (!diagnosis.ok()) {
    context.err << "netdoctor diagnose: no diagnosis for " << source << ": "
                << diagnosis.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  for (const SettingValue* value : settings->non_defaults()) {
    diagnosis->settings.push_back({std::string(value->spec->key), value->text, value->origin});
  }
  engine::RenderOptions render;
  render.explain = args.explain;
  render.incident = args.incident ? std::to_string(*args.incident) : "<N>";
  if (!args.no_record) {
    // The incident record is the postmortem's backbone, but a store that cannot be opened must
    // not cost the on-call engineer the diagnosis itself: warn and go on.
    auto store = open_store(args.db, *settings);
    if (!store.ok()) {
      context.err << "netdoctor diagnose: warning: not recorded in the incident store: "
                  << store.error().describe() << "\n";
    } else {
      auto json_text = engine::render_json(*diagnosis, render);
      auto id = record_diagnosis(*store, args.incident, *diagnosis, source, json_text);
      if (!id.ok()) {
        context.err << "netdoctor diagnose: warning: not recorded in the incident store: "
                    << id.error().describe() << "\n";
      } else {
        render.incident = std::to_string(*id);
        context.err << "netdoctor diagnose: recorded as incident " << *id << "\n";
      }
    }
  }
  if (args.format == "json") {
    context.out << engine::render_json(*diagnosis, render);
  } else if (args.format == "md") {
    context.out << engine::render_markdown(*diagnosis, render);
  } else {
    context.out << engine::render_text(*diagnosis, render);
  }
  context.exit_code = ExitCode::Ok;
}

}  // namespace

void add_diagnose_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<DiagnoseArgs>();
  auto* sub = app.add_subcommand(
      "diagnose",
      "Find the root cause of a symptom in a capture bundle (exit 0 whatever the verdict)");
  sub->add_option("--symptom", args->symptom,
                  "slowdown, low-utilization, asymmetric-bandwidth, timeouts, high-latency or "
                  "auto (default)");
  sub->add_option("--bundle", args->bundles,
                  "capture bundle: directory (a bundle or a folder of sos reports) or "
                  ".tar[.gz|.xz]; repeat it to diagnose several as one fabric");
  add_prometheus_options(*sub, args->prometheus);
  sub->add_option("--format", args->format, "text (default), json or md")
      ->check(CLI::IsMember({"text", "json", "md"}));
  sub->add_flag("--explain", args->explain, "list every score movement: cause, probe, signal");
  sub->add_option("--threshold", args->threshold,
                  "perftest deviation from baseline that counts (default: baseline.threshold, "
                  "5%)");
  sub->add_option("--roce-priority", args->roce_priority,
                  "the lossless priority RoCE uses (0-7; default: roce.priority, 3)")
      ->check(CLI::Range(0, 7));
  sub->add_option("--incident", args->incident,
                  "append this diagnosis to incident N (default: open a new incident)");
  add_db_option(*sub, args->db);
  sub->add_flag("--no-record", args->no_record,
                "do not record the diagnosis in the incident store");
  sub->callback([args, &context] { run_diagnose(*args, context); });
}

}  // namespace netdoctor::cli
