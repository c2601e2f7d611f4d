// `netdoctor change`: the one-variable-at-a-time change log. record refuses a second open
// change (unless --force, which the record keeps); verify re-runs the incident's playbook on
// new data and judges the change; rollback prints the exact reverse change.
#include <fmt/format.h>

#include <memory>
#include <utility>

#include "base/json_text.h"
#include "cli/command.h"
#include "cli/store_glue.h"
#include "cli/terminal_stream.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "store/change_verdict.h"
#include "store/change_verification.h"
#include "store/postmortem.h"
#include "store/time_format.h"

namespace netdoctor::cli {
namespace {

struct ChangeOptions {
  std::string db;
  std::int64_t id = 0;
  std::optional<std::int64_t> incident;
  std::string entity;
  std::string variable;
  std::string from;
  std::string to;
  std::string why;
  bool force = false;
  std::string bundle;
  std::string format = "text";
};

std::string figure_value(std::optional<double> value, const std::string& unit) {
  if (!value) {
    return "not found";
  }
  return unit.empty() ? fmt::format("{:.6g}", *value) : fmt::format("{:.6g} {}", *value, unit);
}

std::string state_of(const store::Change& change) {
  std::string state = change.open() ? "open" : "";
  if (change.verdict) {
    state = store::to_string(*change.verdict);
  }
  if (change.rolled_back_at) {
    state += state.empty() ? "rolled back" : ", rolled back";
  }
  return state;
}

void run_record(Context& context, const ChangeOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::ChangeRepository changes(*db);
  store::NewChange change{options.incident.value_or(0),
                          options.entity,
                          options.variable,
                          options.from,
                          options.to,
                          options.why,
                          now_unix(),
                          options.force};
  auto stored = changes.record(change);
  if (!stored.ok()) {
    if (stored.error().code == ErrorCode::Refused) {
      context.err << "netdoctor: refused: " << stored.error().message << "\n";
      context.exit_code = ExitCode::Failure;
      return;
    }
    return fail(context, stored.error());
  }
  context.out << fmt::format("change #{} recorded on incident {}: {} {} {} -> {}\n", stored->id,
                             stored->incident_id, stored->entity, stored->variable, stored->from,
                             stored->to);
  if (!stored->forced_note.empty()) {
    context.out << "note: " << stored->forced_note << "\n";
  }
  context.out << fmt::format("verify it:    netdoctor change verify {} --bundle NEW_CAPTURE\n",
                             stored->id);
  context.out << fmt::format("roll it back: netdoctor change rollback {}\n", stored->id);
}

void run_verify(Context& context, const ChangeOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::ChangeRepository changes(*db);
  store::IncidentRepository incidents(*db);
  auto change = changes.get(options.id);
  if (!change.ok()) {
    return fail(context, change.error());
  }
  auto incident = incidents.get(change->incident_id);
  if (!incident.ok()) {
    return fail(context, incident.error());
  }
  // The same playbook as the incident's: compare like with like.
  engine::DiagnoseOptions diagnose_options;
  diagnose_options.symptom = incident->symptom;
  auto after = engine::diagnose_bundle(options.bundle, diagnose_options);
  if (!after.ok()) {
    return fail(context, after.error());
  }
  engine::RenderOptions render_options;
  render_options.incident = std::to_string(incident->id);
  std::string json = engine::render_json(*after, render_options);
  store::DiagnosisRecord rerun = to_record(*after, "bundle " + options.bundle, json, now_unix());
  const bool symptom_gone = after->verdict == engine::Verdict::Healthy;
  auto outcome =
      store::verify_change(*db, options.id, std::move(rerun), symptom_gone, options.bundle);
  if (!outcome.ok()) {
    return fail(context, outcome.error());
  }
  context.out << fmt::format("change {}: {}\n", store::describe(outcome->change),
                             store::to_string(outcome->verdict));
  context.out << fmt::format("re-run of '{}' on {}: {}\n", incident->symptom, options.bundle,
                             engine::headline(*after));
  for (const store::Figure& figure : outcome->figures) {
    auto move = store::relative_improvement(figure);
    context.out << fmt::format("  {}: {} -> {}{}\n", figure.label,
                               figure_value(figure.before, figure.unit),
                               figure_value(figure.after, figure.unit),
                               move ? fmt::format(" ({:+.1f} % better)", *move * 100.0) : "");
  }
  if (outcome->confirmed) {
    context.out << fmt::format("symptom gone: cause {} of incident {} confirmed by change #{}\n",
                               outcome->cause_id, incident->id, outcome->change.id);
  } else if (outcome->verdict != store::ChangeVerdict::Improved) {
    context.out << fmt::format("consider rolling it back: netdoctor change rollback {}\n",
                               outcome->change.id);
  }
}

void run_rollback(Context& context, const ChangeOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::ChangeRepository changes(*db);
  auto change = changes.rollback(options.id, now_unix());
  if (!change.ok()) {
    return fail(context, change.error());
  }
  context.out << fmt::format("change {} rolled back\n", store::describe(*change));
  context.out << fmt::format("apply the reverse change on {}: {} {} -> {}\n", change->entity,
                             change->variable, change->to, change->from);
  context.out << fmt::format("  {}\n", store::reverse_change_arguments(*change));
  context.out << fmt::format("to log it: netdoctor change record --incident {} {}\n",
                             change->incident_id, store::reverse_change_arguments(*change));
}

void run_list(Context& context, const ChangeOptions& options) {
  auto db = open_store(options.db, context.settings);
  if (!db.ok()) {
    return fail(context, db.error());
  }
  store::ChangeRepository changes(*db);
  auto all = changes.list(options.incident);
  if (!all.ok()) {
    return fail(context, all.error());
  }
  if (options.format == "json") {
    nlohmann::json rows = nlohmann::json::array();
    for (const store::Change& change : *all) {
      nlohmann::json row = store::change_json(change);
      row["incident"] = change.incident_id;
      row["state"] = state_of(change);
      rows.push_back(std::move(row));
    }
    context.out << json_text(rows, 2) << "\n";
    return;
  }
  const TerminalTextScope text_only(context.out);  // entities and values name bundle things
  if (all->empty()) {
    context.out << "no changes recorded\n";
    return;
  }
  for (const store::Change& change : *all) {
    context.out << fmt::format("#{:<4} incident {:<4} {}  {} {} {} -> {}  [{}]{}\n", change.id,
                               change.incident_id, store::iso8601_utc(change.recorded_at),
                               change.entity, change.variable, change.from, change.to,
                               state_of(change), change.forced_note.empty() ? "" : " (forced)");
  }
}

}  // namespace

void add_change_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<ChangeOptions>();
  auto* change =
      app.add_subcommand("change", "record, verify and roll back changes, one variable at a time");
  change->require_subcommand(1);

