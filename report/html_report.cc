#include "report/html_report.h"

#include <fmt/format.h>

#include <string>

#include "report/html_text.h"

namespace netdoctor::report {
namespace {

std::string text_of(const nlohmann::json& json, const char* key) {
  if (auto found = json.find(key); found != json.end() && found->is_string()) {
    return found->get<std::string>();
  }
  return {};
}

std::string number_of(const nlohmann::json& json, const char* key) {
  if (auto found = json.find(key); found != json.end() && found->is_number()) {
    return fmt::format("{:.6g}", found->get<double>());
  }
  return "";
}

const nlohmann::json& list_of(const nlohmann::json& json, const char* key) {
  static const nlohmann::json k_empty = nlohmann::json::array();
  if (auto found = json.find(key); found != json.end() && found->is_array()) {
    return *found;
  }
  return k_empty;
}

bool flag_of(const nlohmann::json& json, const char* key) {
  const auto found = json.find(key);
  return found != json.end() && found->is_boolean() && found->get<bool>();
}

// When the cause began and its deciding figure per interval (engine/onset.h), for a capture of
// three samples or more.
std::string onset_section(const nlohmann::json& onset) {
  std::string out = "<h3>When it began</h3><p class=\"onset\">";
  if (flag_of(onset, "before_capture")) {
    out += fmt::format("Before the capture: it shows from its first interval ({} to {}).",
                       html_escape(text_of(onset, "from")), html_escape(text_of(onset, "to")));
  } else {
    out += fmt::format("In interval {} of {}, {} to {}; not seen before it.",
                       number_of(onset, "interval"), number_of(onset, "intervals"),
                       html_escape(text_of(onset, "from")), html_escape(text_of(onset, "to")));
  }
  out +=
      "</p><table class=\"timeline\"><thead><tr><th>interval</th><th>from</th><th>to</th>"
      "<th>shows</th><th>value</th><th>unit</th></tr></thead><tbody>";
  for (const auto& reading : list_of(onset, "timeline")) {
    out +=
        fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    number_of(reading, "interval"), html_escape(text_of(reading, "from")),
                    html_escape(text_of(reading, "to")), flag_of(reading, "shows") ? "yes" : "-",
                    number_of(reading, "value"), html_escape(text_of(reading, "unit")));
  }
  return out + "</tbody></table>";
}

std::string cause_section(const nlohmann::json& cause, std::size_t rank) {
  std::string out =
      fmt::format(R"(<section class="cause" id="cause-{}"><h2>{}. {} <small>{}</small></h2>)", rank,
                  rank, html_escape(text_of(cause, "title")), html_escape(text_of(cause, "id")));
  out += fmt::format("<p>Confidence <strong>{}</strong></p>", number_of(cause, "confidence"));
  out += "<p>At: ";
  bool first = true;
  for (const auto& entity : list_of(cause, "entities")) {
    if (entity.is_string()) {
      out += fmt::format(R"({}<code class="entity">{}</code>)", first ? "" : ", ",
                         html_escape(entity.get<std::string>()));
      first = false;
    }
  }
  out += first ? "fabric-wide</p>" : "</p>";
  out +=
      "<h3>Evidence</h3><table class=\"evidence\"><thead><tr><th>probe</th><th>signal</th>"
      "<th>finding</th><th>value</th><th>fleet normal</th><th>unit</th><th>weight</th></tr>"
      "</thead><tbody>";
  for (const auto& item : list_of(cause, "evidence")) {
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        html_escape(text_of(item, "probe")), html_escape(text_of(item, "signal")),
        html_escape(text_of(item, "summary")), number_of(item, "value"),
        number_of(item, "fleet_normal"), html_escape(text_of(item, "unit")),
        number_of(item, "weight"));
  }
  out += "</tbody></table>";
  if (auto onset = cause.find("onset"); onset != cause.end() && onset->is_object()) {
    out += onset_section(*onset);
  }
  if (auto change = cause.find("next_change"); change != cause.end() && change->is_object()) {
    out += fmt::format(
        "<h3>Next change (one variable)</h3><dl class=\"change\"><dt>variable</dt><dd>{}</dd>"
        "<dt>on</dt><dd><code>{}</code></dd><dt>from</dt><dd>{}</dd><dt>to</dt><dd>{}</dd>"
        "<dt>do</dt><dd>{}</dd><dt>verify</dt><dd>{}</dd></dl>",
        html_escape(text_of(*change, "variable")), html_escape(text_of(*change, "entity")),
        html_escape(text_of(*change, "from")), html_escape(text_of(*change, "to")),
        html_escape(text_of(*change, "action")), html_escape(text_of(*change, "verify")));
  }
  const auto& steps = list_of(cause, "remediation");
  if (!steps.empty()) {
    out += "<h3>Remediation, in order</h3><ol>";
    for (const auto& step : steps) {
      if (step.is_string()) {
        out += fmt::format("<li>{}</li>", html_escape(step.get<std::string>()));
      }
    }
    out += "</ol>";
  }
  out += "</section>\n";
  return out;
}

