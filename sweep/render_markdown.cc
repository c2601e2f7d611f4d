#include <fmt/format.h>

#include "base/strings.h"
#include "sweep/render.h"

namespace netdoctor::sweep {
namespace {

std::string figure(const SweepRun& run) {
  if (run.busbw_gbyte_s) {
    return fmt::format("{:.1f} GB/s busbw (expected {:.1f})", *run.busbw_gbyte_s,
                       run.expected_gbps / 8.0);
  }
  if (run.gbps) {
    return fmt::format("{:.1f} Gb/s (expected {:.1f}, {})", *run.gbps, run.expected_gbps,
                       run.expected_from);
  }
  return "-";
}

std::string pair_of(const SweepRun& run) {
  if (!run.hosts.empty()) {
    return run.hosts.size() <= 3 ? join(run.hosts, ", ")
                                 : fmt::format("{} hosts, {} .. {}", run.hosts.size(),
                                               run.hosts.front(), run.hosts.back());
  }
  return fmt::format("{}/{} → {}/{}", run.client, run.device, run.server, run.server_device);
}

}  // namespace

std::string render_markdown(const SweepReport& report) {
  std::string out = fmt::format("## netdoctor sweep: {}\n\n{}\n\n", to_string(report.verdict),
                                markdown_text(report.summary));
  out += fmt::format(
      "- hosts: {} ({} NICs, {} tested)\n- {} runs in {} rounds, {:.0f} s of a "
      "{:.0f} s budget{}\n- slow = more than {:.0f} % below the pair's baseline, "
      "else below line rate x {:.2f} (collectives: x {:.2f})\n",
      report.hosts, report.nics, report.tested_nics, report.runs.size(), report.rounds,
      report.wall_s, report.budget_s, report.budget_exhausted ? " (budget reached)" : "",
      report.thresholds.rule * 100.0, report.thresholds.perftest_efficiency,
      report.thresholds.nccl_efficiency);
  if (!report.slow.empty()) {
    out += "\n### Slow\n\n| entity | measured | expected | evidence |\n|---|---|---|---|\n";
    for (const auto& slow : report.slow) {
      std::vector<std::string> evidence;
      for (const auto& line : slow.evidence) {
        evidence.push_back(markdown_text(line));
      }
      out += fmt::format("| {} | {:.1f} Gb/s | {:.1f} Gb/s | {} |\n", markdown_text(slow.entity),
                         slow.measured_gbps, slow.expected_gbps, join(evidence, "<br>"));
    }
  }
  if (!report.left_out.empty()) {
    out += "\n### Not tested\n\n| host | reason | detail |\n|---|---|---|\n";
    for (const auto& host : report.left_out) {
      out += fmt::format("| {} | {} | {} |\n", markdown_text(host.host), host.reason,
                         markdown_text(host.detail));
    }
  }
  if (!report.notes.empty()) {
    out += "\n### Notes\n\n";
    for (const auto& note : report.notes) {
      out += "- " + markdown_text(note) + "\n";
    }
  }
  out +=
      "\n### Runs\n\n| round | test | pair or group | result | figure | detail |\n"
      "|---|---|---|---|---|---|\n";
  const ListedRuns listed = listed_runs(report);
  for (const SweepRun* run : listed.runs) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", run->round, run->test,
                       markdown_text(pair_of(*run)), to_string(run->result), figure(*run),
                       markdown_text(run->detail));
  }
  if (listed.ok_unlisted > 0) {
    out += fmt::format("\n{} more runs were ok (the JSON lists every run).\n", listed.ok_unlisted);
  }
  return out;
}

}  // namespace netdoctor::sweep
