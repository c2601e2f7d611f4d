// `netdoctor baseline`: keep perftest results of the healthy fabric (from a bundle, a capture
// or an all-healthy sweep) and chase any later deviation beyond the threshold (5 % by
// default), per pair, device and test.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/bundle.h"
#include "base/json_text.h"
#include "base/strings.h"
#include "cli/command.h"
#include "cli/number_checks.h"
#include "cli/store_glue.h"
#include "cli/terminal_stream.h"
#include "model/loader.h"
#include "store/baseline_check.h"
#include "store/time_format.h"

namespace netdoctor::cli {
namespace {

struct BaselineOptions {
  std::string db;
  std::string bundle;
  std::string sweep_file;  // baseline import --sweep
  std::string pairs_file;
  std::string threshold;  // empty: the baseline.threshold setting (5 % by default)
  std::string pair;
  std::string format = "text";
  std::string device;
  int timeout_s = 60;
  std::string remote = "ssh";
};

nlohmann::json run_json(const store::PerfRun& run) {
  nlohmann::json out{{"pair", run.pair()},   {"client", run.client},
                     {"server", run.server}, {"device", run.device},
                     {"test", run.test},     {"measured_at", store::iso8601_utc(run.measured_at)},
                     {"source", run.source}};
  out["msg_bytes"] = run.msg_bytes ? nlohmann::json(*run.msg_bytes) : nlohmann::json();
  out["bw_gbps"] = run.bw_gbps ? nlohmann::json(*run.bw_gbps) : nlohmann::json();
  out["lat_us"] = run.lat_us ? nlohmann::json(*run.lat_us) : nlohmann::json();
  return out;
}

// The bundle's perftest runs (current or baseline), measured at the bundle's creation time
// when its manifest says, else now.
Result<std::vector<store::PerfRun>> bundle_runs(const std::string& path, bool baseline) {
  ND_TRY_ASSIGN(Bundle bundle, open_bundle(path));
  ND_TRY_ASSIGN(model::Fabric fabric, model::load_fabric(bundle));
  double at = now_unix();
  if (bundle.manifest_json) {
    auto manifest = nlohmann::json::parse(*bundle.manifest_json, nullptr, false);
    if (manifest.is_object() && manifest.contains("created_at") &&
        manifest["created_at"].is_number()) {
      at = manifest["created_at"].get<double>();
    }
  }
  return perf_runs(fabric, baseline, at, path);
}

// The whole text of `path`; NotFound naming the file (`what` it is) when it cannot be read.
Result<std::string> read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::NotFound, "cannot read the " + what, path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string json_string(const nlohmann::json& object, const char* key) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : "";
}

std::optional<double> json_double(const nlohmann::json& object, const char* key) {
  if (object.contains(key) && object[key].is_number()) {
    return object[key].get<double>();
  }
  return std::nullopt;
}

// The sweep file parsed and checked: docs/sweep.md's format "netdoctor-sweep" version 1 whose
// verdict is all-healthy (a baseline measured on a slow fabric would hide the fault). Every
// error names the file.
Result<nlohmann::json> healthy_sweep(const std::string& path) {
  ND_TRY_ASSIGN(std::string text, read_text_file(path, "sweep file"));
  auto sweep = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (sweep.is_discarded() || !sweep.is_object()) {
    return make_error(ErrorCode::Parse,
                      "not a sweep's JSON (garbage or truncated; expected the output of "
                      "'netdoctor sweep --format json')",
                      path);
  }
  if (json_string(sweep, "format") != "netdoctor-sweep") {
    return make_error(ErrorCode::Parse,
                      fmt::format("format is '{}', not 'netdoctor-sweep'",
                                  printable(json_string(sweep, "format"))),
                      path);
  }
  if (!sweep.contains("version") || sweep["version"] != 1) {
    return make_error(ErrorCode::Unsupported,
                      fmt::format("netdoctor-sweep version {}; this netdoctor reads version 1",
                                  sweep.contains("version") ? json_text(sweep["version"]) : "none"),
                      path);
  }
  if (json_string(sweep, "verdict") != "all-healthy") {
    return make_error(ErrorCode::Refused,
                      fmt::format("the sweep's verdict is '{}', not all-healthy: a baseline must "
                                  "be measured on a healthy fabric",
                                  printable(json_string(sweep, "verdict"))),
                      path);
  }
  if (!sweep.contains("runs") || !sweep["runs"].is_array()) {
    return make_error(ErrorCode::Parse, "the sweep has no \"runs\" array", path);
  }
  return sweep;
}

// A sweep run as a baseline run: only a perftest pair (no nccl-tests group) measured ok with a
// bandwidth figure. Measured at the run's measured_at, else the sweep's created_at, else `now`.
std::optional<store::PerfRun> sweep_baseline_run(const nlohmann::json& run, double sweep_at,
                                                 const std::string& source) {
  const bool pair = !run.contains("hosts") || (run["hosts"].is_array() && run["hosts"].empty());
  store::PerfRun out;
  out.client = json_string(run, "client");
  out.server = json_string(run, "server");
  out.device = json_string(run, "device");
  out.test = json_string(run, "test");
  out.bw_gbps = json_double(run, "gbps");
  if (!pair || json_string(run, "result") != "ok" || !out.bw_gbps || out.client.empty() ||
      out.server.empty() || out.device.empty() || out.test.empty()) {
    return std::nullopt;
  }
  out.measured_at = json_double(run, "measured_at").value_or(sweep_at);
  out.source = source;
  return out;
}

void print_runs(Context& context, const std::vector<store::PerfRun>& runs,
                const std::string& format) {
  if (format == "json") {
    nlohmann::json rows = nlohmann::json::array();
    for (const store::PerfRun& run : runs) {
      rows.push_back(run_json(run));
    }
    context.out << json_text(rows, 2) << "\n";
    return;
  }
  const TerminalTextScope text_only(context.out);  // pairs, devices and sources from bundles
  context.out << fmt::format("{:<24} {:<8} {:<12} {:>8} {:>14}  {:<20}  {}\n", "pair", "device",
                             "test", "bytes", "figure", "measured", "source");
  for (const store::PerfRun& run : runs) {
    context.out << fmt::format(
        "{:<24} {:<8} {:<12} {:>8} {:>14}  {:<20}  {}\n", run.pair(), run.device, run.test,
        run.msg_bytes ? std::to_string(*run.msg_bytes) : "-", store::figure_text(run),
        store::iso8601_utc(run.measured_at), run.source);
  }
}

// An all-healthy sweep's perftest pairs measured ok; NotFound naming the file when none is.
Result<std::vector<store::PerfRun>> sweep_runs(const std::string& path) {
  ND_TRY_ASSIGN(nlohmann::json sweep, healthy_sweep(path));
  const double at = json_double(sweep, "created_at").value_or(now_unix());
  std::vector<store::PerfRun> runs;
  for (const auto& run : sweep["runs"]) {
    if (!run.is_object()) {
      return make_error(ErrorCode::Parse, "a sweep run is not a JSON object", path);
    }
    if (auto kept = sweep_baseline_run(run, at, path)) {
      runs.push_back(std::move(*kept));
    }
  }
  if (runs.empty()) {
    return make_error(ErrorCode::NotFound,
                      "no perftest pair run with result ok and a gbps figure in the sweep", path);
  }
  return runs;
}

void run_import(Context& context, const BaselineOptions& options) {
  if (options.bundle.empty() == options.sweep_file.empty()) {
    context.err << "netdoctor: baseline import needs one of --bundle PATH or --sweep FILE.json\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  const bool from_sweep = !options.sweep_file.empty();
  const std::string& source = from_sweep ? options.sweep_file : options.bundle;
  auto runs = from_sweep ? sweep_runs(source) : bundle_runs(source, /*baseline=*/true);
  if (!runs.ok()) {
    return fail(context, runs.error());
  }
  if (runs->empty()) {
    return fail(context,
                make_error(ErrorCode::NotFound, "no usable perftest-baseline/ runs in the bundle",
                           options.bundle));
  }
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::BaselineRepository baselines(*db);
  auto ids = baselines.add(*runs);
  if (!ids.ok()) {
    return fail(context, ids.error());
  }
  context.out << fmt::format("imported {} baseline runs from {}{}\n", ids->size(), source,
                             from_sweep ? " (an all-healthy sweep's perftest pairs)" : "");
  print_runs(context, *runs, "text");
}

void run_capture(Context& context, const BaselineOptions& options) {
  auto text = read_text_file(options.pairs_file, "pairs file");
  if (!text.ok()) {
    return fail(context, text.error());
  }
  auto pairs = parse_pairs(*text);
  if (!pairs.ok()) {
    Error error = pairs.error();
    error.context = options.pairs_file;
    return fail(context, error);
  }
  CaptureOptions capture;
  capture.device = options.device;
  capture.timeout = std::chrono::seconds(options.timeout_s);
  if (options.remote != "ssh") {
    capture.remote = options.remote.empty() || options.remote == "none"
                         ? std::vector<std::string>{}
                         : std::vector<std::string>{options.remote};
  }
  for (const CapturePair& pair : *pairs) {
    if (pair.device.empty() && capture.device.empty()) {
      return fail(context, make_error(ErrorCode::InvalidArgument,
                                      fmt::format("pair {} {} names no device; give one in the "
                                                  "file or with --device",
                                                  pair.client, pair.server),
                                      options.pairs_file));
    }
  }
  auto db =
      open_store(options.db, context.settings);  // before the traffic, so a bad --db costs nothing
  if (!db.ok()) {
    return fail(context, db.error());
  }
  LiveCommandRunner runner;
  SystemClock clock;
  auto runs = capture_baselines(runner, clock, *pairs, capture, context.err);
  store::BaselineRepository baselines(*db);
  auto ids = baselines.add(runs);
  if (!ids.ok()) {
    return fail(context, ids.error());
  }
  std::size_t expected = pairs->size() * capture.tests.size();
  context.out << fmt::format("captured {} of {} runs\n", runs.size(), expected);
  print_runs(context, runs, "text");
  if (runs.size() < expected) {
    context.exit_code = ExitCode::Failure;
  }
}

void run_check(Context& context, const BaselineOptions& options) {
  auto threshold = options.threshold.empty()
                       ? std::optional<double>(context.settings.number("baseline.threshold"))
                       : store::parse_threshold(options.threshold);
  if (!threshold) {
    context.err << "netdoctor: --threshold must be a percentage like 5% (got '" << options.threshold
                << "')\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  auto runs = bundle_runs(options.bundle, /*baseline=*/false);
  if (!runs.ok()) {
    return fail(context, runs.error());
  }
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::BaselineRepository baselines(*db);
  auto comparisons = store::check_against_baselines(baselines, *runs, *threshold);
  if (!comparisons.ok()) {
    return fail(context, comparisons.error());
  }
  std::size_t deviating = 0;
  std::size_t unmatched = 0;
  for (const auto& comparison : *comparisons) {
    deviating += comparison.deviates ? 1u : 0u;
    unmatched += comparison.baseline ? 0u : 1u;
  }
  if (options.format == "json") {
    nlohmann::json out{{"threshold", *threshold},
                       {"runs", comparisons->size()},
                       {"deviating", deviating},
                       {"without_baseline", unmatched}};
    out["comparisons"] = nlohmann::json::array();
    for (const auto& comparison : *comparisons) {
      nlohmann::json item{{"current", run_json(comparison.current)},
                          {"metric", comparison.metric},
                          {"unit", comparison.unit},
                          {"deviates", comparison.deviates}};
      item["baseline"] = comparison.baseline ? run_json(*comparison.baseline) : nlohmann::json();
      item["change"] = comparison.change ? nlohmann::json(*comparison.change) : nlohmann::json();
      out["comparisons"].push_back(item);
    }
    context.out << json_text(out, 2) << "\n";
    return;
  }
  const TerminalTextScope text_only(context.out);  // pairs, devices and paths from the bundle
  if (comparisons->empty()) {
    context.out << "no perftest/ runs in " << options.bundle << " to check\n";
    return;
  }
  for (const auto& comparison : *comparisons) {
    const store::PerfRun& run = comparison.current;
    std::string head = fmt::format("{:<24} {:<8} {:<12}", run.pair(), run.device, run.test);
    if (!comparison.baseline) {
      context.out << fmt::format("{} {:>12}  no baseline for this pair/device/test\n", head,
                                 store::figure_text(run));
      continue;
    }
    context.out << fmt::format(
        "{} {:>12}  baseline {:>12} ({})  {}{}\n", head, store::figure_text(run),
        store::figure_text(*comparison.baseline),
        store::iso8601_utc(comparison.baseline->measured_at),
        comparison.change ? fmt::format("{:+.1f} %", *comparison.change * 100.0) : "-",
        comparison.deviates
            ? fmt::format("  DEVIATION: {} {} beyond {:.1f} %", comparison.metric,
                          comparison.metric == "latency" ? "up" : "down", *threshold * 100.0)
            : "");
  }
  context.out << fmt::format("{} of {} runs deviate beyond {:.1f} % from their baseline", deviating,
                             comparisons->size(), *threshold * 100.0);
  if (unmatched > 0) {
    context.out << fmt::format("; {} have no baseline (netdoctor baseline import --bundle ...)",
                               unmatched);
  }
  context.out << "\n";
}

void run_list(Context& context, const BaselineOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::BaselineRepository baselines(*db);
  auto runs = baselines.list();
  if (!runs.ok()) {
    return fail(context, runs.error());
  }
  if (runs->empty() && options.format != "json") {
    context.out << "no baselines stored: netdoctor baseline import --bundle PATH\n";
    return;
  }
  print_runs(context, *runs, options.format);
}

void run_show(Context& context, const BaselineOptions& options) {
  auto pair = store::parse_pair(options.pair);
  if (!pair) {
    context.err << "netdoctor: PAIR is client__server (as in perftest/<client>__<server>/), got '"
                << options.pair << "'\n";
    context.exit_code = ExitCode::Usage;
    return;
  }
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::BaselineRepository baselines(*db);
  auto runs = baselines.for_pair(pair->first, pair->second);
  if (!runs.ok()) {
    return fail(context, runs.error());
  }
  if (runs->empty() && options.format != "json") {
    return fail(context,
                make_error(ErrorCode::NotFound, "no baseline stored for pair " + options.pair));
  }
  print_runs(context, *runs, options.format);
}

}  // namespace

void add_baseline_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<BaselineOptions>();
  auto* baseline = app.add_subcommand("baseline", "import, check and list perftest baselines");
  baseline->require_subcommand(1);

  auto* import = baseline->add_subcommand(
      "import", "store a bundle's perftest-baseline/ runs, or an all-healthy sweep's pairs");
  add_db_option(*import, options->db);
  auto* bundle = import->add_option("--bundle", options->bundle, "bundle directory or archive");
  import
      ->add_option("--sweep", options->sweep_file,
                   "a 'netdoctor sweep --format json' file whose verdict is all-healthy")
      ->excludes(bundle);
  import->callback([&context, options] { run_import(context, *options);
});

auto* capture = baseline->add_subcommand(
    "capture", "run ib_write_bw and ib_read_lat for each pair now and store the results");
add_db_option(*capture, options->db);
capture->add_option("--pairs", options->pairs_file, "file of 'client server [device]' lines")
    ->required();
capture->add_option("--device", options->device, "RDMA device for pairs that name none");
capture->add_option("--timeout", options->timeout_s, "seconds per perftest side (default 60)")
    ->check(positive_number());
capture->add_option("--remote", options->remote,
                    "how to reach a host: ssh (default) or none (all local)");
capture->callback([&context, options] { run_capture(context, *options); });

auto* check = baseline->add_subcommand("check", "compare a bundle's perftest/ runs with baselines");
add_db_option(*check, options->db);
check->add_option("--bundle", options->bundle, "bundle directory or archive")->required();
check->add_option("--threshold", options->threshold,
                  "deviation to flag (default: baseline.threshold, 5%)");
check->add_option("--format", options->format, "text or json")
    ->check(CLI::IsMember({"text", "json"}));
check->callback([&context, options] { run_check(context, *options); });

auto* list = baseline->add_subcommand("list", "every stored baseline run");
add_db_option(*list, options->db);
list->add_option("--format", options->format, "text or json")
    ->check(CLI::IsMember({"text", "json"}));
list->callback([&context, options] { run_list(context, *options); });

auto* show = baseline->add_subcommand("show", "one pair's baselines, oldest first");
add_db_option(*show, options->db);
show->add_option("PAIR", options->pair, "client__server")->required();
show->add_option("--format", options->format, "text or json")
    ->check(CLI::IsMember({"text", "json"}));
show->callback([&context, options] { run_show(context, *options); });
}  // namespace netdoctor::cli

}  // namespace netdoctor::cli
