// `netdoctor collect`: captures this host into a bundle (spec/bundle.md), or, with --hosts and
// --via, every host of a list through ssh, pdsh or srun, merged into one bundle.
//
//   netdoctor collect --out PATH [--samples S] [--interval SEC] [--root DIR] [--host NAME]
//   netdoctor collect --hosts node[01-32] --via ssh|pdsh|srun [--parallel P] --out PATH
//
// On a host with an InfiniBand port (or with --fabric) each sample also captures the subnet's
// views into fabric/<sample>/ (collect/fabric_collector.h); --no-fabric skips them.
//
// PATH is a directory, a .tar.gz, or "-" (a .tar.gz on standard output; --base64 makes it
// text, which is how fan-out carries captures through launchers).
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/sample_source.h"
#include "base/tree_writer.h"
#include "cli/command.h"
#include "cli/fanout_report.h"
#include "cli/remote_glue.h"
#include "collect/fanout.h"
#include "collect/host_collector.h"
#include "collect/hostlist.h"
#include "collect/nccl_logs.h"
#include "collect/stream_writer.h"
#include "collect/verbs_source.h"

namespace netdoctor::cli {
namespace {

struct CollectArgs {
  std::string out;
  int samples = 2;
  double interval_s = 1.0;
  std::string root = "/";
  std::string host;
  bool base64 = false;
  std::optional<double> command_timeout_s;  // unset: collect.command_timeout
  // fan-out
  std::string hosts;
  std::string via;
  std::optional<int> parallel;  // unset: collect.parallel
  std::string remote_command = "netdoctor";
  std::vector<std::string> remote_args;
  std::string pdsh_rcmd;
  std::optional<double> host_timeout_s;  // unset: collect.host_timeout
  SwitchArgs switches;
  std::vector<std::string> nccl_logs;  // the job's NCCL_DEBUG=INFO logs, nccl-tests outputs
  std::string nccl_job = "job";
  // InfiniBand fabric views
  bool fabric = false;
  bool no_fabric = false;
  int fabric_parallel = 8;
  double fabric_timeout_s = 60.0;
};

// Commands of one sample run this many at a time: each is mostly waiting on the kernel or a
// daemon, and a sample should be short so its counters describe one moment.
constexpr int k_command_parallelism = 8;

void fail(Context& context, ExitCode code, const std::string& message) {
  context.err << "netdoctor collect: " << message << "\n";
  context.exit_code = code;
}

// The job's NCCL logs into nccl/<job>/; a file that cannot be read is said and skipped.
Status add_nccl_logs(const CollectArgs& args, TreeWriter& writer, Context& context) {
  if (args.nccl_logs.empty()) {
    return {};
  }
  ND_TRY_ASSIGN(auto report, collect::copy_nccl_logs(args.nccl_logs, args.nccl_job, writer));
  for (const auto& note : report.notes) {
    context.err << "netdoctor collect: " << note << "\n";
  }
  context.err << fmt::format("netdoctor collect: {} of {} NCCL log(s) -> nccl/{}/\n", report.copied,
                             args.nccl_logs.size(), args.nccl_job);
  return {};
}

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(std::llround(seconds * 1000.0)));
}

// The output sink. For "-" the archive goes to the context's output stream.
class Output {
 public:
  Result<TreeWriter*> open(const CollectArgs& args, Context& context) {
    if (args.out == "-") {
      if (args.base64) {
        m_base64 = std::make_unique<collect::Base64Sink>([&context](std::string_view bytes) {
          context.out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
          return context.out ? Status{} : make_error(ErrorCode::Io, "cannot write stdout");
        });
        ND_TRY_ASSIGN(
            m_writer,
            open_tar_gz_stream_writer(
                [this](std::string_view bytes) { return m_base64->write(bytes); }, "stdout"));
      } else {
        ND_TRY_ASSIGN(
            m_writer,
            open_tar_gz_stream_writer(
                [&context](std::string_view bytes) {
                  context.out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
                  return context.out ? Status{} : make_error(ErrorCode::Io, "cannot write stdout");
                },
                "stdout"));
      }
    } else if (is_tar_gz_path(args.out)) {
      ND_TRY_ASSIGN(m_writer, open_tar_gz_writer(args.out));
    } else {
      // A capture must not mix with an older one: refuse a directory that already has content.
      if (auto existing = open_dir_tree(args.out); existing.ok()) {
        auto entries = (*existing)->list("");
        if (entries.ok() && !entries->empty()) {
          return make_error(ErrorCode::InvalidArgument,
                            "output directory exists and is not empty; choose a new path",
                            args.out);
        }
      }
      ND_TRY_ASSIGN(m_writer, open_dir_writer(args.out));
    }
    return m_writer.get();
  }

