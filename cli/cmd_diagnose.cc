// `netdoctor diagnose --symptom S --bundle PATH [--bundle PATH]... [--format text|json|md|html]
// [--explain] [--threshold 5%] [--roce-priority 3]`: runs the symptom's playbook over a capture
// bundle, or several diagnosed as one fabric.
// Exit 0 whenever a diagnosis was produced (whatever the verdict), 2 for usage errors, 1 when
// no diagnosis could be made (bundle missing, kb invalid).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "base/interrupt_watch.h"
#include "base/json_text.h"
#include "base/strings.h"
#include "cli/active_step.h"
#include "cli/command.h"
#include "cli/live_capture.h"
#include "cli/remote_glue.h"
#include "cli/store_glue.h"
#include "cli/sweep_glue.h"
#include "collect/hostlist.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "kb/playbook.h"
#include "model/loader.h"
#include "model/streamed_load.h"
#include "report/fabric_map.h"
#include "report/html_report.h"
#include "report/map_json.h"

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
  // Live: capture these hosts through the launcher, then diagnose the capture.
  std::string hosts;
  std::string capture_dir;  // empty: a new directory under $TMPDIR (kept, and named)
  bool active = false;      // run the playbook's active step when the passive one is unsettled
  SweepFlags sweep;         // --via, --pdsh-rcmd and the --active-* flags
};

// The active step (cli/active_step.h) on the live hosts, stoppable by Ctrl-C.
std::optional<ActiveStep> active_step(const DiagnoseArgs& args,
                                      const std::vector<std::string>& hosts,
                                      const std::string& bundle, store::Database* db,
                                      Context& context) {
  auto options = sweep_options(args.sweep, db);
  if (!options.ok()) {
    context.err << "netdoctor diagnose: active tests not run: " << options.error().describe()
                << "\n";
    return std::nullopt;
  }
  InterruptWatch interrupt;
  options->stop = &interrupt.flag();
  LiveCommandRunner runner;
  SystemClock clock;
  auto step =
      run_active_step(hosts, *options, bundle, runner, clock, [&context](const std::string& line) {
        context.err << "netdoctor diagnose: active: " << printable(line) << "\n";
      });
  if (!step.ok()) {
    context.err << "netdoctor diagnose: warning: " << step.error().describe()
                << "; the active step is not in the diagnosis\n";
    return std::nullopt;
  }
  return std::move(*step);
}

constexpr int k_load_threads = 2;  // the machine budget the tool is designed for

// A diagnosis and the fabric map drawn from the same loaded fabric (the fabric itself is not
// kept: at scale it is the largest thing in memory).
struct Diagnosed {
  engine::Diagnosis diagnosis;
  std::optional<report::FabricMap> map;
  std::string map_problem;  // why there is no map
};

Result<Diagnosed> diagnose_loaded(const Bundle& bundle, const model::Fabric& fabric,
                                  const engine::DiagnoseOptions& options) {
  Diagnosed out;
  ND_TRY_ASSIGN(out.diagnosis, engine::diagnose_loaded_bundle(bundle, fabric, options));
  auto map = report::map_for_diagnosis(fabric, out.diagnosis, options);
  if (map.ok()) {
    out.map = std::move(*map);
  } else {
    out.map_problem = map.error().describe();
  }
  return out;
}

Result<Diagnosed> diagnose_with_map(const Bundle& bundle, const engine::DiagnoseOptions& options) {
  model::LoadOptions load;
  load.threads = k_load_threads;
  ND_TRY_ASSIGN(model::Fabric fabric, model::load_fabric(bundle, load));
  return diagnose_loaded(bundle, fabric, options);
}

Result<Diagnosed> diagnose_paths(const std::vector<std::string>& paths,
                                 const engine::DiagnoseOptions& options) {
  if (paths.size() == 1) {
    // One archive is read as a stream: its hosts are loaded and freed as it goes.
    model::LoadOptions load;
    load.threads = k_load_threads;
    ND_TRY_ASSIGN(model::LoadedBundle loaded, model::open_and_load_bundle(paths.front(), load));
    return diagnose_loaded(loaded.bundle, loaded.fabric, options);
  }
  ND_TRY_ASSIGN(Bundle bundle, open_bundles(paths));
  return diagnose_with_map(bundle, options);
}

