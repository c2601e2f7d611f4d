#include "cli/remote_glue.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "base/clock.h"
#include "base/private_file.h"
#include "base/tree_writer.h"
#include "model/counter_table.h"
#include "probes/counters_read.h"
#include "remote/bundle_files.h"
#include "remote/credentials.h"
#include "remote/prometheus_reader.h"
#include "remote/redact.h"
#include "remote/switch_list.h"
#include "remote/switch_poller.h"
#include "remote/time_spec.h"

namespace netdoctor::cli {
namespace {

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(std::llround(seconds * 1000.0)));
}

Result<std::unique_ptr<TreeWriter>> open_writer(const std::string& out) {
  if (is_tar_gz_path(out)) {
    return open_tar_gz_writer(out);
  }
  if (auto existing = open_dir_tree(out); existing.ok()) {
    auto entries = (*existing)->list("");
    if (entries.ok() && !entries->empty()) {
      return make_error(ErrorCode::InvalidArgument,
                        "output directory exists and is not empty; choose a new path", out);
    }
  }
  return open_dir_writer(out);
}

Result<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::NotFound, "cannot open", path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// --credentials FILE (owner-only), else the environment, else none (the switches may not
// need any). The text is parsed here and never printed.
Result<std::optional<remote::BasicAuth>> load_credentials(const SwitchArgs& args) {
  if (!args.credentials.empty()) {
    ND_TRY_ASSIGN(std::string text, read_private_file(args.credentials));
    ND_TRY_ASSIGN(remote::BasicAuth auth, remote::parse_credentials(text, args.credentials));
    return std::optional<remote::BasicAuth>(std::move(auth));
  }
  if (const char* env = std::getenv(remote::k_credentials_env); env != nullptr && *env != '\0') {
    ND_TRY_ASSIGN(remote::BasicAuth auth,
                  remote::parse_credentials(env, remote::k_credentials_env));
    return std::optional<remote::BasicAuth>(std::move(auth));
  }
  return std::optional<remote::BasicAuth>();
}

}  // namespace

void add_prometheus_options(CLI::App& command, PrometheusArgs& args) {
  command.add_option("--prometheus", args.url,
                     "read the fabric from this Prometheus server (node_exporter, snmp_exporter "
                     "if_mib and switch series; docs/prometheus.md) instead of a bundle");
  command.add_option("--at", args.at,
                     "with --prometheus: end of the window (Unix s or ISO 8601; "
                     "default now)");
  command.add_option("--window", args.window, "with --prometheus: window length (default 5m)");
  command.add_option("--step", args.step,
                     "with --prometheus: time between samples (default: the window)");
  command.add_option("--prometheus-selector", args.selector,
                     "with --prometheus: extra label matchers, e.g. job=\"node\"");
  command.add_option("--host-label", args.host_label,
                     "with --prometheus: label naming the host (default instance)");
  command.add_option("--ca-file", args.ca_file, "PEM CA bundle to verify https servers with");
  command.add_flag("--insecure", args.insecure, "do not verify TLS certificates (never default)");
  command.add_option(
      "--prometheus-timeout", args.timeout_s,
      "with --prometheus: seconds allowed each query (default: prometheus.timeout, 30)");
  command
      .add_option("--prometheus-batch", args.batch,
                  "with --prometheus: hosts (or switches) per query, which bounds each answer "
                  "(default 128)")
      ->check(CLI::Range(1, 4096));
  command.add_option("--save-bundle", args.save_bundle,
                     "with --prometheus: also write the bundle read (directory or .tar.gz)");
}

