#include "store/postmortem.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>

#include "base/strings.h"
#include "store/change_verdict.h"
#include "store/database.h"
#include "store/time_format.h"

namespace netdoctor::store {
namespace {

struct Event {
  double at = 0.0;
  std::string kind;  // "diagnosis", "change", "verification", "rollback", "close"
  std::string text;
};

std::string number(std::optional<double> value, const std::string& unit = {}) {
  if (!value) {
    return "-";
  }
  std::string text = fmt::format("{:.6g}", *value);
  return unit.empty() ? text : text + " " + unit;
}

std::string percent(double fraction) {
  return fmt::format("{:.0f} %", fraction * 100.0);
}

std::string gbps_text(std::optional<double> gbps) {
  return gbps ? fmt::format("{:.1f} Gb/s", *gbps) : "-";
}

// A slow entity of a sweep with the figures its JSON gave it ("slow": measured vs expected).
struct SlowFigure {
  std::string entity;
  std::optional<double> measured_gbps;
  std::optional<double> expected_gbps;
};

std::optional<double> json_number(const nlohmann::json& object, const char* key) {
  if (object.contains(key) && object[key].is_number()) {
    return object[key].get<double>();
  }
  return std::nullopt;
}

std::vector<SlowFigure> slow_figures(const SweepRecord& sweep) {
  const auto json = nlohmann::json::parse(sweep.json, nullptr, /*allow_exceptions=*/false);
  const bool has_slow = json.is_object() && json.contains("slow") && json["slow"].is_array();
  std::vector<SlowFigure> out;
  for (const std::string& entity : sweep.slow_entities) {
    SlowFigure figure{entity, std::nullopt, std::nullopt};
    for (const auto& item : has_slow ? json["slow"] : nlohmann::json::array()) {
      if (item.is_object() && item.value("entity", "") == entity) {
        figure.measured_gbps = json_number(item, "measured_gbps");
        figure.expected_gbps = json_number(item, "expected_gbps");
      }
    }
    out.push_back(std::move(figure));
  }
  return out;
}

// A host, or one NIC of it, that an entity names.
struct Place {
  std::string host;
  std::string device;  // empty: any NIC of the host
};

// nic:H/D is one NIC; host:H every NIC of H; a link:A~B touches the hosts of both ends (an end
// may name a netdev or a switch port, never matched against a run's device).
std::vector<Place> places_of(const std::string& entity) {
  const auto colon = entity.find(':');
  const std::string_view kind =
      colon == std::string::npos ? std::string_view() : std::string_view(entity).substr(0, colon);
  const std::string_view rest =
      std::string_view(entity).substr(colon == std::string::npos ? 0 : colon + 1);
  std::vector<Place> out;
  for (std::string_view end : split(rest, '~')) {
    const auto slash = end.find('/');
    Place place{std::string(end.substr(0, slash)), {}};
    if (kind == "nic" && slash != std::string_view::npos) {
      place.device = std::string(end.substr(slash + 1));
    }
    out.push_back(std::move(place));
  }
  return out;
}

bool touches(const SweepRun& run, const std::vector<Place>& places) {
  return std::any_of(places.begin(), places.end(), [&run](const Place& place) {
    auto end_is = [&place](const std::string& host, const std::string& device) {
      return host == place.host && (place.device.empty() || device == place.device);
    };
    return end_is(run.client, run.device) || end_is(run.server, run.server_device) ||
           std::find(run.hosts.begin(), run.hosts.end(), place.host) != run.hosts.end();
  });
}

// Who a run measured: "a/mlx5_0 -> b/mlx5_0", or a collective's group (its first hosts only:
// a group may be the whole cluster).
std::string run_between(const SweepRun& run) {
  constexpr std::size_t k_group_names_shown = 8;  // presentation only
  if (run.hosts.empty()) {
    return fmt::format("{}/{} -> {}/{}", run.client, run.device, run.server, run.server_device);
  }
  std::vector<std::string> shown(
      run.hosts.begin(), run.hosts.begin() + static_cast<std::ptrdiff_t>(
                                                 std::min(run.hosts.size(), k_group_names_shown)));
  return fmt::format("{} hosts: {}{}", run.hosts.size(), join(shown, ", "),
                     run.hosts.size() > shown.size() ? ", ..." : "");
}

std::string run_counts(const SweepRecord& sweep) {
  auto count = [&sweep](const char* result) {
    return std::count_if(sweep.runs.begin(), sweep.runs.end(),
                         [result](const SweepRun& run) { return run.result == result; });
  };
  return fmt::format("{} runs ({} slow, {} failed)", sweep.runs.size(), count("slow"),
                     count("failed"));
}

// The timeline's line: the verdict and counts only; the hosts are in the sweep's section.
std::string sweep_line(const SweepRecord& sweep) {
  return fmt::format("sweep #{}: {}, {}", sweep.id, sweep.verdict, run_counts(sweep));
}

std::string slow_table_markdown(const SweepRecord& sweep) {
  if (sweep.slow_entities.empty()) {
    return "No slow entity.\n\n";
  }
  std::string md = "| slow entity | measured | expected | below |\n|---|---|---|---|\n";
  for (const SlowFigure& figure : slow_figures(sweep)) {
    std::string below = "-";
    if (figure.measured_gbps && figure.expected_gbps && *figure.expected_gbps > 0.0) {
      below =
          fmt::format("{:.1f} %", (1.0 - *figure.measured_gbps / *figure.expected_gbps) * 100.0);
    }
    md += fmt::format("| {} | {} | {} | {} |\n", markdown_text(figure.entity),
                      gbps_text(figure.measured_gbps), gbps_text(figure.expected_gbps), below);
  }
  return md + "\n";
}

// The runs that say something: slow, failed, or touching a slow entity; the rest are counted.
std::string runs_table_markdown(const SweepRecord& sweep, std::int64_t incident_id) {
  std::vector<std::vector<Place>> slow_places;
  for (const std::string& entity : sweep.slow_entities) {
    slow_places.push_back(places_of(entity));
  }
  std::string rows;
  std::size_t others = 0;
  for (const SweepRun& run : sweep.runs) {
    const bool shown = run.result != "ok" ||
                       std::any_of(slow_places.begin(), slow_places.end(),
                                   [&run](const auto& places) { return touches(run, places); });
    if (!shown) {
      ++others;
      continue;
    }
    rows += fmt::format("| {} | {} | {} | {} | {} | {} ({}) | {} |\n", run.round,
                        markdown_text(run.test), markdown_text(run_between(run)), run.result,
                        gbps_text(run.gbps), gbps_text(run.expected_gbps),
                        markdown_text(run.expected_from), markdown_text(run.detail));
  }
  std::string md;
  if (!rows.empty()) {
    md = "| round | test | between | result | measured | expected | detail |\n"
         "|---|---|---|---|---|---|---|\n" +
         rows + "\n";
  }
  if (others > 0) {
    md += fmt::format(
        "{} other run{} ok (every run: `netdoctor incident export {} --format "
        "json`).\n\n",
        others, others == 1 ? " was" : "s were", incident_id);
  }
  return md;
}

std::string sweeps_markdown(const PostmortemData& data) {
  std::string md = "\n## Active tests\n\n";
  if (data.sweeps.empty()) {
    return md + "No sweep was run.\n";
  }
  for (const SweepRecord& sweep : data.sweeps) {
    md += fmt::format("### Sweep #{}, {}: {}\n\n", sweep.id, iso8601_utc(sweep.created_at),
                      markdown_text(sweep.verdict));
    md += fmt::format("- Hosts: {}\n", markdown_text(sweep.hosts_spec));
    md += fmt::format("- Verdict: **{}**: {}\n", markdown_text(sweep.verdict),
                      markdown_text(sweep.summary));
    md += fmt::format("- Runs: {}\n\n", run_counts(sweep));
    md += slow_table_markdown(sweep);
    md += runs_table_markdown(sweep, data.incident.id);
  }
  md.pop_back();  // each sweep ends with a blank line; the next section brings its own
  return md;
}

nlohmann::json sweep_run_json(const SweepRun& run) {
  auto optional = [](std::optional<double> value) {
    return value ? nlohmann::json(*value) : nlohmann::json();
  };
  return {{"round", run.round},
          {"test", run.test},
          {"client", run.client},
          {"server", run.server},
          {"device", run.device},
          {"server_device", run.server_device},
          {"hosts", run.hosts},
          {"gbps", optional(run.gbps)},
          {"lat_us", optional(run.lat_us)},
          {"busbw_gbyte_s", optional(run.busbw_gbyte_s)},
          {"expected_gbps", run.expected_gbps},
          {"expected_from", run.expected_from},
          {"result", run.result},
          {"detail", run.detail},
          {"seconds", run.seconds},
          {"measured_at", iso8601_utc(run.measured_at)}};
}

nlohmann::json sweep_json(const SweepRecord& sweep) {
  nlohmann::json out{{"id", sweep.id},
                     {"created_at", iso8601_utc(sweep.created_at)},
                     {"hosts", sweep.hosts_spec},
                     {"verdict", sweep.verdict},
                     {"summary", sweep.summary},
                     {"slow_entities", sweep.slow_entities}};
  out["slow"] = nlohmann::json::array();
  for (const SlowFigure& figure : slow_figures(sweep)) {
    out["slow"].push_back(
        {{"entity", figure.entity},
         {"measured_gbps",
          figure.measured_gbps ? nlohmann::json(*figure.measured_gbps) : nlohmann::json()},
         {"expected_gbps",
          figure.expected_gbps ? nlohmann::json(*figure.expected_gbps) : nlohmann::json()}});
  }
  out["runs"] = nlohmann::json::array();
  for (const SweepRun& run : sweep.runs) {
    out["runs"].push_back(sweep_run_json(run));
  }
  return out;
}

std::string diagnosis_line(const DiagnosisRecord& record) {
  std::string head =
      record.origin == k_origin_verify && record.change_id
          ? fmt::format("verification run #{} for change #{} on {}", record.id, *record.change_id,
                        record.scope)
          : fmt::format("diagnosis #{} ({}) on {}", record.id, record.symptom, record.scope);
  if (const CauseRow* top = record.top_cause()) {
    return fmt::format("{}: {}, top cause {} ({}){}", head, record.verdict, top->id,
                       percent(top->confidence), top->onset.empty() ? "" : "; began " + top->onset);
  }
  return fmt::format("{}: {}", head, record.verdict);
}

std::string change_line(const Change& change) {
  std::string text = fmt::format("change #{} recorded: {} {} {} -> {}", change.id, change.entity,
                                 change.variable, change.from, change.to);
  if (!change.why.empty()) {
    text += fmt::format(" (why: {})", change.why);
  }
  if (!change.forced_note.empty()) {
    text += fmt::format(" [{}]", change.forced_note);
  }
  return text;
}

std::vector<Event> timeline(const PostmortemData& data) {
  std::vector<Event> events;
  events.push_back({data.incident.opened_at, "opened",
                    fmt::format("incident {} opened: {} on {}", data.incident.id,
                                data.incident.symptom, data.incident.scope)});
  std::set<std::string> onsets_placed;  // a cause's onset once, from the first run that saw it
  for (const DiagnosisRecord& record : data.diagnoses) {
    events.push_back({record.created_at, "diagnosis", diagnosis_line(record)});
    const CauseRow* top = record.top_cause();
    if (top != nullptr && top->began_in_capture && top->began_from &&
        onsets_placed.insert(top->id).second) {
      events.push_back({*top->began_from, "onset",
                        fmt::format("{} began{}: {} (diagnosis #{})", top->id,
                                    top->entities.empty() ? "" : " at " + top->entities.front(),
                                    top->onset, record.id)});
    }
  }
  for (const Change& change : data.changes) {
    events.push_back({change.recorded_at, "change", change_line(change)});
    if (change.verified_at && change.verdict) {
      events.push_back({*change.verified_at, "verification",
                        fmt::format("change #{} verified on {}: {}", change.id,
                                    change.verify_source, to_string(*change.verdict))});
    }
    if (change.rolled_back_at) {
      events.push_back(
          {*change.rolled_back_at, "rollback", fmt::format("change #{} rolled back", change.id)});
    }
  }
  for (const SweepRecord& sweep : data.sweeps) {
    events.push_back({sweep.created_at, "sweep", sweep_line(sweep)});
  }
  if (data.incident.closed_at) {
    events.push_back({*data.incident.closed_at, "close",
                      fmt::format("incident closed, cause {}", data.incident.cause_id)});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.at < b.at; });
  return events;
}

struct RootCause {
  std::string id;
  std::string how;  // how it was established
  const CauseRow* row = nullptr;
};

const DiagnosisRecord* first_diagnosis(const PostmortemData& data) {
  for (const DiagnosisRecord& record : data.diagnoses) {
    if (record.origin == k_origin_diagnose) {
      return &record;
    }
  }
  return nullptr;
}

// The row of `cause_id` in the latest diagnose run that found it: its evidence decided it.
const CauseRow* cause_row(const PostmortemData& data, const std::string& cause_id) {
  for (auto it = data.diagnoses.rbegin(); it != data.diagnoses.rend(); ++it) {
    if (it->origin != k_origin_diagnose) {
      continue;
    }
    for (const CauseRow& cause : it->causes) {
      if (cause.id == cause_id) {
        return &cause;
      }
    }
  }
  return nullptr;
}

RootCause root_cause(const PostmortemData& data) {
  RootCause root;
  const Incident& incident = data.incident;
  if (!incident.confirmed_cause.empty() && incident.confirmed_by_change) {
    root.id = incident.confirmed_cause;
    root.how = fmt::format("confirmed by change #{}: the symptom was gone after it",
                           *incident.confirmed_by_change);
  }
  if (!incident.cause_id.empty() && incident.cause_id != root.id) {
    root.how = root.id.empty() ? "named when the incident was closed"
                               : root.how + fmt::format("; named {} at close", incident.cause_id);
    root.id = root.id.empty() ? incident.cause_id : root.id;
  }
  if (root.id.empty()) {
    for (auto it = data.diagnoses.rbegin(); it != data.diagnoses.rend(); ++it) {
      if (it->origin == k_origin_diagnose && it->top_cause() != nullptr) {
        root.id = it->top_cause()->id;
        root.how =
            fmt::format("suspected: top-ranked cause of diagnosis #{}, not yet confirmed", it->id);
        break;
      }
    }
  }
  if (!root.id.empty()) {
    root.row = cause_row(data, root.id);
  }
  return root;
}

std::string evidence_line(const EvidenceRow& evidence) {
  std::string line = fmt::format("{} ({}/{})", evidence.summary, evidence.probe, evidence.signal);
  if (evidence.value) {
    line += fmt::format(": {}", number(evidence.value, evidence.unit));
    if (evidence.fleet_normal) {
      line += fmt::format(", fleet normal {}", number(evidence.fleet_normal, evidence.unit));
    }
  }
  return line;
}

std::vector<std::string> follow_ups(const PostmortemData& data, const RootCause& root) {
  std::vector<std::string> items;
  for (const Change& change : data.changes) {
    if (change.open()) {
      items.push_back(fmt::format("verify or roll back change #{} ({} {})", change.id,
                                  change.entity, change.variable));
    }
  }
  if (!data.incident.closed()) {
    items.push_back(
        fmt::format("close the incident: netdoctor incident close {} --cause {} "
                    "--summary \"...\"",
                    data.incident.id, root.id.empty() ? "ID" : root.id));
  }
  if (root.row != nullptr) {
    for (const std::string& step : root.row->remediation) {
      items.push_back(step);
    }
  }
  bool kept_change = std::any_of(data.changes.begin(), data.changes.end(), [](const Change& c) {
    return c.verdict == ChangeVerdict::Improved && !c.rolled_back_at;
  });
  if (kept_change) {
    items.push_back(
        "apply the kept change(s) to the fleet's configuration source, then re-run ib_write_bw "
        "and ib_read_lat and store a new baseline (netdoctor baseline import/capture)");
  }
  return items;
}

nlohmann::json figure_json(const Figure& figure) {
  nlohmann::json out{
      {"label", figure.label}, {"unit", figure.unit}, {"lower_is_better", figure.lower_is_better}};
  out["before"] = figure.before ? nlohmann::json(*figure.before) : nlohmann::json();
  out["after"] = figure.after ? nlohmann::json(*figure.after) : nlohmann::json();
  return out;
}

nlohmann::json evidence_json(const EvidenceRow& evidence) {
  nlohmann::json out{{"probe", evidence.probe},
                     {"signal", evidence.signal},
                     {"summary", evidence.summary},
                     {"weight", evidence.weight},
                     {"unit", evidence.unit}};
  out["value"] = evidence.value ? nlohmann::json(*evidence.value) : nlohmann::json();
  out["fleet_normal"] =
      evidence.fleet_normal ? nlohmann::json(*evidence.fleet_normal) : nlohmann::json();
  return out;
}

struct SettingRow {
  std::int64_t diagnosis = 0;
  std::string key;
  std::string value;
  std::string origin;
};

// The non-default settings each diagnosis ran with, from its stored JSON (spec/diagnosis.md's
// "settings"): the postmortem must say what a result needs to be reproduced.
std::vector<SettingRow> settings_used(const PostmortemData& data) {
  std::vector<SettingRow> out;
  for (const DiagnosisRecord& record : data.diagnoses) {
    const auto json = nlohmann::json::parse(record.json, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("settings") || !json["settings"].is_array()) {
      continue;
    }
    for (const auto& setting : json["settings"]) {
      if (setting.is_object()) {
        out.push_back({record.id, setting.value("key", ""), setting.value("value", ""),
                       setting.value("origin", "")});
      }
    }
  }
  return out;
}

}  // namespace

