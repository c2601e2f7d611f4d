#include <fmt/format.h>

#include "base/strings.h"
#include "runbook/render.h"

namespace netdoctor::runbook {

namespace {

std::string weights_cell(const std::vector<CauseWeight>& weights) {
  std::vector<std::string> parts;
  for (const auto& w : weights) {
    parts.push_back(fmt::format("`{}` ({:g}{})", w.cause, w.weight, w.settles ? ", settles" : ""));
  }
  return parts.empty() ? std::string("-") : join(parts, ", ");
}

void header(std::string& out, const Runbook& book) {
  out += fmt::format("# Runbook: {} ({})\n\n", book.title, book.symptom);
  out += fmt::format("- **Source:** {}\n", book.source);
  std::vector<std::string> candidates;
  for (const auto& c : book.candidates) {
    candidates.push_back("`" + c + "`");
  }
  out += fmt::format("- **Likely causes, most likely first:** {}\n", join(candidates, ", "));
  out += fmt::format("- **Stop rule:** {}.\n", stop_rule_text(book.stop));
  out += fmt::format(
      "- **RoCE priority:** {} (the commands use it). Read counters while the job "
      "runs.\n",
      book.roce_priority);
}

void summary(std::string& out, const AnnotatedRunbook& annotated) {
  const engine::Diagnosis& dx = annotated.diagnosis;
  out += "\n## In this bundle\n\n";
  out += fmt::format("**Verdict:** `{}`", engine::to_string(dx.verdict));
  if (!dx.causes.empty()) {
    const auto& top = dx.causes.front();
    out += fmt::format(" - `{}` (confidence {:.2f})", top.id, top.confidence);
    if (!top.entities.empty()) {
      std::vector<std::string> culprits;
      for (const auto& entity : top.entities) {
        culprits.push_back(markdown_code(entity));
      }
      out += fmt::format(" at {}", join(culprits, ", "));
    }
  }
  out += "\n\n";
  auto deciding = deciding_evidence(dx);
  if (deciding && !deciding->value && !deciding->fleet_normal) {
    out += fmt::format("**Deciding finding** (`{}` / `{}`): {}\n\n", deciding->probe,
                       deciding->signal, markdown_text(deciding->summary));
  } else if (deciding) {
    out += "| Deciding probe | Signal | Culprit's value | Fleet's normal |\n";
    out += "|---|---|---|---|\n";
    out += fmt::format("| `{}` | `{}` | {} | {} |\n\n", deciding->probe, deciding->signal,
                       format_figure(deciding->value, deciding->unit),
                       format_figure(deciding->fleet_normal, deciding->unit));
  }
  out += "Checklist (ticked: settled by the engine; open: a person may still do it by hand):\n\n";
  for (std::size_t i = 0; i < annotated.steps.size(); ++i) {
    const auto& note = annotated.steps[i];
    const auto& step = annotated.runbook.steps[i];
    out += fmt::format("- [{}] Step {} `{}`: {}\n", is_open(note.state) ? " " : "x", step.number,
                       step.probe, to_string(note.state));
  }
  if (!dx.data_problems.empty()) {
    out += "\nData problems:\n\n";
    for (const auto& problem : dx.data_problems) {
      out += fmt::format("- {}\n", markdown_text(problem));
    }
  }
}

void annotation(std::string& out, const StepAnnotation& note) {
  out += fmt::format("\n**In this bundle: {}**", to_string(note.state));
  if (note.run_order) {
    out += fmt::format(" (ran #{} in the engine's order)", *note.run_order);
  } else if (!note.reason.empty()) {
    out += fmt::format(" ({}: {})", note.status, markdown_text(note.reason));
  }
  out += "\n\n";
  if (!note.evidence.empty()) {
    out += "| | Signal | Cause | Weight | Culprit's value | Fleet's normal | Finding |\n";
    out += "|---|---|---|---|---|---|---|\n";
    for (const auto& e : note.evidence) {
      out += fmt::format("| {} | `{}` | `{}` | {:+.2f} | {} | {} | {} |\n",
                         e.deciding ? "**deciding**" : (e.weight > 0.0 ? "found" : "also"),
                         e.signal, e.cause, e.weight, format_figure(e.value, e.unit),
                         format_figure(e.fleet_normal, e.unit), markdown_text(e.summary));
    }
    out += "\n";
  }
  if (!note.moves.empty()) {
    out += "| Signal | Cause | Score | Why |\n|---|---|---|---|\n";
    for (const auto& m : note.moves) {
      out += fmt::format("| `{}` | `{}` | {:+.2f} | {} |\n", m.signal, m.cause, m.delta,
                         markdown_cell(m.why, CellControls::Verbatim));
    }
    out += "\n";
  }
  for (const auto& c : note.checked) {
    out += fmt::format("- checked: {}\n", markdown_text(c));
  }
  if (!note.culprit_commands.empty()) {
    out += "\nOn the culprit:\n\n```sh\n";
    for (const auto& c : note.culprit_commands) {
      out += printable(c) + "\n";  // one line each: a name cannot close the fence
    }
    out += "```\n";
  }
}

void step_markdown(std::string& out, const Runbook& book, const RunbookStep& step,
                   const StepAnnotation* note) {
  out += fmt::format("\n## Step {} of {}: `{}` ({}) - {}\n\n", step.number, book.steps.size(),
                     step.probe, step.cost, step.manual.title);
  out += fmt::format("**Why here:** {}{}\n", step.why,
                     step.from_playbook ? "" : " (outside this symptom's playbook)");
  if (note != nullptr) {
    annotation(out, *note);
  }
  out += "\n### Run by hand\n";
  for (const auto& command : step.manual.commands) {
    out += fmt::format("\n*{}{}:* {}\n\n```sh\n{}\n```\n",
                       command.side == Side::Switch ? "Switch (SONiC)" : "Host",
                       book.fabric.empty() ? fabric_note(command.fabric) : std::string(),
                       command.shows, command.run);
  }
  out += fmt::format("\n- **Window:** {}\n", step.manual.window);
  out += fmt::format("- **Healthy fleet:** {}\n", step.manual.healthy);
  out += "\n### What you may see\n\n";
  out += "| Signal | Look for | Points to | Argues against | Next |\n";
  out += "|---|---|---|---|---|\n";
  for (const auto& meaning : step.signals) {
    const std::string shown = meaning.shown_by < step.manual.commands.size()
                                  ? fmt::format(" (command {} above)", meaning.shown_by + 1)
                                  : std::string();
    out += fmt::format("| `{}` | {}{} | {} | {} | {} |\n", meaning.signal,
                       markdown_cell(meaning.look_for, CellControls::Verbatim), shown,
                       weights_cell(meaning.supports), weights_cell(meaning.against),
                       markdown_cell(meaning.next, CellControls::Verbatim));
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
    step_markdown(out, book, book.steps[i], note);
  }
  return out;
}

}  // namespace

std::string render_markdown(const Runbook& runbook) {
  return render(runbook, nullptr);
}

std::string render_markdown(const AnnotatedRunbook& annotated) {
  return render(annotated.runbook, &annotated);
}

}  // namespace netdoctor::runbook