  Status finish() {
    ND_TRY(m_writer->finish());
    if (m_base64) {
      ND_TRY(m_base64->finish());
    }
    return {};
  }

 private:
  std::unique_ptr<collect::Base64Sink> m_base64;
  std::unique_ptr<TreeWriter> m_writer;
};

void run_local(const CollectArgs& args, Context& context) {
  if (auto root = open_dir_tree(args.root); !root.ok()) {
    return fail(context, ExitCode::Failure, "cannot use --root: " + root.error().describe());
  }
  LiveCommandRunner runner;
  SystemClock clock;
  CommandOptions command_options;
  command_options.timeout = to_ms(*args.command_timeout_s);

  collect::CollectOptions options;
  options.samples = args.samples;
  options.interval = to_ms(args.interval_s);
  options.command_parallelism = k_command_parallelism;
  options.host = args.host;
  options.fabric_runner = &runner;
  options.fabric.mode = args.fabric      ? collect::FabricMode::On
                        : args.no_fabric ? collect::FabricMode::Off
                                         : collect::FabricMode::Auto;
  options.fabric.parallelism = args.fabric_parallel;
  options.fabric.view_command.timeout = to_ms(args.fabric_timeout_s);
  options.fabric.perfquery_command = command_options;
  options.fabric.progress = [&context](const std::string& line) {
    context.err << "netdoctor collect: " << line << "\n";
  };
  if (options.host.empty()) {
    auto named = collect::host_name_of(*make_live_sample(args.root, runner, command_options, 0.0));
    if (!named.ok()) {
      return fail(context, ExitCode::Usage, named.error().describe());
    }
    options.host = *named;
  }
  if (auto status = collect::check_host_name(options.host); !status.ok()) {
    return fail(context, ExitCode::Usage, status.error().describe());
  }
  // A fake root stands for another host: its sysfs alone names the RDMA devices.
  std::unique_ptr<collect::VerbsSource> verbs;
  if (args.root == "/") {
    verbs = collect::make_ibverbs_source();
    if (!verbs) {
      context.err << "netdoctor collect: built without libibverbs; RDMA devices from sysfs only\n";
    }
  }

  Output output;
  auto writer = output.open(args, context);
  if (!writer.ok()) {
    return fail(context, ExitCode::Failure, writer.error().describe());
  }
  const collect::SampleFactory factory = [&](double time) {
    return make_live_sample(args.root, runner, command_options, time);
  };
  const auto on_note = [&context](const std::string& note) {
    context.err << "netdoctor collect: " << note << "\n";
  };
  auto report = collect::collect_host(options, factory, verbs.get(), clock, **writer, on_note);
  if (!report.ok()) {
    return fail(context, ExitCode::Failure, report.error().describe());
  }
  if (auto status = add_nccl_logs(args, **writer, context); !status.ok()) {
    return fail(context, ExitCode::Failure, status.error().describe());
  }
  if (auto status = collect::write_manifest(**writer, clock.now_unix(),
                                            "netdoctor collect on " + options.host);
      !status.ok()) {
    return fail(context, ExitCode::Failure, status.error().describe());
  }
  if (auto status = output.finish(); !status.ok()) {
    return fail(context, ExitCode::Failure, status.error().describe());
  }
  context.err << fmt::format(
      "netdoctor collect: {} -> {}: {} sample(s), {} RDMA device(s), {} interface(s), {} files, "
      "{} command outputs, {} note(s)\n",
      options.host, args.out, report->sample_names.size(), report->plan.rdma_devices.size(),
      report->plan.interfaces.size(), report->files_written, report->commands_captured,
      report->notes.size());
  if (report->fabric_samples > 0) {
    context.err << fmt::format(
        "netdoctor collect: fabric: {} sample(s), {} outputs, {} failed command(s) (each "
        "sample's fabric/<sample>/{} says which)\n",
        report->fabric_samples, report->fabric_outputs, report->fabric_failed,
        collect::k_fabric_log);
  }
  context.exit_code = ExitCode::Ok;
}