std::string string_list(const nlohmann::json& diagnosis, const char* key, const char* title,
                        const char* id, const char* empty) {
  const auto& items = list_of(diagnosis, key);
  std::string out = fmt::format(R"(<section id="{}"><h2>{}</h2>)", id, title);
  if (items.empty()) {
    return out + fmt::format("<p>{}</p></section>\n", empty);
  }
  out += "<ul>";
  for (const auto& item : items) {
    if (item.is_string()) {
      out += fmt::format("<li>{}</li>", html_escape(item.get<std::string>()));
    }
  }
  return out + "</ul></section>\n";
}

std::string probe_table(const nlohmann::json& diagnosis) {
  std::string out =
      "<section id=\"probes\"><h2>Probe run order</h2><table><thead><tr><th>#</th><th>probe</th>"
      "<th>status</th><th>reason</th><th>ms</th></tr></thead><tbody>";
  std::size_t n = 0;
  for (const auto& probe : list_of(diagnosis, "probes")) {
    const std::string status = text_of(probe, "status");
    out += fmt::format(
        R"(<tr class="{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>)",
        html_escape(status), ++n, html_escape(text_of(probe, "id")), html_escape(status),
        html_escape(text_of(probe, "reason")), number_of(probe, "duration_ms"));
  }
  return out + "</tbody></table></section>\n";
}

std::string settings_table(const nlohmann::json& diagnosis) {
  const auto& settings = list_of(diagnosis, "settings");
  if (settings.empty()) {
    return {};
  }
  std::string out =
      "<section id=\"settings\"><h2>Site settings used</h2><table><thead><tr>"
      "<th>key</th><th>value</th><th>from</th></tr></thead><tbody>";
  for (const auto& s : settings) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(text_of(s, "key")),
                       html_escape(text_of(s, "value")), html_escape(text_of(s, "origin")));
  }
  return out + "</tbody></table></section>\n";
}

}  // namespace

std::string verdict_line(const nlohmann::json& diagnosis) {
  const std::string verdict = text_of(diagnosis, "verdict");
  const auto& causes = list_of(diagnosis, "causes");
  const std::string symptom = text_of(diagnosis, "symptom");
  if (verdict == "healthy") {
    return fmt::format("HEALTHY: no fault found for symptom '{}'; every check that ran was clear",
                       symptom);
  }
  if (causes.empty() || !causes.front().is_object()) {
    return fmt::format(
        "INCONCLUSIVE: no cause found for symptom '{}', but too little data to call it healthy",
        symptom);
  }
  const auto& top = causes.front();
  const auto& entities = list_of(top, "entities");
  const std::string culprit = entities.empty() || !entities.front().is_string()
                                  ? "fabric-wide"
                                  : entities.front().get<std::string>();
  if (verdict == "root-cause-found") {
    return fmt::format("ROOT CAUSE: {} at {} - {} (confidence {}){}", text_of(top, "id"), culprit,
                       text_of(top, "title"), number_of(top, "confidence"),
                       causes.size() > 1 ? fmt::format(" (+{} more)", causes.size() - 1) : "");
  }
  return fmt::format("INCONCLUSIVE: best lead {} at {} - {} (confidence {}, weak evidence)",
                     text_of(top, "id"), culprit, text_of(top, "title"),
                     number_of(top, "confidence"));
}

std::string render_html(const HtmlReport& report) {
  const auto& d = report.diagnosis;
  const std::string verdict = text_of(d, "verdict");
  const std::string title =
      report.incident
          ? fmt::format("Incident {} - netdoctor", report.incident->incident.id)
          : fmt::format("netdoctor diagnosis - {}", report.map ? report.map->title : report.source);
  std::string out;
  out.reserve(report.map ? report.map->nic_count * 400 + 65536 : 65536);
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  // Nothing may leave the page: no fetch, no image, no font, no frame; only its own inline parts.
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>{}</title>\n<style>{}</style></head>\n<body>\n", html_escape(title),
                     page_style());
  out += fmt::format(R"(<header><h1>{}</h1><p class="meta">symptom <strong>{}</strong>{}</p>)",
                     html_escape(title), html_escape(text_of(d, "symptom")),
                     report.source.empty() ? "" : " &middot; " + html_escape(report.source));
  out += fmt::format(R"(<p id="verdict" class="verdict {}" role="status">{}</p></header>)",
                     html_escape(verdict), html_escape(verdict_line(d)));
  out += "\n<main>\n";
  if (report.map) {
    out += render_map_section(*report.map);
  } else {
    out += fmt::format(
        R"(<section id="map-section"><h2>Fabric map</h2><p>No map: {}</p></section>)",
        html_escape(report.map_missing.empty() ? "none was recorded" : report.map_missing));
  }
  std::size_t rank = 0;
  for (const auto& cause : list_of(d, "causes")) {
    if (cause.is_object()) {
      out += cause_section(cause, ++rank);
    }
  }
  out +=
      string_list(d, "ruled_out", "Checked and ruled out", "ruled-out", "Nothing was ruled out.");
  out +=
      string_list(d, "data_problems", "Data problems", "data-problems", "None: every file read.");
  out += probe_table(d);
  out += settings_table(d);
  if (report.incident) {
    out += render_incident_sections(*report.incident);
  }
  out +=
      "</main>\n<footer>Written by netdoctor. Self-contained: this file loads nothing.</footer>\n";
  out += fmt::format("<script>{}</script>\n</body></html>\n", page_script());
  return out;
}

}  // namespace netdoctor::report
