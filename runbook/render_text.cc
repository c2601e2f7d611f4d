#include <fmt/format.h>

#include "base/strings.h"
#include "runbook/render.h"

namespace netdoctor::runbook {

namespace {

std::string weights_text(const std::vector<CauseWeight>& weights) {
  std::vector<std::string> parts;
  for (const auto& w : weights) {
    parts.push_back(fmt::format("{} ({:g}{})", w.cause, w.weight, w.settles ? ", settles" : ""));
  }
  return join(parts, ", ");
}

void header(std::string& out, const Runbook& book) {
  out += fmt::format("RUNBOOK {}: {}\n", book.symptom, book.title);
  out += fmt::format("Source: {}\n", book.source);
  out += fmt::format("Likely causes, most likely first: {}\n", join(book.candidates, ", "));
  out += fmt::format("Stop rule: {}.\n", stop_rule_text(book.stop));
  out +=
      fmt::format("RoCE priority: {} (commands below use it). Read counters while the job runs.\n",
                  book.roce_priority);
}

void summary(std::string& out, const AnnotatedRunbook& annotated) {
  const engine::Diagnosis& dx = annotated.diagnosis;
  out += fmt::format("\nBUNDLE VERDICT: {}", engine::to_string(dx.verdict));
  if (!dx.causes.empty()) {
    const auto& top = dx.causes.front();
    out += fmt::format(" - {} (confidence {:.2f})", top.id, top.confidence);
    if (!top.entities.empty()) {
      out += fmt::format(" at {}", join(top.entities, ", "));
    }
  }
  out += "\n";
  if (auto deciding = deciding_evidence(dx)) {
    if (deciding->value || deciding->fleet_normal) {
      out += fmt::format("Deciding figure: {} / {}: {} against the fleet's normal {}\n",
                         deciding->probe, deciding->signal,
                         format_figure(deciding->value, deciding->unit),
                         format_figure(deciding->fleet_normal, deciding->unit));
    } else {
      out += fmt::format("Deciding finding: {} / {}: {}\n", deciding->probe, deciding->signal,
                         deciding->summary);
    }
  }
  out += "Checklist:\n";
  for (std::size_t i = 0; i < annotated.steps.size(); ++i) {
    const auto& note = annotated.steps[i];
    const auto& step = annotated.runbook.steps[i];
    out += fmt::format("  [{}] {:>2}. {:<18} {}\n", is_open(note.state) ? " " : "x", step.number,
                       step.probe, to_string(note.state));
  }
  for (const auto& problem : dx.data_problems) {
    out += fmt::format("  data problem: {}\n", problem);
  }
}

void annotation(std::string& out, const StepAnnotation& note) {
  out += fmt::format("  IN THIS BUNDLE: {}", to_string(note.state));
  if (note.run_order) {
    out += fmt::format(" (ran #{} in the engine's order)", *note.run_order);
  } else if (!note.reason.empty()) {
    out += fmt::format(" ({}: {})", note.status, note.reason);
  }
  out += "\n";
  for (const auto& e : note.evidence) {
    out += fmt::format("    {} {} -> {} ({:+.2f}): {}\n",
                       e.deciding ? "DECIDING" : (e.weight > 0.0 ? "found" : "also"), e.signal,
                       e.cause, e.weight, e.summary);
    out += fmt::format("      value {} | fleet normal {}\n", format_figure(e.value, e.unit),
                       format_figure(e.fleet_normal, e.unit));
  }
  for (const auto& m : note.moves) {
    out += fmt::format("    {} {} {:+.2f}: {}\n", m.signal, m.cause, m.delta, m.why);
  }
  for (const auto& c : note.checked) {
    out += fmt::format("    checked: {}\n", c);
  }
  if (!note.culprit_commands.empty()) {
    out += "    on the culprit:\n";
    for (const auto& c : note.culprit_commands) {
      out += fmt::format("      {}\n", c);
    }
  }
}

void step_text(std::string& out, const Runbook& book, const RunbookStep& step,
               const StepAnnotation* note) {
  out += fmt::format("\nSTEP {} of {} - {} ({}): {}\n", step.number, book.steps.size(), step.probe,
                     step.cost, step.manual.title);
  out += fmt::format("  Why here: {}{}\n", step.why,
                     step.from_playbook ? "" : " (outside this symptom's playbook)");
  if (note != nullptr) {
    annotation(out, *note);
  }
  out += "  Run by hand:\n";
  for (const auto& command : step.manual.commands) {
    out += fmt::format("    {}{} {}{}\n", to_string(command.side),
                       command.side == Side::Switch ? "#" : "$", command.run,
                       book.fabric.empty() ? fabric_note(command.fabric) : std::string());
    out += fmt::format("        read: {}\n", command.shows);
  }
  out += fmt::format("  Window: {}\n", step.manual.window);
  out += fmt::format("  Healthy fleet: {}\n", step.manual.healthy);
  out += "  What you may see, and what it means:\n";
  for (const auto& meaning : step.signals) {
    out += fmt::format("    * {}: {}\n", meaning.signal, meaning.look_for);
    if (meaning.shown_by < step.manual.commands.size()) {
      out += fmt::format("        in: {}\n", step.manual.commands[meaning.shown_by].run);
    }
    if (!meaning.supports.empty()) {
      out += fmt::format("        points to: {}\n", weights_text(meaning.supports));
    }
    if (!meaning.against.empty()) {
      out += fmt::format("        argues against: {}\n", weights_text(meaning.against));
    }
    out += fmt::format("        next: {}\n", meaning.next);
  }
}

std::string render(const Runbook& book, const AnnotatedRunbook* annotated) {
  std::string out;
  header(out, book);
  if (annotated != nullptr) {
    summary(out, *annotated);
  }
  for (std::size_t i = 0; i < book.steps.size(); ++i) {
    const StepAnnotation* note = annotated != nullptr ? &annotated->steps[i] : nullptr;
    step_text(out, book, book.steps[i], note);
  }
  return out;
}

}  // namespace

// An annotated runbook carries a diagnosis's names and summaries: no control byte of a bundle
// reaches the terminal.
std::string render_text(const Runbook& runbook) {
  return terminal_text(render(runbook, nullptr));
}

std::string render_text(const AnnotatedRunbook& annotated) {
  return terminal_text(render(annotated.runbook, &annotated));
}

}  // namespace netdoctor::runbook