void run_fanout(const CollectArgs& args, Context& context, const CLI::App& sub) {
  auto hosts = collect::expand_hostlist(args.hosts);
  if (!hosts.ok()) {
    return fail(context, ExitCode::Usage, hosts.error().describe());
  }
  auto launcher = collect::parse_launcher(args.via);
  if (!launcher.ok()) {
    return fail(context, ExitCode::Usage, launcher.error().describe());
  }
  if (find_program(collect::launcher_program(*launcher)).empty()) {
    return fail(context, ExitCode::Failure,
                collect::launcher_program(*launcher) + " is not installed on this machine");
  }
  collect::FanoutOptions options;
  options.launcher = *launcher;
  options.parallel = *args.parallel;
  options.remote_command = {args.remote_command};
  options.pdsh_rcmd = args.pdsh_rcmd;
  options.timeout = to_ms(*args.host_timeout_s);
  if (sub.count("--samples") > 0) {
    options.collect_args.insert(options.collect_args.end(),
                                {"--samples", std::to_string(args.samples)});
  }
  if (sub.count("--interval") > 0) {
    options.collect_args.insert(options.collect_args.end(),
                                {"--interval", fmt::format("{}", args.interval_s)});
  }
  options.collect_args.insert(options.collect_args.end(), args.remote_args.begin(),
                              args.remote_args.end());
  // The subnet is swept once: the first host's capture carries the fabric views.
  if (args.no_fabric) {
    options.collect_args.emplace_back("--no-fabric");
  } else {
    options.fabric_host = hosts->front();
    if (args.fabric) {
      options.fabric_host_args = {"--fabric"};
    }
  }

  prepare_fanout(options, context.err, "netdoctor collect");
  Output output;
  auto writer = output.open(args, context);
  if (!writer.ok()) {
    return fail(context, ExitCode::Failure, writer.error().describe());
  }
  LiveCommandRunner runner;
  context.err << fmt::format("netdoctor collect: {} host(s) via {}, {} at a time\n", hosts->size(),
                             args.via, options.parallel);
  FanoutReport report(context.err, "netdoctor collect", hosts->size());
  const auto outcomes = collect::fan_out(*hosts, options, runner, **writer, report.sink());
  report.finish();

  std::string log;
  for (const auto& outcome : outcomes) {
    if (outcome.ok) {
      log +=
          fmt::format("{}: ok, {} files, {:.1f}s\n", outcome.host, outcome.files, outcome.seconds);
    } else {
      log += fmt::format("{}: FAILED: {}\n", outcome.host, outcome.error);
    }
  }
  const SystemClock clock;
  Status status = (*writer)->write_file(collect::k_collect_log, log);
  if (status.ok()) {
    status = add_nccl_logs(args, **writer, context);
  }
  if (status.ok()) {
    status = collect::write_manifest(**writer, clock.now_unix(),
                                     fmt::format("netdoctor collect --hosts {}", args.hosts));
  }
  if (status.ok()) {
    status = output.finish();
  }
  if (!status.ok()) {
    return fail(context, ExitCode::Failure, status.error().describe());
  }
  const std::size_t merged = report.counts().done();
  context.err << fmt::format("netdoctor collect: merged {} of {} host(s) into {}\n", merged,
                             outcomes.size(), args.out);
  context.exit_code = merged == 0 ? ExitCode::Failure : ExitCode::Ok;
}

// The flags not given take their values from the site configuration.
CollectArgs with_settings(CollectArgs args, const Settings& settings) {
  if (!args.command_timeout_s) {
    args.command_timeout_s = settings.number("collect.command_timeout");
  }
  if (!args.host_timeout_s) {
    args.host_timeout_s = settings.number("collect.host_timeout");
  }
  if (!args.parallel) {
    args.parallel = static_cast<int>(settings.number("collect.parallel"));
  }
  if (!args.hosts.empty() && args.via.empty()) {
    args.via = settings.text("collect.launcher");
  }
  return args;
}

