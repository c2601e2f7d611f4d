// `netdoctor incident`: list, show, close and export the incidents `diagnose` opened, with
// the sweeps recorded in them (export: the postmortem, whose active tests list their runs).
#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/json_text.h"
#include "base/strings.h"
#include "cli/command.h"
#include "cli/store_glue.h"
#include "cli/terminal_stream.h"
#include "report/html_report.h"
#include "report/map_json.h"
#include "report/map_svg.h"
#include "store/map_repository.h"
#include "store/postmortem.h"
#include "store/time_format.h"

namespace netdoctor::cli {
namespace {

struct IncidentOptions {
  std::string db;
  std::int64_t id = 0;
  std::string format = "text";
  std::string cause;
  std::string summary;
  std::string output;
};

std::string change_state(const store::Change& change) {
  std::string state = change.open() ? "open" : "";
  if (change.verdict) {
    state = fmt::format("verified: {}", store::to_string(*change.verdict));
  }
  if (change.rolled_back_at) {
    state += state.empty() ? "rolled back" : ", rolled back";
  }
  return state;
}

std::string top_cause_text(const store::DiagnosisRecord& record) {
  if (const store::CauseRow* top = record.top_cause()) {
    return fmt::format("{} {:.0f} %{}{}", top->id, top->confidence * 100.0,
                       top->entities.empty() ? "" : " (" + top->entities.front() + ")",
                       top->onset.empty() ? "" : ", began " + top->onset);
  }
  return "-";
}

// The sweeps' conclusions (their runs are in `incident export`); host text made printable.
void print_sweeps(Context& context, const std::vector<store::SweepRecord>& sweeps) {
  if (sweeps.empty()) {
    return;
  }
  context.out << "sweeps:\n";
  for (const store::SweepRecord& sweep : sweeps) {
    context.out << fmt::format("  #{} {} on {}: {}, {} runs; {}\n", sweep.id,
                               store::iso8601_utc(sweep.created_at), printable(sweep.hosts_spec),
                               sweep.verdict, sweep.runs.size(), printable(sweep.summary));
    for (const std::string& entity : sweep.slow_entities) {
      context.out << fmt::format("      - slow: {}\n", printable(entity));
    }
  }
}

void run_list(Context& context, const IncidentOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::IncidentRepository incidents(*db);
  store::ChangeRepository changes(*db);
  auto all = incidents.list();
  if (!all.ok()) {
    return fail(context, all.error());
  }
  nlohmann::json rows = nlohmann::json::array();
  const TerminalTextScope text_only(context.out, options.format != "json");
  if (options.format == "text") {
    context.out << fmt::format("{:>4}  {:<6}  {:<20}  {:<20}  {:<28}  {}\n", "id", "status",
                               "opened", "symptom", "top cause", "changes");
  }
  for (const store::Incident& incident : *all) {
    auto latest = incidents.latest_diagnosis(incident.id);
    auto logged = changes.list(incident.id);
    if (!latest.ok() || !logged.ok()) {
      return fail(context, latest.ok() ? logged.error() : latest.error());
    }
    std::string cause = incident.cause_id;
    if (cause.empty() && latest->has_value()) {
      cause = top_cause_text(**latest);
    }
    std::string status = incident.closed() ? "closed" : "open";
    if (options.format == "json") {
      rows.push_back({{"id", incident.id},
                      {"status", status},
                      {"opened_at", store::iso8601_utc(incident.opened_at)},
                      {"symptom", incident.symptom},
                      {"scope", incident.scope},
                      {"cause", cause},
                      {"changes", logged->size()}});
    } else {
      context.out << fmt::format("{:>4}  {:<6}  {:<20}  {:<20}  {:<28}  {}\n", incident.id, status,
                                 store::iso8601_utc(incident.opened_at), incident.symptom,
                                 cause.empty() ? "-" : cause, logged->size());
    }
  }
  if (options.format == "json") {
    context.out << json_text(rows, 2) << "\n";
  } else if (all->empty()) {
    context.out << "no incidents yet: 'netdoctor diagnose' opens one\n";
  }
}

void run_show(Context& context, const IncidentOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  auto data = store::load_postmortem(*db, options.id);
  if (!data.ok()) {
    return fail(context, data.error());
  }
  if (options.format == "json") {
    context.out << json_text(store::render_postmortem_json(*data), 2) << "\n";
    return;
  }
  const TerminalTextScope text_only(context.out);  // names, scope and summaries from bundles
  const store::Incident& incident = data->incident;
  context.out << fmt::format("incident {}: {} ({})\n", incident.id, incident.symptom,
                             incident.closed() ? "closed" : "open");
  context.out << fmt::format("  opened {} on {}\n", store::iso8601_utc(incident.opened_at),
                             incident.scope);
  if (!incident.confirmed_cause.empty() && incident.confirmed_by_change) {
    context.out << fmt::format("  confirmed cause: {} (by change #{})\n", incident.confirmed_cause,
                               *incident.confirmed_by_change);
  }
  if (incident.closed()) {
    context.out << fmt::format("  closed {}: cause {}; {}\n",
                               store::iso8601_utc(*incident.closed_at), incident.cause_id,
                               incident.summary);
  }
  context.out << "diagnoses:\n";
  for (const store::DiagnosisRecord& record : data->diagnoses) {
    int ran = 0;
    int skipped = 0;
    int failed = 0;
    for (const store::ProbeRow& probe : record.probes) {
      ran += probe.status == "ran" ? 1 : 0;
      skipped += probe.status == "skipped" ? 1 : 0;
      failed += probe.status == "failed" ? 1 : 0;
    }
    std::string origin = record.origin == store::k_origin_verify && record.change_id
                             ? fmt::format("verify change #{}", *record.change_id)
                             : record.origin;
    context.out << fmt::format(
        "  #{} {} {}: {}, top cause {}; probes {} ran, {} skipped, {} failed\n", record.id,
        store::iso8601_utc(record.created_at), origin, record.verdict, top_cause_text(record), ran,
        skipped, failed);
    if (const store::CauseRow* top = record.top_cause()) {
      for (const store::EvidenceRow& evidence : top->evidence) {
        context.out << fmt::format("      - {}\n", evidence.summary);
      }
    }
  }
  print_sweeps(context, data->sweeps);
  context.out << "changes:\n";
  if (data->changes.empty()) {
    context.out << "  none recorded\n";
  }
  for (const store::Change& change : data->changes) {
    context.out << fmt::format("  #{} {} {} {} {} -> {} [{}]\n", change.id,
                               store::iso8601_utc(change.recorded_at), change.entity,
                               change.variable, change.from, change.to, change_state(change));
  }
}

void run_close(Context& context, const IncidentOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::IncidentRepository incidents(*db);
  Status closed = incidents.close(options.id, options.cause, options.summary, now_unix());
  if (!closed.ok()) {
    return fail(context, closed.error());
  }
  context.out << fmt::format("incident {} closed: cause {}\n", options.id, options.cause);
  context.out << fmt::format("postmortem: netdoctor incident export {} --format md\n", options.id);
}

// The incident's latest fabric map, or why there is none.
struct StoredMapResult {
  std::optional<report::FabricMap> map;
  std::string missing;
};

StoredMapResult stored_map(store::Database& db, std::int64_t incident) {
  auto stored = store::MapRepository(db).latest_for_incident(incident);
  if (!stored.ok()) {
    return {std::nullopt, stored.error().describe()};
  }
  if (!*stored) {
    return {std::nullopt, "no diagnosis of this incident recorded a fabric map"};
  }
  const auto json = nlohmann::json::parse((*stored)->json, nullptr, /*allow_exceptions=*/false);
  auto map = report::map_from_json(json);
  if (!map.ok()) {
    return {std::nullopt, fmt::format("the map of diagnosis #{} is unreadable: {}",
                                      (*stored)->diagnosis_id, map.error().describe())};
  }
  return {std::move(*map), {}};
}

// The diagnosis the page leads with: the latest from `diagnose` (not a change's verification).
nlohmann::json lead_diagnosis(const store::PostmortemData& data) {
  for (auto it = data.diagnoses.rbegin(); it != data.diagnoses.rend(); ++it) {
    if (it->origin == store::k_origin_diagnose) {
      auto json = nlohmann::json::parse(it->json, nullptr, /*allow_exceptions=*/false);
      if (json.is_object()) {
        return json;
      }
    }
  }
  return nlohmann::json::object({{"symptom", data.incident.symptom}, {"verdict", "inconclusive"}});
}

// "<dir>/<stem>.fabric-map.svg" beside the Markdown file.
std::filesystem::path map_path_beside(const std::string& markdown) {
  std::filesystem::path path(markdown);
  return path.parent_path() / (path.stem().string() + ".fabric-map.svg");
}

// A file name as a Markdown link target: anything but [A-Za-z0-9._-] percent-encoded.
std::string link_target(const std::string& name) {
  std::string out;
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

Status write_file(const std::string& path, const std::string& text, const char* what) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  if (!file.flush()) {
    return make_error(ErrorCode::Io, fmt::format("cannot write {}", what), path);
  }
  return {};
}

void run_export(Context& context, const IncidentOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  auto data = store::load_postmortem(*db, options.id);
  if (!data.ok()) {
    return fail(context, data.error());
  }
  std::string text;
  std::string map_note;
  if (options.format == "json") {
    text = json_text(store::render_postmortem_json(*data), 2) + "\n";
  } else if (options.format == "html") {
    StoredMapResult map = stored_map(*db, options.id);
    report::HtmlReport page;
    page.diagnosis = lead_diagnosis(*data);
    page.map = std::move(map.map);
    page.map_missing = map.missing;
    page.source = data->incident.scope;
    page.incident = &*data;
    text = report::render_html(page);
  } else {
    text = store::render_postmortem_markdown(*data);
    StoredMapResult map = stored_map(*db, options.id);
    text += "\n## Fabric map\n\n";
    if (!map.map) {
      text += fmt::format("No map: {}.\n", markdown_text(map.missing));
    } else if (options.output.empty()) {
      text += "Written beside the file when exported with `-o FILE.md` (as FILE.fabric-map.svg).\n";
    } else {
      const auto svg_path = map_path_beside(options.output);
      report::SvgOptions svg;
      svg.standalone = true;
      Status written =
          write_file(svg_path.string(), report::render_map_svg(*map.map, svg), "the fabric map");
      if (!written.ok()) {
        return fail(context, written.error());
      }
      const auto& m = *map.map;
      text += fmt::format(
          "![Fabric map: {} NICs and {} switch ports{}]({})\n", m.nic_count, m.port_count,
          m.culprits.empty() ? "" : ", culprit " + markdown_text(m.culprits.front()),
          link_target(svg_path.filename().string()));
      if (m.selected < m.metrics.size()) {
        text += fmt::format("\nColoured by {} ({}); culprits outlined, {} victims marked.\n",
                            markdown_text(m.metrics[m.selected].label),
                            markdown_text(m.metrics[m.selected].unit), m.victims.size());
      }
      map_note = fmt::format("; its fabric map to {}", svg_path.string());
    }
  }
  if (options.output.empty()) {
    context.out << text;
    return;
  }
  Status written = write_file(options.output, text, "the postmortem");
  if (!written.ok()) {
    return fail(context, written.error());
  }
  context.out << fmt::format("postmortem of incident {} written to {}{}\n", options.id,
                             options.output, map_note);
}

}  // namespace

void add_incident_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<IncidentOptions>();
  auto* incident = app.add_subcommand("incident", "list, show, close and export incidents");
  incident->require_subcommand(1);

