#include <fmt/format.h>

#include "base/strings.h"
#include "sweep/render.h"

namespace netdoctor::sweep {
namespace {

std::string figure(const SweepRun& run) {
  if (run.busbw_gbyte_s) {
    return fmt::format("{:.1f} GB/s busbw", *run.busbw_gbyte_s);
  }
  if (run.gbps) {
    return fmt::format("{:.1f} Gb/s", *run.gbps);
  }
  return "-";
}

std::string expected(const SweepRun& run) {
  return run.busbw_gbyte_s || !run.hosts.empty()
             ? fmt::format("{:.1f} GB/s", run.expected_gbps / 8.0)
             : fmt::format("{:.1f} Gb/s", run.expected_gbps);
}

std::string who(const SweepRun& run) {
  if (!run.hosts.empty()) {
    return run.hosts.size() <= 3
               ? join(run.hosts, ",")
               : fmt::format("{} hosts from {}", run.hosts.size(), run.hosts.front());
  }
  return fmt::format("{}/{} -> {}/{}", run.client, run.device, run.server, run.server_device);
}

}  // namespace

std::string render_text(const SweepReport& report) {
  std::string out =
      fmt::format("verdict: {}\n{}\n", to_string(report.verdict), printable(report.summary));
  if (!report.slow.empty()) {
    out += "\nslow:\n";
    for (const auto& slow : report.slow) {
      out += fmt::format("  {}  {:.1f} Gb/s measured, {:.1f} expected\n", printable(slow.entity),
                         slow.measured_gbps, slow.expected_gbps);
      for (const auto& line : slow.evidence) {
        out += fmt::format("    - {}\n", printable(line));
      }
    }
  }
  if (!report.left_out.empty()) {
    out += "\nnot tested:\n";
    for (const auto& host : report.left_out) {
      out +=
          fmt::format("  {}  {}: {}\n", printable(host.host), host.reason, printable(host.detail));
    }
  }
  for (const auto& note : report.notes) {
    out += fmt::format("note: {}\n", printable(note));
  }
  out += fmt::format("\n{} runs in {} rounds, {:.0f} s of {:.0f} s budget{}{}\n",
                     report.runs.size(), report.rounds, report.wall_s, report.budget_s,
                     report.budget_exhausted ? " (budget reached)" : "",
                     report.interrupted ? " (interrupted)" : "");
  const ListedRuns listed = listed_runs(report);
  for (const SweepRun* run : listed.runs) {
    out += fmt::format("  r{} {:<16} {:<44} {:>16}  expected {:>12}  {}{}\n", run->round, run->test,
                       printable(who(*run)), figure(*run), expected(*run), to_string(run->result),
                       run->detail.empty() ? "" : ": " + printable(run->detail));
  }
  if (listed.ok_unlisted > 0) {
    out += fmt::format("  ... and {} more ok runs (--format json lists every run)\n",
                       listed.ok_unlisted);
  }
  return terminal_text(out);  // the fields are printable() already; this is the backstop
}

}  // namespace netdoctor::sweep