// The fabric read from Prometheus, each batch of hosts loaded while the next is read (a bundle
// kept for --save-bundle is read whole first).
Result<model::LoadedBundle> load_from_prometheus(const PrometheusArgs& args, Context& context,
                                                 std::string& source) {
  model::LoadOptions load;
  load.threads = k_load_threads;
  return model::load_while_reading(
      [&](MachineSink& sink) { return bundle_from_prometheus(args, context, source, &sink); },
      load);
}

// What --prometheus reads for this diagnosis: only the priorities its probes read.
PrometheusArgs prometheus_for(const PrometheusArgs& args, const engine::DiagnoseOptions& options) {
  PrometheusArgs out = args;
  out.roce_priority = options.probe_options.roce_priority;
  return out;
}

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

  const int sources = (args.bundles.empty() ? 0 : 1) + (args.prometheus.url.empty() ? 0 : 1) +
                      (args.hosts.empty() ? 0 : 1);
  if (sources != 1) {
    context.err << "netdoctor diagnose: give exactly one of --bundle PATH, --prometheus URL and "
                   "--hosts LIST\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  if (args.active && args.hosts.empty()) {
    context.err << "netdoctor diagnose: --active runs tests on live hosts: give --hosts LIST\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  std::vector<std::string> bundles = args.bundles;
  std::vector<std::string> hosts;
  if (!args.hosts.empty()) {
    auto expanded = collect::expand_hostlist(args.hosts);
    auto launcher = collect::parse_launcher(args.sweep.via);
    if (!expanded.ok() || !launcher.ok()) {
      context.err << "netdoctor diagnose: "
                  << (expanded.ok() ? launcher.error() : expanded.error()).describe() << "\n";
      context.exit_code = ExitCode::Usage;
      return;
    }
    hosts = std::move(*expanded);
    auto capture = capture_hosts(hosts, *launcher, args.sweep.pdsh_rcmd, args.capture_dir,
                                 *settings, context.err);
    if (!capture.ok() || capture->merged == 0) {
      context.err << "netdoctor diagnose: no capture of " << args.hosts << ": "
                  << (capture.ok() ? "every host failed" : capture.error().describe()) << "\n";
      context.exit_code = ExitCode::Failure;
      return;
    }
    context.err << "netdoctor diagnose: the capture is kept in " << capture->bundle << "\n";
    bundles = {capture->bundle};
  }
  std::string source = args.hosts.empty() ? "bundle " + join(bundles, " + ")
                                          : "hosts " + args.hosts + " (" + bundles.front() + ")";
  Result<Diagnosed> diagnosis = make_error(ErrorCode::Internal, "not run");
  if (args.prometheus.url.empty()) {
    diagnosis = diagnose_paths(bundles, options);
  } else if (auto loaded =
                 load_from_prometheus(prometheus_for(args.prometheus, options), context, source);
             loaded.ok()) {
    diagnosis = diagnose_loaded(loaded->bundle, loaded->fabric, options);
  } else if (loaded.error().code == ErrorCode::InvalidArgument) {
    context.err << "netdoctor diagnose: " << loaded.error().describe() << "\n";
    context.exit_code = ExitCode::Usage;
    return;
  } else {
    diagnosis = loaded.error();
  }
  if (!diagnosis.ok()) {
    context.err << "netdoctor diagnose: no diagnosis for " << source << ": "
                << diagnosis.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  // The store is opened once: its baselines set the active step's expectations.
  std::optional<store::Database> store;
  std::string store_error;
  if (!args.no_record) {
    auto opened = open_store(args.db, *settings);
    if (opened.ok()) {
      store.emplace(std::move(*opened));
    } else {
      store_error = opened.error().describe();
    }
  }
  std::optional<ActiveStep> active;
  if (args.active && passive_settled(diagnosis->diagnosis)) {
    context.err << "netdoctor diagnose: active tests not run: the passive evidence settled it\n";
  } else if (args.active) {
    active = active_step(args, hosts, bundles.front(), store ? &*store : nullptr, context);
    if (active) {
      auto again = diagnose_paths(bundles, options);
      if (again.ok()) {
        diagnosis = std::move(again);
      } else {
        context.err << "netdoctor diagnose: warning: the diagnosis with the active step failed ("
                    << again.error().describe() << "); the passive one stands\n";
      }
    }
  }
  for (const SettingValue* value : settings->non_defaults()) {
    diagnosis->diagnosis.settings.push_back(
        {std::string(value->spec->key), value->text, value->origin});
  }
  engine::RenderOptions render;
  render.explain = args.explain;
  render.incident = args.incident ? std::to_string(*args.incident) : "<N>";
  if (!args.no_record) {
    // The incident record is the postmortem's backbone, but a store that cannot be opened must
    // not cost the on-call engineer the diagnosis itself: warn and go on.
    if (!store) {
      context.err << "netdoctor diagnose: warning: not recorded in the incident store: "
                  << store_error << "\n";
    } else {
      auto diagnosis_json = engine::render_json(diagnosis->diagnosis, render);
      std::optional<std::string> map_json;
      if (diagnosis->map) {
        map_json = json_text(report::map_to_json(*diagnosis->map));
      }
      auto id = record_diagnosis(*store, args.incident, diagnosis->diagnosis, source,
                                 diagnosis_json, map_json);
      if (!id.ok()) {
        context.err << "netdoctor diagnose: warning: not recorded in the incident store: "
                    << id.error().describe() << "\n";
      } else {
        render.incident = std::to_string(*id);
        context.err << "netdoctor diagnose: recorded as incident " << *id << "\n";
        if (active) {
          auto kept = record_sweep(*store, *id, active->report, args.hosts, active->json);
          if (!kept.ok()) {
            context.err << "netdoctor diagnose: warning: the active step's runs not recorded: "
                        << kept.error().describe() << "\n";
          }
        }
      }
    }
  }
  if (!diagnosis->map_problem.empty()) {
    context.err << "netdoctor diagnose: warning: no fabric map: " << diagnosis->map_problem << "\n";
  }
  if (args.format == "json") {
    context.out << engine::render_json(diagnosis->diagnosis, render);
  } else if (args.format == "md") {
    context.out << engine::render_markdown(diagnosis->diagnosis, render);
  } else if (args.format == "html") {
    report::HtmlReport page;
    page.diagnosis = engine::to_json(diagnosis->diagnosis, render);
    page.map = std::move(diagnosis->map);
    page.map_missing = diagnosis->map_problem;
    page.source = source;
    context.out << report::render_html(page);
  } else {
    context.out << engine::render_text(diagnosis->diagnosis, render);
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
  sub->add_option("--format", args->format,
                  "text (default), json, md or html (one self-contained page with the fabric map)")
      ->check(CLI::IsMember({"text", "json", "md", "html"}));
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
  sub->add_option("--hosts", args->hosts,
                  "capture these hosts live (node[01-32]) through --via, then diagnose");
  sub->add_option("--via", args->sweep.via, "launcher for --hosts: ssh (default), pdsh or srun")
      ->check(CLI::IsMember({"ssh", "pdsh", "srun"}));
  sub->add_option("--pdsh-rcmd", args->sweep.pdsh_rcmd, "pdsh -R module (ssh, exec, ...)");
  sub->add_option("--capture-dir", args->capture_dir,
                  "where --hosts writes its capture (default: a new directory under $TMPDIR)");
  sub->add_flag("--active", args->active,
                "with --hosts: when the passive probes leave it unsettled, run perftest pairs "
                "and nccl-tests (netdoctor sweep) and diagnose again with their result");
  add_sweep_flags(*sub, args->sweep, "active-");
  sub->callback([args, &context] { run_diagnose(*args, context); });
}

}  // namespace netdoctor::cli