nlohmann::json change_json(const Change& change) {
  return {{"id", change.id},         {"recorded_at", iso8601_utc(change.recorded_at)},
          {"entity", change.entity}, {"variable", change.variable},
          {"from", change.from},     {"to", change.to},
          {"why", change.why},       {"forced_note", change.forced_note}};
}

std::string reverse_change_arguments(const Change& change) {
  return fmt::format("--entity {} --var {} --from {} --to {}", shell_quote(change.entity),
                     shell_quote(change.variable), shell_quote(change.to),
                     shell_quote(change.from));
}

Result<PostmortemData> load_postmortem(Database& db, std::int64_t incident_id) {
  PostmortemData data;
  auto body = [&]() -> Status {
    IncidentRepository incidents(db);
    ChangeRepository changes(db);
    ND_TRY_ASSIGN(data.incident, incidents.get(incident_id));
    ND_TRY_ASSIGN(data.diagnoses, incidents.diagnoses(incident_id));
    ND_TRY_ASSIGN(data.changes, changes.list(incident_id));
    ND_TRY_ASSIGN(data.sweeps, SweepRepository(db).for_incident(incident_id));
    return {};
  };
  ND_TRY(db.read(body));
  return data;
}

std::string render_postmortem_markdown(const PostmortemData& data) {
  const Incident& incident = data.incident;
  RootCause root = root_cause(data);
  std::string md = fmt::format("# Postmortem: incident {} ({})\n\n", incident.id, incident.symptom);

  md += "## Summary\n\n";
  md += incident.summary.empty() ? "No summary yet: the incident is still open.\n\n"
                                 : markdown_text(incident.summary) + "\n\n";
  md +=
      fmt::format("- Status: {}\n", incident.closed() ? "closed " + iso8601_utc(*incident.closed_at)
                                                      : std::string("open"));
  md += fmt::format("- Opened: {}\n", iso8601_utc(incident.opened_at));
  md += fmt::format("- Root cause: {}\n\n", root.id.empty() ? "not established" : root.id);

  md += "## Impact\n\n";
  md +=
      fmt::format("- Symptom: {}\n- Scope: {}\n", incident.symptom, markdown_text(incident.scope));
  if (const DiagnosisRecord* first = first_diagnosis(data); first && first->top_cause()) {
    md += "- Measured at the start:\n";
    for (const EvidenceRow& evidence : first->top_cause()->evidence) {
      md += fmt::format("  - {}\n", markdown_text(evidence_line(evidence)));
    }
  }
  md += "\n## Timeline\n\n| time (UTC) | event |\n|---|---|\n";
  for (const Event& event : timeline(data)) {
    // Events quote scopes (hosts, bundle paths) and change texts: one escaped cell each.
    md += fmt::format("| {} | {} |\n", iso8601_utc(event.at), markdown_text(event.text));
  }

  md += "\n## Root cause\n\n";
  if (root.id.empty()) {
    md += "Not established.\n";
  } else {
    md += fmt::format(
        "**{}**{}: {}.\n", root.id,
        root.row != nullptr && !root.row->title.empty() ? " - " + root.row->title : std::string(),
        markdown_text(root.how));
    if (root.row != nullptr) {
      if (!root.row->entities.empty()) {
        std::vector<std::string> where;
        for (const std::string& entity : root.row->entities) {
          where.push_back(markdown_code(entity));
        }
        md += fmt::format("\nWhere: {}\n", fmt::join(where, ", "));
      }
      md += "\nEvidence that decided it:\n\n";
      for (const EvidenceRow& evidence : root.row->evidence) {
        md += fmt::format("- {}\n", markdown_text(evidence_line(evidence)));
      }
    }
  }

  md += sweeps_markdown(data);

  md += "\n## Changes\n\n";
  if (data.changes.empty()) {
    md += "No change was recorded.\n";
  }
  for (const Change& change : data.changes) {
    // Entities, values and notes name bundle things or were typed by a person: text only.
    md += fmt::format("### Change #{}: {} {} {} -> {}\n\n", change.id, markdown_text(change.entity),
                      markdown_text(change.variable), markdown_text(change.from),
                      markdown_text(change.to));
    md += fmt::format("- Recorded: {}\n", iso8601_utc(change.recorded_at));
    if (!change.why.empty()) {
      md += fmt::format("- Why: {}\n", markdown_text(change.why));
    }
    if (!change.forced_note.empty()) {
      md += fmt::format("- Note: {}\n", markdown_text(change.forced_note));
    }
    if (change.verdict && change.verified_at) {
      md += fmt::format("- Verdict: **{}** (verified {} on {})\n", to_string(*change.verdict),
                        iso8601_utc(*change.verified_at), markdown_text(change.verify_source));
    } else {
      md += "- Verdict: not verified\n";
    }
    if (change.rolled_back_at) {
      md += fmt::format("- Rolled back: {}\n", iso8601_utc(*change.rolled_back_at));
    }
    if (!change.figures.empty()) {
      md += "\n| figure | before | after | move |\n|---|---|---|---|\n";
      for (const Figure& figure : change.figures) {
        auto move = relative_improvement(figure);
        md += fmt::format(
            "| {} | {} | {} | {} |\n", markdown_text(figure.label),
            number(figure.before, figure.unit),
            figure.after ? number(figure.after, figure.unit) : std::string("no longer found"),
            move ? fmt::format("{:+.1f} % better", *move * 100.0) : "-");
      }
    }
    md += "\n";
  }

  md += "## Rolled back\n\n";
  bool any_rollback = false;
  for (const Change& change : data.changes) {
    if (change.rolled_back_at) {
      any_rollback = true;
      md += fmt::format("- change #{} ({} {}), undone with: {}\n", change.id,
                        markdown_text(change.entity), markdown_text(change.variable),
                        markdown_code(fmt::format("netdoctor change record --incident {} {}",
                                                  incident.id, reverse_change_arguments(change))));
    }
  }
  if (!any_rollback) {
    md += "Nothing was rolled back.\n";
  }

  md += "\n## Settings\n\n";
  const auto settings = settings_used(data);
  if (settings.empty()) {
    md += "Every diagnosis ran with netdoctor's default settings.\n";
  } else {
    md += "| diagnosis | key | value | from |\n|---|---|---|---|\n";
    for (const SettingRow& row : settings) {
      md += fmt::format("| #{} | {} | {} | {} |\n", row.diagnosis, markdown_cell(row.key),
                        markdown_cell(row.value), markdown_cell(row.origin));
    }
  }

  md += "\n## Follow-ups\n\n";
  auto items = follow_ups(data, root);
  if (items.empty()) {
    md += "None.\n";
  }
  for (const std::string& item : items) {
    md += fmt::format("- [ ] {}\n", markdown_with_code(item));  // kb remediation keeps its code
  }
  return md;
}

