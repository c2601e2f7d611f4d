// The incident's part of the HTML page: who opened it and when, its diagnoses in order, the
// change log as a timeline (each change's variable, from and to, why, its verdict and the
// before/after figures of the evidence that mattered, rollbacks) and the sweeps' conclusions.
#include <fmt/format.h>

#include <string>

#include "report/html_report.h"
#include "report/html_text.h"
#include "store/time_format.h"

namespace netdoctor::report {
namespace {

std::string figure(std::optional<double> value) {
  return value ? fmt::format("{:.6g}", *value) : "-";
}

std::string change_item(const store::Change& change) {
  const std::string verdict = change.verdict ? store::to_string(*change.verdict) : "open";
  std::string css = verdict == "no effect" ? "no-effect" : verdict;
  std::string out = fmt::format(
      R"(<li class="{}" data-change="{}"><p><time>{}</time> &middot; change #{} on <code>{}</code>: <strong>{}</strong> {} &rarr; {}</p>)",
      css, change.id, store::iso8601_utc(change.recorded_at), change.id, html_escape(change.entity),
      html_escape(change.variable), html_escape(change.from), html_escape(change.to));
  if (!change.why.empty()) {
    out += fmt::format("<p>Why: {}</p>", html_escape(change.why));
  }
  if (!change.forced_note.empty()) {
    out += fmt::format("<p>Note: {}</p>", html_escape(change.forced_note));
  }
  out += fmt::format(
      "<p>Verdict: <strong>{}</strong>{}</p>", html_escape(verdict),
      change.verified_at
          ? fmt::format(
                " (verified {}{})", store::iso8601_utc(*change.verified_at),
                change.verify_source.empty() ? "" : " on " + html_escape(change.verify_source))
          : "");
  if (!change.figures.empty()) {
    out +=
        "<table "
        "class=\"figures\"><thead><tr><th>figure</th><th>before</th><th>after</th><th>unit</th>"
        "<th>better</th></tr></thead><tbody>";
    for (const auto& f : change.figures) {
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                         html_escape(f.label), figure(f.before),
                         f.after ? figure(f.after) : "- (no longer found)", html_escape(f.unit),
                         f.lower_is_better ? "lower" : "higher");
    }
    out += "</tbody></table>";
  }
  if (change.rolled_back_at) {
    out += fmt::format("<p>Rolled back {}.</p>", store::iso8601_utc(*change.rolled_back_at));
  }
  return out + "</li>\n";
}

}  // namespace

std::string render_incident_sections(const store::PostmortemData& data) {
  const auto& incident = data.incident;
  std::string out = fmt::format(
      R"(<section id="incident"><h2>Incident {}</h2><dl><dt>opened</dt><dd>{}</dd><dt>symptom</dt><dd>{}</dd><dt>scope</dt><dd>{}</dd><dt>status</dt><dd>{}</dd>)",
      incident.id, store::iso8601_utc(incident.opened_at), html_escape(incident.symptom),
      html_escape(incident.scope),
      incident.closed_at ? "closed " + store::iso8601_utc(*incident.closed_at)
                         : std::string("open"));
  if (!incident.confirmed_cause.empty()) {
    out +=
        fmt::format("<dt>confirmed cause</dt><dd>{}{}</dd>", html_escape(incident.confirmed_cause),
                    incident.confirmed_by_change
                        ? fmt::format(" (by change #{})", *incident.confirmed_by_change)
                        : "");
  }
  if (!incident.summary.empty()) {
    out += fmt::format("<dt>summary</dt><dd>{}</dd>", html_escape(incident.summary));
  }
  out += "</dl></section>\n";

  out +=
      "<section id=\"diagnoses\"><h2>Diagnoses</h2><table><thead><tr><th>when</th><th>run</th>"
      "<th>verdict</th><th>top cause</th><th>confidence</th><th>scope</th></tr></thead><tbody>";
  for (const auto& d : data.diagnoses) {
    const auto* top = d.top_cause();
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        store::iso8601_utc(d.created_at),
        html_escape(d.change_id ? fmt::format("{} of change #{}", d.origin, *d.change_id)
                                : d.origin),
        html_escape(d.verdict), top ? html_escape(top->id) : "-",
        top ? fmt::format("{:.2f}", top->confidence) : "-", html_escape(d.scope));
  }
  out += "</tbody></table></section>\n";

  out += "<section id=\"change-log\"><h2>Change log</h2>";
  if (data.changes.empty()) {
    out += "<p>No change was recorded.</p>";
  } else {
    out += "<ol class=\"timeline\">\n";
    for (const auto& change : data.changes) {
      out += change_item(change);
    }
    out += "</ol>";
  }
  out += "</section>\n";

  if (!data.sweeps.empty()) {
    out += "<section id=\"sweeps\"><h2>Active tests</h2><ul>";
    for (const auto& sweep : data.sweeps) {
      out +=
          fmt::format("<li>{} &middot; {} on {}: {} ({} runs)",
                      store::iso8601_utc(sweep.created_at), html_escape(sweep.verdict),
                      html_escape(sweep.hosts_spec), html_escape(sweep.summary), sweep.runs.size());
      for (const auto& slow : sweep.slow_entities) {
        out += fmt::format(" <code>{}</code>", html_escape(slow));
      }
      out += "</li>";
    }
    out += "</ul></section>\n";
  }
  return out;
}

}  // namespace netdoctor::report
