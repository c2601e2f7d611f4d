#include <fmt/format.h>

#include "base/strings.h"
#include "engine/render.h"

namespace netdoctor::engine {

// Names, summaries, reasons and paths come from bundles written on other machines: they are
// written as text (markdown_text, markdown_code). Kb text keeps its code spans, and a name filled
// into it cannot open a link or raw HTML or close a span early (markdown_with_code).
namespace {

void append_cause(std::string& out, const RankedCause& cause, const RenderOptions& options) {
  out += fmt::format("\n## {} - {}\n\n", cause.id, markdown_cell(cause.title));
  out += fmt::format("Confidence **{:.2f}**", cause.confidence);
  if (!cause.entities.empty()) {
    out += "; culprits: ";
    for (std::size_t i = 0; i < cause.entities.size(); ++i) {
      out += (i ? ", " : "") + markdown_code(cause.entities[i]);
    }
  }
  out += "\n\n| probe | evidence | value | fleet normal |\n|---|---|---|---|\n";
  for (const auto& item : cause.evidence) {
    std::string unit = item.unit.empty() ? "" : " " + item.unit;
    out += fmt::format("| {} | {} | {} | {} |\n", item.probe, markdown_text(item.summary),
                       item.value ? fmt::format("{:g}{}", *item.value, unit) : "",
                       item.fleet_normal ? fmt::format("{:g}{}", *item.fleet_normal, unit) : "");
  }
  if (cause.onset) {
    out += fmt::format("\n**Began** {}.\n\nPer interval: {}\n",
                       markdown_text(describe_onset(*cause.onset)),
                       markdown_text(describe_timeline(*cause.onset)));
  }
  if (cause.next_change) {
    const NextChange& change = *cause.next_change;
    out += fmt::format("\n**Next change** ({}: {} -> {}): {}\n\n**Verify:** {}\n\n",
                       markdown_with_code(change.variable), markdown_with_code(change.from),
                       markdown_with_code(change.to), markdown_with_code(change.action),
                       markdown_with_code(change.verify));
    // One line (printable: a quoted newline could start a closing fence), so the fence holds.
    out += "```sh\n" + printable(change_record_command(change, options.incident)) + "\n```\n";
  }
  if (!cause.remediation.empty()) {
    out += "\n**Remediation**\n\n";
    for (std::size_t i = 0; i < cause.remediation.size(); ++i) {
      out += fmt::format("{}. {}\n", i + 1, markdown_with_code(cause.remediation[i]));
    }
  }
}

}  // namespace

std::string render_markdown(const Diagnosis& diagnosis, const RenderOptions& options) {
  std::string out = fmt::format("# netdoctor diagnosis: {}\n\n", diagnosis.symptom);
  out += "**" + markdown_text(headline(diagnosis)) + "**\n";
  for (const auto& cause : diagnosis.causes) {
    append_cause(out, cause, options);
  }
  if (!diagnosis.ruled_out.empty()) {
    out += "\n## Checked and ruled out\n\n";
    for (const auto& item : diagnosis.ruled_out) {
      out += "- " + markdown_text(item) + "\n";
    }
  }
  out += "\n## Probes\n\n| probe | status | duration | reason |\n|---|---|---|---|\n";
  for (const auto& probe : diagnosis.probes) {
    out += fmt::format("| {} | {} | {:.1f} ms | {} |\n", probe.id, probe.status, probe.duration_ms,
                       markdown_text(probe.reason));
  }
  if (!diagnosis.data_problems.empty()) {
    out += "\n## Data problems\n\n";
    for (const auto& problem : diagnosis.data_problems) {
      out += "- " + markdown_text(problem) + "\n";
    }
  }
  if (!diagnosis.settings.empty()) {
    out += "\n## Non-default settings\n\n| key | value | from |\n|---|---|---|\n";
    for (const auto& setting : diagnosis.settings) {
      out += fmt::format("| {} | {} | {} |\n", markdown_cell(setting.key),
                         markdown_text(setting.value), markdown_text(setting.origin));
    }
  }
  if (options.explain) {
    out +=
        "\n## Score movements\n\n| cause | probe | signal | delta | why |\n|---|---|---|---|---|\n";
    for (const auto& move : diagnosis.explain) {
      out += fmt::format("| {} | {} | {} | {:+.2f} | {} |\n", move.cause, move.probe, move.signal,
                         move.delta, markdown_text(move.why));
    }
  }
  return out;
}

}  // namespace netdoctor::engine
