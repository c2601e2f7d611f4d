#include "collect/fabric_collector.h"

#include <fmt/format.h>

#include <chrono>

#include "base/strings.h"
#include "collect/command_pool.h"
#include "collect/fabric_plan.h"
#include "parsers/ibnetdiscover.h"

namespace netdoctor::collect {
namespace {

// How much of a failed command's stderr a note keeps (its last lines say why).
constexpr std::size_t k_stderr_lines = 3;
constexpr std::size_t k_stderr_chars = 400;
// A sweep of at least this many commands reports progress every tenth.
constexpr std::size_t k_progress_min = 50;

std::string stderr_tail(const std::string& err) {
  std::vector<std::string> kept;
  const auto lines = split_lines(err);
  for (auto it = lines.rbegin(); it != lines.rend() && kept.size() < k_stderr_lines; ++it) {
    const std::string_view line = trim(*it);
    if (!line.empty()) {
      kept.insert(kept.begin(), std::string(line));
    }
  }
  std::string text = join(kept, " | ");
  if (text.size() > k_stderr_chars) {
    text = text.substr(0, k_stderr_chars) + "...";
  }
  return text.empty() ? "nothing on stderr" : text;
}

// True when every line says only why the tool failed ("sminfo: iberror: failed: query",
// "ibwarn: ..."), or there is none.
bool only_diagnostics(std::string_view out) {
  for (std::string_view line : split_lines(out)) {
    line = trim(line);
    if (!line.empty() && line.find("iberror:") == std::string_view::npos &&
        !starts_with(line, "ibwarn:") && !starts_with(line, "ibpanic:")) {
      return false;
    }
  }
  return true;
}

class FabricSampleWriter {
 public:
  FabricSampleWriter(TreeWriter& out, std::string prefix, FabricSampleReport& report)
      : m_out(out), m_prefix(std::move(prefix)), m_report(report) {}

  // Writes what the command gave under its mangled name; notes what failed. True if written.
  Result<bool> record(const std::vector<std::string>& argv, const Result<CommandOutput>& run) {
    const std::string line = join(argv, " ");
    if (!run.ok()) {
      note_failure(run.error().code == ErrorCode::NotFound
                       ? fmt::format("{} is not installed: '{}' not captured", argv.front(), line)
                       : fmt::format("'{}' failed: {}", line, run.error().message));
      return false;
    }
    const CommandOutput& output = *run;
    const bool failed = output.exit_code != 0;
    // infiniband-diags print their iberror line on stdout: a failure that printed nothing else
    // gave no view; but sminfo failing is the view itself (no SM answered), kept as printed
    // so that the sample says "asked, no master" rather than nothing.
    const bool no_sm = failed && argv.front() == "sminfo";
    const bool keep = !failed || no_sm || !only_diagnostics(output.out);
    if (failed) {
      note_failure(fmt::format("'{}' failed (exit {}{}): {}", line, output.exit_code,
                               keep ? ", its output kept" : "",
                               stderr_tail(keep ? output.err : output.out + "\n" + output.err)));
    }
    if (!keep) {
      return false;
    }
    if (no_sm && only_diagnostics(output.out)) {
      ND_TRY(write(std::string("sos_commands/") + k_fabric_group + "/" + mangle_command(argv),
                   output.out + output.err));
      return true;
    }
    if (trim(output.out).empty()) {
      // Nothing to read (ibqueryerrors without a subnet manager): no view, said why.
      note_failure(fmt::format("'{}' printed nothing (exit 0): {}", line, stderr_tail(output.err)));
      return false;
    }
    ND_TRY(write(std::string("sos_commands/") + k_fabric_group + "/" + mangle_command(argv),
                 output.out));
    return true;
  }

  Status write(const std::string& relative, std::string_view content) {
    return m_out.write_file(m_prefix + "/" + relative, content);
  }

  void note(std::string text) { m_report.notes.push_back(std::move(text)); }

 private:
  void note_failure(std::string text) {
    ++m_report.failed;
    note(std::move(text));
  }