nlohmann::json render_postmortem_json(const PostmortemData& data) {
  const Incident& incident = data.incident;
  RootCause root = root_cause(data);
  nlohmann::json out{{"format", "netdoctor-postmortem"}, {"version", 1}};
  out["incident"] = {{"id", incident.id},
                     {"symptom", incident.symptom},
                     {"scope", incident.scope},
                     {"opened_at", iso8601_utc(incident.opened_at)},
                     {"status", incident.closed() ? "closed" : "open"},
                     {"summary", incident.summary}};
  out["incident"]["closed_at"] =
      incident.closed_at ? nlohmann::json(iso8601_utc(*incident.closed_at)) : nlohmann::json();
  nlohmann::json impact = {{"symptom", incident.symptom}, {"scope", incident.scope}};
  impact["figures"] = nlohmann::json::array();
  if (const DiagnosisRecord* first = first_diagnosis(data); first && first->top_cause()) {
    for (const EvidenceRow& evidence : first->top_cause()->evidence) {
      impact["figures"].push_back(evidence_json(evidence));
    }
  }
  out["impact"] = impact;
  out["timeline"] = nlohmann::json::array();
  for (const Event& event : timeline(data)) {
    out["timeline"].push_back(
        {{"time", iso8601_utc(event.at)}, {"kind", event.kind}, {"event", event.text}});
  }
  nlohmann::json cause = {{"id", root.id}, {"how", root.how}};
  cause["evidence"] = nlohmann::json::array();
  if (root.row != nullptr) {
    cause["title"] = root.row->title;
    cause["entities"] = root.row->entities;
    for (const EvidenceRow& evidence : root.row->evidence) {
      cause["evidence"].push_back(evidence_json(evidence));
    }
  }
  out["root_cause"] = root.id.empty() ? nlohmann::json() : cause;
  out["sweeps"] = nlohmann::json::array();
  for (const SweepRecord& sweep : data.sweeps) {
    out["sweeps"].push_back(sweep_json(sweep));
  }
  out["changes"] = nlohmann::json::array();
  out["rolled_back"] = nlohmann::json::array();
  for (const Change& change : data.changes) {
    nlohmann::json item = change_json(change);
    item["verify_source"] = change.verify_source;
    item["verdict"] =
        change.verdict ? nlohmann::json(to_string(*change.verdict)) : nlohmann::json();
    item["verified_at"] =
        change.verified_at ? nlohmann::json(iso8601_utc(*change.verified_at)) : nlohmann::json();
    item["rolled_back_at"] = change.rolled_back_at
                                 ? nlohmann::json(iso8601_utc(*change.rolled_back_at))
                                 : nlohmann::json();
    item["figures"] = nlohmann::json::array();
    for (const Figure& figure : change.figures) {
      item["figures"].push_back(figure_json(figure));
    }
    out["changes"].push_back(item);
    if (change.rolled_back_at) {
      out["rolled_back"].push_back(
          {{"change", change.id}, {"reverse", reverse_change_arguments(change)}});
    }
  }
  out["settings"] = nlohmann::json::array();
  for (const SettingRow& row : settings_used(data)) {
    out["settings"].push_back({{"diagnosis", row.diagnosis},
                               {"key", row.key},
                               {"value", row.value},
                               {"origin", row.origin}});
  }
  out["follow_ups"] = follow_ups(data, root);
  return out;
}

}  // namespace netdoctor::store