  auto* list = incident->add_subcommand("list", "every incident, newest last");
  add_db_option(*list, options->db);
  list->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  list->callback([&context, options] { run_list(context, *options); });

  auto* show = incident->add_subcommand("show", "one incident: diagnoses, findings, changes");
  add_db_option(*show, options->db);
  show->add_option("N", options->id, "incident id")->required();
  show->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  show->callback([&context, options] { run_show(context, *options); });

  auto* close = incident->add_subcommand("close", "close an incident with its root cause");
  add_db_option(*close, options->db);
  close->add_option("N", options->id, "incident id")->required();
  close->add_option("--cause", options->cause, "the root-cause id (spec/diagnosis.md)")->required();
  close->add_option("--summary", options->summary, "what happened, in one or two sentences")
      ->required();
  close->callback([&context, options] { run_close(context, *options); });

  auto* exporter = incident->add_subcommand("export", "write the incident's postmortem");
  add_db_option(*exporter, options->db);
  exporter->add_option("N", options->id, "incident id")->required();
  options->format = "text";
  exporter
      ->add_option("--format", options->format,
                   "md (Markdown, default; with -o its fabric map is written beside as SVG), "
                   "json or html (one self-contained page with the map and change timeline)")
      ->check(CLI::IsMember({"md", "json", "text", "html"}));
  exporter->add_option("-o,--output", options->output, "write to this file instead of stdout");
  exporter->callback([&context, options] { run_export(context, *options); });
}

}  // namespace netdoctor::cli
