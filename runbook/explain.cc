#include "runbook/explain.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/strings.h"
#include "runbook/render.h"

namespace netdoctor::runbook {

namespace {

std::vector<Sign> signs(const Library& library, const std::vector<kb::SignalWeight>& rules,
                        int roce_priority, const std::string& fabric) {
  std::vector<Sign> out;
  const TextFiller fill(roce_priority, &library.knowledge.entries);
  for (const auto& rule : rules) {
    Sign sign{rule.probe, rule.signal, rule.weight, rule.note, {}, {}};
    if (const ProbeManual* found = library.manuals.find(rule.probe)) {
      const ProbeManual manual = for_fabric(*found, fabric);
      std::size_t shown_by = 0;
      if (const SignalReading* reading = manual.reading(rule.signal)) {
        sign.look_for = fill(reading->look_for, rule.probe);
        shown_by = reading->command;
      }
      if (shown_by < manual.commands.size()) {
        sign.command = fill(manual.commands[shown_by].run, rule.probe);
      }
    }
    out.push_back(std::move(sign));
  }
  return out;
}

}  // namespace

std::vector<std::string> suggest_causes(const Library& library, const std::string& id) {
  const std::string wanted = to_lower(id);
  // A typo costs a few edits; a third of the word is still recognisably the same id.
  const std::size_t limit = std::max<std::size_t>(2, wanted.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& cause : library.knowledge.catalog.causes()) {
    std::size_t distance = edit_distance(wanted, cause.id);
    if (!wanted.empty() && contains(cause.id, wanted)) {
      distance = std::min<std::size_t>(distance, 1);
    }
    if (distance <= limit) {
      scored.emplace_back(distance, cause.id);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [distance, name] : scored) {
    out.push_back(name);
  }
  return out;
}

std::string show_template(const std::string& text, int roce_priority) {
  std::string out = kb::fill_placeholders(text, roce_priority, nullptr);
  const std::string priority = "{roce_priority}";
  std::size_t pos = 0;
  while ((pos = out.find(priority, pos)) != std::string::npos) {
    out.replace(pos, priority.size(), std::to_string(roce_priority));
  }
  for (auto& c : out) {
    if (c == '{') {
      c = '<';
    } else if (c == '}') {
      c = '>';
    }
  }
  return out;
}

Result<CauseExplanation> explain_cause(const Library& library, const std::string& id,
                                       int roce_priority, const std::string& fabric) {
  if (!is_fabric_kind(fabric)) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("unknown fabric '{}' (ib or roce)", fabric));
  }
  const kb::Cause* cause = library.knowledge.catalog.find(id);
  if (cause == nullptr) {
    std::vector<std::string> valid;
    for (const auto& c : library.knowledge.catalog.causes()) {
      valid.push_back(c.id);
    }
    auto near = suggest_causes(library, id);
    std::string hint =
        near.empty() ? std::string() : fmt::format("did you mean {}? ", join(near, " or "));
    return make_error(
        ErrorCode::InvalidArgument,
        fmt::format("unknown cause '{}'; {}valid causes: {}", id, hint, join(valid, ", ")));
  }
  CauseExplanation out;
  out.id = cause->id;
  out.title = cause->title;
  out.category = cause->category;
  out.severity = cause->severity;
  out.mechanism = cause->mechanism;
  out.supports = signs(library, cause->supports, roce_priority, fabric);
  out.against = signs(library, cause->against, roce_priority, fabric);
  for (const auto& step : cause->remediation) {
    out.remediation.push_back(show_template(step, roce_priority));
  }
  const auto& next = cause->next_change;
  out.next_change = {show_template(next.variable, roce_priority),
                     show_template(next.from, roce_priority), show_template(next.to, roce_priority),
                     show_template(next.action, roce_priority),
                     show_template(next.verify, roce_priority)};
  for (const auto& playbook : library.knowledge.playbooks.playbooks()) {
    const auto& c = playbook.candidates;
    auto where = std::find(c.begin(), c.end(), cause->id);
    if (where != c.end()) {
      out.symptoms.push_back({playbook.symptom, static_cast<std::size_t>(where - c.begin()) + 1});
    }
  }
  out.source = cause->source;
  return out;
}

