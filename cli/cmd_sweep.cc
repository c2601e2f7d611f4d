// `netdoctor sweep --hosts LIST --via ssh|pdsh|srun`: finds the slow NICs, hosts and links of
// a host list with perftest pairs and nccl-tests run through the launcher (docs/sweep.md), and
// keeps the sweep and its runs in an incident.
// Exit 0 whenever the sweep ran (whatever its verdict), 2 for usage errors, 1 when nothing
// could be tested, 130 when Ctrl-C stopped it.
#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "base/interrupt_watch.h"
#include "base/json_text.h"
#include "base/strings.h"
#include "cli/command.h"
#include "cli/store_glue.h"
#include "cli/sweep_glue.h"
#include "collect/hostlist.h"
#include "sweep/render.h"

namespace netdoctor::cli {
namespace {

struct SweepArgs {
  std::string hosts;
  SweepFlags flags;
  std::string format = "text";
  std::optional<std::int64_t> incident;
  std::string db;
  bool no_record = false;
  std::string out;
};

void run_sweep_command(const SweepArgs& args, Context& context) {
  auto usage = [&context](const std::string& message) {
    context.err << "netdoctor sweep: " << message << "\n";
    context.exit_code = ExitCode::Usage;
  };
  auto hosts = collect::expand_hostlist(args.hosts);
  if (!hosts.ok()) {
    return usage(hosts.error().describe());
  }
  // The store is opened before any traffic: its baselines set the expectations, and a bad --db
  // is said before the sweep rather than after it.
  std::optional<store::Database> db;
  if (!args.no_record) {
    auto opened = open_store(args.db, context.settings);
    if (opened.ok()) {
      db.emplace(std::move(*opened));
    } else {
      context.err << "netdoctor sweep: warning: the sweep will not be recorded and no baseline "
                     "is used: "
                  << opened.error().describe() << "\n";
    }
  }
  auto options = sweep_options(args.flags, db ? &*db : nullptr);
  if (!options.ok()) {
    if (options.error().code == ErrorCode::InvalidArgument ||
        options.error().code == ErrorCode::NotFound) {
      return usage(options.error().describe());
    }
    context.err << "netdoctor sweep: " << options.error().describe() << "\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  const std::string launcher = collect::launcher_program(options->launcher);
  if (find_program(launcher).empty()) {
    context.err << "netdoctor sweep: " << launcher << " is not installed on this machine\n";
    context.exit_code = ExitCode::Failure;
    return;
  }
  InterruptWatch interrupt;
  options->stop = &interrupt.flag();
  LiveCommandRunner runner;
  SystemClock clock;
  const sweep::SweepReport report =
      sweep::run_sweep(*hosts, *options, runner, clock, [&context](const std::string& line) {
        context.err << "netdoctor sweep: " << printable(line) << "\n";
      });
  const std::string json = json_text(sweep::to_json(report), 2) + "\n";
  if (db) {
    auto incident = record_sweep(*db, args.incident, report, args.hosts, json);
    if (incident.ok()) {
      context.err << fmt::format("netdoctor sweep: recorded in incident {} ({} runs)\n", *incident,
                                 report.runs.size());
    } else {
      context.err << "netdoctor sweep: warning: not recorded: " << incident.error().describe()
                  << "\n";
    }
  }
  if (!args.out.empty()) {
    std::ofstream file(args.out, std::ios::binary | std::ios::trunc);
    file << json;
    if (!file) {
      context.err << "netdoctor sweep: warning: cannot write " << args.out << "\n";
    }
  }
  if (args.format == "json") {
    context.out << json;
  } else if (args.format == "md") {
    context.out << sweep::render_markdown(report);
  } else {
    context.out << sweep::render_text(report);
  }
  context.exit_code = report.interrupted                               ? ExitCode::Interrupted
                      : report.tested_nics == 0 && report.runs.empty() ? ExitCode::Failure
                                                                       : ExitCode::Ok;
}

}  // namespace

void add_sweep_command(CLI::App& app, Context& context) {
  auto args = std::make_shared<SweepArgs>();
  auto* sub = app.add_subcommand(
      "sweep",
      "find the slow NICs, hosts and links of a host list with perftest pairs and "
      "nccl-tests run through ssh, pdsh or srun");
  sub->add_option("--hosts", args->hosts, "host list: node[001-128],gpu-a[01-04]")->required();
  sub->add_option("--via", args->flags.via, "launcher: ssh (default), pdsh or srun")
      ->check(CLI::IsMember({"ssh", "pdsh", "srun"}));
  sub->add_option("--pdsh-rcmd", args->flags.pdsh_rcmd, "pdsh -R module (ssh, exec, ...)");
  add_sweep_flags(*sub, args->flags, "");
  sub->add_option("--format", args->format, "text (default), json or md")
      ->check(CLI::IsMember({"text", "json", "md"}));
  sub->add_option("--incident", args->incident,
                  "record the sweep in incident N (default: open a new incident)");
  add_db_option(*sub, args->db);
  sub->add_flag("--no-record", args->no_record, "do not record the sweep in the incident store");
  sub->add_option("--out", args->out, "also write the sweep's JSON to this file");
  sub->callback([args, &context] { run_sweep_command(*args, context); });
}

}  // namespace netdoctor::cli
