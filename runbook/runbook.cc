#include "runbook/runbook.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/strings.h"
#include "engine/planner.h"
#include "engine/scoring.h"
#include "engine/thresholds.h"

namespace netdoctor::runbook {

namespace {

// Later steps whose probe carries clearing evidence against `cause`.
std::vector<std::size_t> challengers(const kb::Cause& cause, const std::vector<RunbookStep>& steps,
                                     std::size_t after) {
  std::vector<std::size_t> out;
  for (const auto& step : steps) {
    if (step.number <= after) {
      continue;
    }
    bool argues =
        std::any_of(cause.against.begin(), cause.against.end(),
                    [&step](const kb::SignalWeight& rule) { return rule.probe == step.probe; });
    if (argues) {
      out.push_back(step.number);
    }
  }
  return out;
}

std::string step_list(const std::vector<std::size_t>& numbers) {
  std::vector<std::string> parts;
  for (auto n : numbers) {
    parts.push_back(std::to_string(n));
  }
  return join(parts, ", ");
}

std::string continue_text(const std::vector<RunbookStep>& steps, std::size_t number) {
  if (number < steps.size()) {
    const RunbookStep& next = steps[number];  // numbers are 1-based
    return fmt::format("continue with step {} ({})", next.number, next.probe);
  }
  return "this was the last step: with nothing standing out the fabric is healthy for this "
         "symptom; keep the perftest baseline for the next incident";
}

std::string next_text(const SignalMeaning& meaning, const std::vector<RunbookStep>& steps,
                      std::size_t number) {
  const CauseWeight* settling = nullptr;
  for (const auto& weight : meaning.supports) {
    if (weight.settles && (settling == nullptr || weight.weight > settling->weight)) {
      settling = &weight;
    }
  }
  if (settling != nullptr) {
    std::string text = fmt::format(
        "{} is settled if this holds clearly and nothing argues against it: skip the active "
        "tests",
        settling->cause);
    if (!settling->challenged_by.empty()) {
      text += fmt::format(", but still read step(s) {} which could overturn it",
                          step_list(settling->challenged_by));
    }
    return text + fmt::format("; then `netdoctor explain {}` for the first change to try",
                              settling->cause);
  }
  if (!meaning.supports.empty()) {
    std::vector<std::string> names;
    for (const auto& weight : meaning.supports) {
      names.push_back(weight.cause);
    }
    return fmt::format("note it for {} (not decisive alone) and {}", join(names, ", "),
                       continue_text(steps, number));
  }
  if (!meaning.against.empty()) {
    return fmt::format("count it against those causes and {}", continue_text(steps, number));
  }
  return continue_text(steps, number);
}

}  // namespace

Result<Runbook> build_runbook(const Library& library, const std::string& symptom, int roce_priority,
                              const engine::ThresholdSettings& site, const std::string& fabric) {
  if (!is_fabric_kind(fabric)) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("unknown fabric '{}' (ib or roce)", fabric));
  }
  const kb::Playbook* playbook = library.knowledge.playbooks.find(symptom);
  if (playbook == nullptr) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("unknown symptom '{}'; valid symptoms: {}", symptom,
                                  join(kb::spec_symptoms(), ", ")));
  }
  const kb::Catalog& catalog = library.knowledge.catalog;
  const auto priors = engine::priors_for(catalog, *playbook);
  Runbook book;
  book.symptom = playbook->symptom;
  book.title = playbook->title;
  book.source = playbook->source;
  book.candidates = playbook->candidates;
  book.stop = playbook->stop;
  book.roce_priority = roce_priority;
  book.fabric = fabric;

  const TextFiller fill(roce_priority, &library.knowledge.entries,
                        engine::resolve_thresholds(library.knowledge.entries, site));
  // The engine's own plan: the playbook's steps in order, then the sanity sweep.
  for (const auto& planned : engine::make_plan(*playbook, library.registry)) {
    const probes::Probe& probe = *planned.probe;
    const ProbeManual* manual = library.manuals.find(probe.id());
    if (manual == nullptr) {
      return make_error(ErrorCode::NotFound, fmt::format("no manual for probe '{}'", probe.id()),
                        "kb/probes");
    }
    RunbookStep step;
    step.number = book.steps.size() + 1;
    step.probe = probe.id();
    step.cost = probes::to_string(probe.cost());
    step.why = planned.why;
    step.from_playbook = planned.from_playbook;
    step.description = probe.description();
    step.manual = filled(for_fabric(*manual, fabric), fill);
    book.steps.push_back(std::move(step));
  }

  for (auto& step : book.steps) {
    for (const auto& signal : library.registry.find(step.probe)->signals()) {
      SignalMeaning meaning;
      meaning.signal = signal;
      if (const SignalReading* reading = step.manual.reading(signal)) {
        meaning.look_for = reading->look_for;
        meaning.shown_by = reading->command;
      }
      for (const auto& cause : catalog.causes()) {
        for (const auto& rule : cause.supports) {
          if (rule.probe == step.probe && rule.signal == signal) {
            const double prior = priors.count(cause.id) ? priors.at(cause.id) : 0.0;
            meaning.supports.push_back({cause.id, rule.weight, rule.note,
                                        prior * rule.weight >= book.stop.min_score,
                                        challengers(cause, book.steps, step.number)});
          }
        }
        for (const auto& rule : cause.against) {
          if (rule.probe == step.probe && rule.signal == signal) {
            meaning.against.push_back({cause.id, rule.weight, rule.note, false, {}});
          }
        }
      }
      auto by_weight = [](const CauseWeight& a, const CauseWeight& b) {
        return a.weight > b.weight;
      };
      std::stable_sort(meaning.supports.begin(), meaning.supports.end(), by_weight);
      std::stable_sort(meaning.against.begin(), meaning.against.end(), by_weight);
      meaning.next = next_text(meaning, book.steps, step.number);
      step.signals.push_back(std::move(meaning));
    }
  }
  return book;
}

}  // namespace netdoctor::runbook