  TreeWriter& m_out;
  std::string m_prefix;
  FabricSampleReport& m_report;
};

// Runs `commands`, writes what each gave; the outputs come back for callers that read them.
Result<std::vector<Result<CommandOutput>>> run_and_record(
    const std::vector<std::vector<std::string>>& commands, CommandRunner& runner,
    const CommandOptions& command, int parallelism, const PoolProgress& progress,
    FabricSampleWriter& writer, std::size_t& written) {
  auto results = run_bounded(commands, runner, command, parallelism, progress);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    ND_TRY_ASSIGN(bool kept, writer.record(commands[i], results[i]));
    written += kept ? 1 : 0;
  }
  return results;
}

PoolProgress sweep_progress(const std::string& sample, const std::string& what,
                            const FabricProgress& progress) {
  return [sample, what, progress](std::size_t done, std::size_t total) {
    if (!progress || total < k_progress_min) {
      return;
    }
    const std::size_t step = total / 10;
    if (done % step == 0 || done == total) {
      progress(fmt::format("fabric sample {}: {} {}/{}", sample, what, done, total));
    }
  };
}

// The sweep of one sample: extended counters of every target, then plain PortCounters of the
// targets whose extended block lacks error counters and PortXmitWait.
Status sweep(const std::string& sample, const SweepPlan& plan, CommandRunner& runner,
             const FabricOptions& options, FabricSampleWriter& writer, FabricSampleReport& report) {
  std::vector<std::vector<std::string>> extended;
  for (const auto& target : plan.targets) {
    extended.push_back(extended_perfquery(target));
  }
  ND_TRY_ASSIGN(auto results,
                run_and_record(extended, runner, options.perfquery_command, options.parallelism,
                               sweep_progress(sample, "perfquery -x", options.progress), writer,
                               report.perfquery));
  std::vector<std::vector<std::string>> plain;
  for (std::size_t i = 0; i < plan.targets.size(); ++i) {
    if (results[i].ok() && needs_plain_counters(results[i]->out)) {
      plain.push_back(plain_perfquery(plan.targets[i]));
    }
  }
  ND_TRY(run_and_record(plain, runner, options.perfquery_command, options.parallelism,
                        sweep_progress(sample, "perfquery", options.progress), writer,
                        report.perfquery));
  return {};
}

std::string log_text(const std::string& sample, double at, const FabricSampleReport& report) {
  std::string text = fmt::format(
      "netdoctor collect: fabric sample {} at {:.6f}: {} nodes, {} perfquery targets, {} views, "
      "{} perfquery outputs, {} failed commands\n",
      sample, at, report.nodes, report.targets, report.views, report.perfquery, report.failed);
  for (const auto& note : report.notes) {
    text += note + "\n";
  }
  return text;
}

}  // namespace

bool has_infiniband_port(const SampleSource& host, const CapturePlan& plan) {
  for (const auto& device : plan.rdma_devices) {
    const std::string ports = "/sys/class/infiniband/" + device + "/ports";
    for (const auto& entry : host.list_dir(ports).value_or({})) {
      auto layer = host.read_file(ports + "/" + entry.name + "/link_layer");
      if (layer.ok() && trim(*layer) == "InfiniBand") {
        return true;
      }
    }
  }
  return false;
}

Result<FabricSampleReport> capture_fabric_sample(const std::string& sample, double at,
                                                 CommandRunner& runner,
                                                 const FabricOptions& options, TreeWriter& out) {
  const auto start = std::chrono::steady_clock::now();
  FabricSampleReport report;
  FabricSampleWriter writer(out, "fabric/" + sample, report);
  const auto views = fabric_view_commands();
  ND_TRY_ASSIGN(auto results, run_and_record(views, runner, options.view_command,
                                             options.parallelism, {}, writer, report.views));
  // ibnetdiscover; a partial discovery (some node did not answer) still plans the sweep.
  const auto& discovered = results.front();
  if (discovered.ok() && !only_diagnostics(discovered->out)) {
    auto topology = parsers::parse_ibnetdiscover(discovered->out);
    if (topology.ok()) {
      const SweepPlan plan = plan_perfquery_sweep(*topology);
      report.nodes = plan.nodes;
      report.targets = plan.targets.size();
      if (plan.nodes_without_lid > 0) {
        writer.note(fmt::format(
            "{} of {} nodes have no LID (no subnet manager has assigned them): not swept by "
            "perfquery",
            plan.nodes_without_lid, plan.nodes));
      }
      ND_TRY(sweep(sample, plan, runner, options, writer, report));
    } else {
      writer.note("ibnetdiscover's output does not parse (" + topology.error().message +
                  "): no perfquery sweep");
    }
  } else {
    writer.note("no topology from ibnetdiscover: no perfquery sweep");
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ND_TRY(writer.write("captured_at", fmt::format("{:.6f}\n", at)));
  // The log last: its presence says the sample is complete.
  ND_TRY(writer.write(k_fabric_log, log_text(sample, at, report)));
  return report;
}

}  // namespace netdoctor::collect