void run_collect(const CollectArgs& given, Context& context, const CLI::App& sub) {
  const CollectArgs args = with_settings(given, context.settings);
  if (args.samples < 1) {
    return fail(context, ExitCode::Usage, "--samples must be at least 1");
  }
  if (!(args.interval_s >= 0.0) || !(*args.command_timeout_s > 0.0)) {
    return fail(context, ExitCode::Usage, "--interval must be >= 0 and --timeout > 0");
  }
  if (args.fabric && args.no_fabric) {
    return fail(context, ExitCode::Usage, "--fabric and --no-fabric exclude each other");
  }
  if (args.fabric_parallel < 1 || !(args.fabric_timeout_s > 0.0)) {
    return fail(context, ExitCode::Usage, "--fabric-parallel must be >= 1, --fabric-timeout > 0");
  }
  if (args.base64 && args.out != "-") {
    return fail(context, ExitCode::Usage, "--base64 applies to --out - only");
  }
  if (args.hosts.empty() != args.via.empty()) {
    return fail(context, ExitCode::Usage,
                "--hosts and --via go together (or set collect.launcher in the configuration)");
  }
  if (!args.switches.list.empty()) {
    return run_switch_collect(args.switches, args.out, args.samples, args.interval_s, context);
  }
  if (!args.hosts.empty()) {
    return run_fanout(args, context, sub);
  }
  run_local(args, context);
}

}  // namespace

void add_collect_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<CollectArgs>();
  auto* sub = app.add_subcommand("collect", "Capture this host (or a host list) into a bundle");
  sub->add_option("--out", args->out, "bundle directory, .tar.gz, or - for stdout")->required();
  sub->add_option("--samples", args->samples, "samples per host (rates need 2)");
  sub->add_option("--interval", args->interval_s, "seconds from one sample to the next");
  sub->add_option("--root", args->root, "read files under this directory instead of /");
  sub->add_option("--host", args->host, "host name in the bundle (default: the host's own)");
  sub->add_flag("--base64", args->base64, "with --out -: base64 text instead of binary");
  sub->add_option("--timeout", args->command_timeout_s,
                  "seconds allowed each command (default: collect.command_timeout, 10)");
  sub->add_option("--hosts", args->hosts, "host list: node[01-32],gpu-a[001-128]");
  sub->add_option("--via", args->via, "launcher for --hosts")
      ->check(CLI::IsMember({"ssh", "pdsh", "srun"}));
  sub->add_option("--parallel", args->parallel,
                  "hosts collected at once (default: collect.parallel, 16)");
  sub->add_option("--remote-command", args->remote_command, "netdoctor's path on the hosts");
  sub->add_option("--remote-arg", args->remote_args,
                  "extra argument for the remote collect (repeatable; %h = host name)")
      ->allow_extra_args(false);
  sub->add_option("--pdsh-rcmd", args->pdsh_rcmd, "pdsh -R module (ssh, exec, ...)");
  sub->add_option("--host-timeout", args->host_timeout_s,
                  "seconds allowed each host (default: collect.host_timeout, 300)");
  sub->add_option("--nccl-log", args->nccl_logs,
                  "a log of the job run with NCCL_DEBUG=INFO or an nccl-tests output, copied "
                  "into nccl/<job>/ (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--nccl-job", args->nccl_job, "the job's name under nccl/ (default: job)");
  sub->add_flag("--fabric", args->fabric,
                "capture the InfiniBand fabric views into fabric/<sample>/ even without an "
                "InfiniBand port in sysfs (default: when this host has one)");
  sub->add_flag("--no-fabric", args->no_fabric, "never capture the InfiniBand fabric views");
  sub->add_option("--fabric-parallel", args->fabric_parallel,
                  "perfquery commands of the fabric sweep run at once (default 8)");
  sub->add_option("--fabric-timeout", args->fabric_timeout_s,
                  "seconds allowed each fabric-wide view such as ibnetdiscover (default 60; "
                  "each perfquery has --timeout)");
  add_switch_options(*sub, args->switches);
  sub->callback([args, &context, sub] { run_collect(*args, context, *sub); });
}

}  // namespace netdoctor::cli