  auto* record = change->add_subcommand("record", "record a change about to be made");
  add_db_option(*record, options->db);
  record->add_option("--incident", options->incident, "the incident it belongs to")->required();
  record->add_option("--entity", options->entity, "what is changed (nic:node07/mlx5_2, ...)")
      ->required();
  record->add_option("--var", options->variable, "the one variable changed")->required();
  record->add_option("--from", options->from, "its value before")->required();
  record->add_option("--to", options->to, "its value after")->required();
  record->add_option("--why", options->why, "the reason, for the postmortem");
  record->add_flag("--force", options->force,
                   "record even while another change is open (the record notes it)");
  record->callback([&context, options] { run_record(context, *options); });

  auto* verify = change->add_subcommand("verify", "re-run the incident's playbook on new data");
  add_db_option(*verify, options->db);
  verify->add_option("C", options->id, "change id")->required();
  verify->add_option("--bundle", options->bundle, "a capture taken after the change")->required();
  verify->callback([&context, options] { run_verify(context, *options); });

  auto* rollback =
      change->add_subcommand("rollback", "mark a change rolled back; print the reverse");
  add_db_option(*rollback, options->db);
  rollback->add_option("C", options->id, "change id")->required();
  rollback->callback([&context, options] { run_rollback(context, *options); });

  auto* list = change->add_subcommand("list", "the change log");
  add_db_option(*list, options->db);
  list->add_option("--incident", options->incident, "only this incident's changes");
  list->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  list->callback([&context, options] { run_list(context, *options); });
}

}  // namespace netdoctor::cli