Result<Bundle> bundle_from_prometheus(const PrometheusArgs& args, Context& context,
                                      std::string& source, MachineSink* sink) {
  source = "prometheus " + remote::redact_url(args.url);
  remote::PrometheusRequest request;
  request.url = args.url;
  request.selector = args.selector;
  request.host_label = args.host_label;
  request.machines_per_query = args.batch;
  request.timeout = to_ms(args.timeout_s.value_or(context.settings.number("prometheus.timeout")));
  const auto window = remote::parse_duration(args.window);
  if (!window) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("--window '{}' is not a duration (5m, 30s, 1h)", args.window));
  }
  request.window = *window;
  if (!args.step.empty()) {
    request.step = remote::parse_duration(args.step);
    if (!request.step) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--step '{}' is not a duration (30s, 1m)", args.step));
    }
  }
  if (args.at.empty()) {
    request.at = SystemClock().now_unix();
  } else if (auto at = remote::parse_instant(args.at)) {
    request.at = *at;
  } else {
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("--at '{}' is not Unix seconds or ISO 8601 with a zone", args.at));
  }
  // Only the ethtool stats the counter table maps are asked for (a mlx5 port has hundreds), and
  // of its per-priority stats (most of a port's series) those the probes read.
  if (auto table = model::CounterTable::builtin(); table.ok()) {
    if (args.roce_priority && args.save_bundle.empty()) {
      const int roce = *args.roce_priority;
      // A counter is asked for when it becomes a metric some probe reads (on that priority).
      const auto read = [roce](const model::MetricKey& key) {
        return probes::probes_read_nic_metric(key.name) &&
               (key.index < 0 || probes::probes_read_priority(key.name, key.index, roce));
      };
      request.ethtool_stats = table->counter_names(model::CounterSource::Ethtool, read);
      std::set<std::string, std::less<>> files;
      for (const auto& [counters, dir] :
           {std::pair{model::CounterSource::IbCounters, "counters/"},
            std::pair{model::CounterSource::HwCounters, "hw_counters/"},
            std::pair{model::CounterSource::NetdevStats, "statistics/"}}) {
        for (const auto& counter : table->counter_names(counters, read)) {
          files.insert(dir + counter);
        }
      }
      request.sysfs_counter_wanted = [files = std::move(files)](std::string_view file) {
        return files.count(file) != 0;
      };
      // The switches' PFC: the probes read it on the RoCE priority alone; of their queue
      // counters, those the probes read.
      request.switch_pfc_priority = roce;
      request.switch_queue_wanted = probes::probes_read_switch_queue_metric;
      request.switch_counter_wanted = probes::probes_read_switch_interface_metric;
      // Their queues' traffic only for the switches whose drops or missing rates want it.
      request.queue_traffic_rule = [](const std::vector<std::vector<double>>& drops, bool rate) {
        const probes::QueueTrafficReads reads = probes::probes_read_queue_traffic(drops, rate);
        return remote::QueueTrafficWanted{reads.packets, reads.bytes};
      };
    } else {
      request.ethtool_stats = table->counter_names(model::CounterSource::Ethtool);
    }
  }
  remote::HttpClientOptions http;
  http.ca_file = args.ca_file;
  http.verify_tls = !args.insecure;
  auto client = remote::make_curl_http_client(http);
  if (!args.save_bundle.empty()) {
    sink = nullptr;
  }
  auto read = remote::read_prometheus(*client, request, sink);
  if (!read.ok()) {
    Error error = read.error();
    if (error.code == ErrorCode::InvalidArgument && error.context.empty()) {
      error.code = ErrorCode::Io;  // the server's refusal is not the user's usage error
    }
    return error;
  }
  const auto& stats = read->stats;
  context.err << fmt::format(
      "netdoctor diagnose: read {} series ({} hosts, {} switches) from Prometheus in {} "
      "queries, {:.1f} MiB{}\n",
      stats.series, stats.hosts, stats.switches, stats.queries,
      static_cast<double>(stats.bytes) / (1024.0 * 1024.0),
      stats.failed_batches == 0
          ? std::string()
          : fmt::format("; {} batch(es) failed (see data problems)", stats.failed_batches));
  if (!args.save_bundle.empty()) {
    auto writer = open_writer(args.save_bundle);
    Status status = writer.ok() ? remote::write_tree_files(*read->tree, **writer) : writer.error();
    if (status.ok()) {
      status = (*writer)->finish();
    }
    if (!status.ok()) {
      context.err << "netdoctor diagnose: warning: bundle not saved: " << status.error().describe()
                  << "\n";
    } else {
      context.err << "netdoctor diagnose: bundle read from Prometheus saved to " << args.save_bundle
                  << "\n";
    }
  }
  if (sink != nullptr) {
    Bundle rest;  // the machines went to the sink
    rest.path = source;
    rest.tree = read->tree;
    rest.problems = std::move(read->problems);
    return rest;
  }
  ND_TRY_ASSIGN(Bundle bundle, open_bundle_tree(read->tree, source));
  bundle.problems.insert(bundle.problems.begin(), read->problems.begin(), read->problems.end());
  return bundle;
}