std::string render_explanation_text(const CauseExplanation& x) {
  std::string out;
  out += fmt::format("{}: {}\n", x.id, x.title);
  out += fmt::format("Category: {}   Severity: {}\n\n", x.category, x.severity);
  out += fmt::format("MECHANISM\n  {}\n\n", x.mechanism);
  out += "SIGNS FOR IT (probe / signal, weight: why)\n";
  for (const auto& s : x.supports) {
    out += fmt::format("  + {} / {}, {:g}: {}\n", s.probe, s.signal, s.weight, s.note);
    if (!s.look_for.empty()) {
      out += fmt::format("      by hand: {}\n", s.look_for);
    }
    if (!s.command.empty()) {
      out += fmt::format("      e.g.     {}\n", s.command);
    }
  }
  out += "SIGNS AGAINST IT\n";
  if (x.against.empty()) {
    out += "  (none in the kb)\n";
  }
  for (const auto& s : x.against) {
    out += fmt::format("  - {} / {}, {:g}: {}\n", s.probe, s.signal, s.weight, s.note);
  }
  out += "\nREMEDIATION\n";
  for (std::size_t i = 0; i < x.remediation.size(); ++i) {
    out += fmt::format("  {}. {}\n", i + 1, x.remediation[i]);
  }
  out += "\nFIRST CHANGE TO TRY (one variable at a time)\n";
  out += fmt::format("  variable: {}\n  from:     {}\n  to:       {}\n", x.next_change.variable,
                     x.next_change.from, x.next_change.to);
  out +=
      fmt::format("  do:       {}\n  verify:   {}\n", x.next_change.action, x.next_change.verify);
  out += "\nSYMPTOMS THAT CONSIDER IT\n";
  for (const auto& s : x.symptoms) {
    out +=
        fmt::format("  {} (candidate #{}; `netdoctor runbook {}`)\n", s.symptom, s.rank, s.symptom);
  }
  out += fmt::format("\nWHERE IT IS DISCUSSED\n  {}\n", x.source);
  return out;
}

std::string render_explanation_markdown(const CauseExplanation& x) {
  std::string out;
  out += fmt::format("# `{}`: {}\n\n", x.id, x.title);
  out += fmt::format("- **Category:** {}\n- **Severity:** {}\n- **Discussed in:** {}\n\n",
                     x.category, x.severity, x.source);
  out += fmt::format("## Mechanism\n\n{}\n\n", x.mechanism);
  out += "## Signs\n\n| | Probe | Signal | Weight | Why | By hand |\n|---|---|---|---|---|---|\n";
  for (const auto& s : x.supports) {
    out += fmt::format("| for | `{}` | `{}` | {:g} | {} | {} |\n", s.probe, s.signal, s.weight,
                       markdown_cell(s.note, CellControls::Verbatim),
                       markdown_cell(s.look_for, CellControls::Verbatim));
  }
  for (const auto& s : x.against) {
    out += fmt::format("| against | `{}` | `{}` | {:g} | {} | {} |\n", s.probe, s.signal, s.weight,
                       markdown_cell(s.note, CellControls::Verbatim),
                       markdown_cell(s.look_for, CellControls::Verbatim));
  }
  out += "\n## Remediation\n\n";
  for (std::size_t i = 0; i < x.remediation.size(); ++i) {
    out += fmt::format("{}. {}\n", i + 1, x.remediation[i]);
  }
  out += "\n## First change to try (one variable at a time)\n\n";
  out += "| Variable | From | To |\n|---|---|---|\n";
  out += fmt::format("| {} | {} | {} |\n\n",
                     markdown_cell(x.next_change.variable, CellControls::Verbatim),
                     markdown_cell(x.next_change.from, CellControls::Verbatim),
                     markdown_cell(x.next_change.to, CellControls::Verbatim));
  out +=
      fmt::format("- **Do:** {}\n- **Verify:** {}\n", x.next_change.action, x.next_change.verify);
  out += "\n## Symptoms that consider it\n\n";
  for (const auto& s : x.symptoms) {
    out += fmt::format("- `{}`: candidate #{} (`netdoctor runbook {}`)\n", s.symptom, s.rank,
                       s.symptom);
  }
  return out;
}

std::string render_cause_list_text(const Library& library) {
  std::string out;
  for (const auto& cause : library.knowledge.catalog.causes()) {
    out += fmt::format("{:<20} {:<11} {:<8} {}\n", cause.id, cause.category, cause.severity,
                       cause.title);
  }
  return out;
}

std::string render_cause_list_markdown(const Library& library) {
  std::string out = "| Cause | Category | Severity | Title |\n|---|---|---|---|\n";
  for (const auto& cause : library.knowledge.catalog.causes()) {
    out += fmt::format("| `{}` | {} | {} | {} |\n", cause.id, cause.category, cause.severity,
                       markdown_cell(cause.title, CellControls::Verbatim));
  }
  return out;
}

}  // namespace netdoctor::runbook
