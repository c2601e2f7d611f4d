#include <fmt/format.h>

#include "base/strings.h"
#include "engine/render.h"

namespace netdoctor::engine {

namespace {

constexpr std::size_t k_max_ruled_out_lines = 15;

void append_cause(std::string& out, const RankedCause& cause, const RenderOptions& options,
                  bool first) {
  if (!first) {
    out += fmt::format("\nALSO: {} at {} - {} (confidence {:.2f})\n", cause.id,
                       cause.entities.empty() ? "fabric-wide" : cause.entities.front(), cause.title,
                       cause.confidence);
  }
  if (cause.entities.size() > 1) {
    out += "  Culprits: ";
    for (std::size_t i = 0; i < cause.entities.size(); ++i) {
      out += (i ? ", " : "") + cause.entities[i];
    }
    out += "\n";
  }
  out += "  Evidence:\n";
  for (const auto& item : cause.evidence) {
    out += "    - " + describe_evidence(item) + "\n";
  }
  if (cause.onset) {
    out += "  Began: " + describe_onset(*cause.onset) + "\n";
    out += "    per interval: " + describe_timeline(*cause.onset) + "\n";
  }
  if (cause.next_change) {
    const NextChange& change = *cause.next_change;
    out +=
        fmt::format("  Next change (one variable): {} on {}: {} -> {}\n", change.variable,
                    change.entity.empty() ? "the fabric" : change.entity, change.from, change.to);
    out += "    do:     " + change.action + "\n";
    out += "    verify: " + change.verify + "\n";
    out += "    record: " + change_record_command(change, options.incident) + "\n";
  }
  if (first && !cause.remediation.empty()) {
    out += "  Remediation, in order:\n";
    for (std::size_t i = 0; i < cause.remediation.size(); ++i) {
      out += fmt::format("    {}. {}\n", i + 1, cause.remediation[i]);
    }
  }
}

}  // namespace

std::string render_text(const Diagnosis& diagnosis, const RenderOptions& options) {
  std::string out = headline(diagnosis) + "\n";
  for (std::size_t i = 0; i < diagnosis.causes.size(); ++i) {
    append_cause(out, diagnosis.causes[i], options, i == 0);
  }
  if (!diagnosis.ruled_out.empty()) {
    out += "\nChecked and ruled out:\n";
    for (std::size_t i = 0; i < diagnosis.ruled_out.size() && i < k_max_ruled_out_lines; ++i) {
      out += "  - " + diagnosis.ruled_out[i] + "\n";
    }
    if (diagnosis.ruled_out.size() > k_max_ruled_out_lines) {
      out += fmt::format("  ... and {} more (--format json lists all)\n",
                         diagnosis.ruled_out.size() - k_max_ruled_out_lines);
    }
  }
  out += "\nProbes (run order):\n";
  for (const auto& probe : diagnosis.probes) {
    out += fmt::format("  {:<18} {:<8} {:>8.1f} ms{}\n", probe.id, probe.status, probe.duration_ms,
                       probe.reason.empty() ? "" : "  " + probe.reason);
  }
  if (!diagnosis.data_problems.empty()) {
    out += fmt::format("\nData problems ({}; the run went on without them):\n",
                       diagnosis.data_problems.size());
    for (const auto& problem : diagnosis.data_problems) {
      out += "  - " + problem + "\n";
    }
  }
  if (!diagnosis.settings.empty()) {
    out += "\nRan with non-default settings:\n";
    for (const auto& setting : diagnosis.settings) {
      out += fmt::format("  {} = {}  ({})\n", setting.key, setting.value, setting.origin);
    }
  }
  if (options.explain) {
    out += "\nScore movements (--explain):\n";
    for (const auto& move : diagnosis.explain) {
      out += fmt::format("  {:<20} {:+6.2f}  {}/{}: {}\n", move.cause, move.delta, move.probe,
                         move.signal, move.why);
    }
  }
  // Names, summaries and paths came from bundles written elsewhere: no control byte of theirs
  // reaches the terminal.
  return terminal_text(out);
}

}  // namespace netdoctor::engine