void add_switch_options(CLI::App& command, SwitchArgs& args) {
  command.add_option("--switches", args.list,
                     "poll the switches of this list (NAME URL sonic|eapi per line) over HTTPS");
  command.add_option("--credentials", args.credentials,
                     "with --switches: file holding user:password, mode 0600 (else "
                     "$NETDOCTOR_SWITCH_CREDENTIALS)");
  command.add_option("--ca-file", args.ca_file, "with --switches: PEM CA bundle for the switches");
  command.add_flag("--insecure", args.insecure,
                   "with --switches: do not verify TLS certificates (never default)");
  command.add_option(
      "--switch-timeout", args.timeout_s,
      "with --switches: seconds allowed each request (default: switches.timeout, 5)");
}

void run_switch_collect(const SwitchArgs& args, const std::string& out, int samples,
                        double interval_s, Context& context) {
  auto fail = [&context](ExitCode code, const std::string& message) {
    context.err << "netdoctor collect: " << message << "\n";
    context.exit_code = code;
  };
  if (out == "-") {
    return fail(ExitCode::Usage, "--switches writes a directory or .tar.gz, not stdout");
  }
  auto text = read_text_file(args.list);
  if (!text.ok()) {
    return fail(ExitCode::Usage, "--switches: " + text.error().describe());
  }
  auto switches = remote::parse_switch_list(*text, args.list);
  if (!switches.ok()) {
    return fail(ExitCode::Usage, switches.error().describe());
  }
  if (switches->empty()) {
    return fail(ExitCode::Usage, args.list + ": no switch listed");
  }
  auto auth = load_credentials(args);
  if (!auth.ok()) {
    return fail(ExitCode::Usage, "credentials: " + auth.error().describe());
  }
  remote::Redactor redactor;
  if (*auth) {
    redactor.add_credentials(**auth);
  }
  remote::HttpClientOptions http;
  http.ca_file = args.ca_file;
  http.verify_tls = !args.insecure;
  auto client = remote::make_curl_http_client(http);
  remote::SwitchPollOptions options;
  options.auth = *auth;
  options.timeout = to_ms(args.timeout_s.value_or(context.settings.number("switches.timeout")));

  auto writer = open_writer(out);
  if (!writer.ok()) {
    return fail(ExitCode::Failure, writer.error().describe());
  }
  SystemClock clock;
  std::set<std::string> answered;
  std::size_t files = 0;
  std::string log;
  for (int s = 0; s < samples; ++s) {
    if (s > 0) {
      clock.sleep_for(to_ms(interval_s));
    }
    const double started = clock.now_unix();
    auto round = remote::poll_switches(*client, *switches, options, fmt::format("{:03}", s),
                                       started, redactor);
    if (auto status = remote::write_bundle_files(round.files, **writer); !status.ok()) {
      return fail(ExitCode::Failure, redactor.apply(status.error().describe()));
    }
    files += round.files.files.size();
    for (const auto& outcome : round.outcomes) {
      if (outcome.files > 0) {
        answered.insert(outcome.name);
      }
      const std::string not_answered =
          outcome.notes.empty()
              ? std::string()
              : fmt::format(" (not answered: {})", fmt::join(outcome.notes, "; "));
      const std::string line =
          outcome.ok() ? fmt::format("{} sample {}: ok, {} outputs, {:.2f}s{}", outcome.name, s,
                                     outcome.files, outcome.seconds, not_answered)
                       : fmt::format("{} sample {}: FAILED: {}", outcome.name, s,
                                     fmt::join(outcome.errors, "; "));
      log += line + "\n";
      if (!outcome.ok()) {
        context.err << "netdoctor collect: " << line << "\n";
      }
    }
  }
  Status status = (*writer)->write_file("switches-collect.log", redactor.apply(log));
  if (status.ok()) {
    status = (*writer)->finish();
  }
  if (!status.ok()) {
    return fail(ExitCode::Failure, redactor.apply(status.error().describe()));
  }
  context.err << fmt::format(
      "netdoctor collect: {} of {} switch(es) answered, {} sample(s), {} files -> {}\n",
      answered.size(), switches->size(), samples, files, out);
  context.exit_code = answered.empty() ? ExitCode::Failure : ExitCode::Ok;
}

}  // namespace netdoctor::cli
