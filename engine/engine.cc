#include "engine/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <optional>

#include "engine/evidence.h"
#include "engine/latest_interval.h"
#include "engine/onset.h"
#include "engine/planner.h"
#include "engine/report_causes.h"
#include "engine/scoring.h"
#include "engine/verdict.h"
#include "kb/catalog.h"
#include "kb/playbook.h"
#include "model/interval_view.h"

namespace netdoctor::engine {

namespace {

probes::ProbeResult run_probe(const probes::Probe& probe, const probes::ProbeContext& context) {
  const auto start = std::chrono::steady_clock::now();
  probes::ProbeResult result;
  // Probes report problems in their result; an escaping exception is a probe bug, and it must
  // cost one probe, not the diagnosis.
  try {
    result = probe.run(context);
  } catch (const std::exception& error) {
    result = {};
    result.status = probes::ProbeStatus::Failed;
    result.reason = fmt::format("probe raised an error: {}", error.what());
  }
  result.probe_id = probe.id();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  if (result.duration_ms <= 0.0) {
    result.duration_ms = std::chrono::duration<double, std::milli>(elapsed).count();
  }
  return result;
}

// Every score movement a probe's findings caused, for --explain.
void record_moves(const std::vector<CauseScore>& scores, const std::string& probe_id,
                  const EvidenceBook& book, std::vector<ScoreMove>& explain) {
  for (const auto& score : scores) {
    for (const auto& contribution : score.contributions) {
      if (contribution.rule->probe != probe_id) {
        continue;
      }
      auto findings = book.matching(contribution.rule->probe, contribution.rule->signal);
      std::string summary = findings.empty() ? std::string() : findings.front()->finding.summary;
      std::string why =
          contribution.delta > 0.0
              ? fmt::format("{} x weight {:g} x prior {:.2f} ({}): {}", contribution.strength,
                            contribution.rule->weight, score.prior, contribution.rule->note,
                            summary)
              : fmt::format("clearing: strength {} x weight {:g} ({}): {}", contribution.strength,
                            contribution.rule->weight, contribution.rule->note, summary);
      explain.push_back({score.cause->id, probe_id, contribution.rule->signal, contribution.delta,
                         std::move(why)});
    }
  }
}

std::string describe_problem(const model::Problem& problem) {
  std::string where = problem.entity.empty() ? std::string() : problem.entity + ": ";
  std::string source = problem.source.empty() ? std::string() : problem.source + ": ";
  return where + source + problem.error.describe();
}

// What the playbook's plan yields: the evidence, and how many probes ran or had no data.
struct PlanOutcome {
  EvidenceBook book;
  std::size_t ran = 0;
  std::size_t without_data = 0;
};

// Runs the plan, cheapest and most telling first, until the stop rule says the rest cannot
// change the answer; every probe run or skipped is recorded in the diagnosis as it happens.
PlanOutcome run_plan(const kb::Playbook& playbook, const model::Fabric& fabric,
                     const model::IntervalViews* intervals, const kb::Catalog& catalog,
                     const probes::ProbeRegistry& registry, const DiagnoseOptions& options,
                     const std::map<std::string, double>& priors, Diagnosis& diagnosis) {
  PlanOutcome outcome;
  std::vector<PlannedProbe> plan = make_plan(playbook, registry);
  const probes::ProbeContext context{fabric, options.probe_options};
  const LatestInterval latest =
      intervals != nullptr ? LatestInterval(*intervals) : LatestInterval(fabric);
  while (true) {
    auto scores = score_causes(outcome.book, catalog, priors);
    NextStep step = choose_next(plan, scores, playbook.stop);
    for (const auto& skip : step.skips) {
      plan[skip.index].done = true;
      diagnosis.probes.push_back({plan[skip.index].probe->id(), "skipped", skip.reason, 0.0});
    }
    if (!step.run) {
      break;
    }
    PlannedProbe& entry = plan[*step.run];
    entry.done = true;
    if (const auto scope = entry.probe->spec().fabric; !probes::applies_to(scope, fabric)) {
      // Not missing data: the mechanism does not exist here (no PFC on InfiniBand).
      diagnosis.probes.push_back(
          {entry.probe->id(), "skipped", probes::not_applicable_reason(scope), 0.0});
      continue;
    }
    probes::ProbeResult result = run_probe(*entry.probe, context);
    latest.fold_into(*entry.probe, options.probe_options, catalog, result);
    diagnosis.probes.push_back(
        {entry.probe->id(), probes::to_string(result.status), result.reason, result.duration_ms});
    if (result.status == probes::ProbeStatus::Ran) {
      ++outcome.ran;
      if (!result.reason.empty()) {
        diagnosis.data_problems.push_back(fmt::format("{}: {}", result.probe_id, result.reason));
      }
    } else {
      ++outcome.without_data;
    }
    for (const auto& item : result.checked) {
      diagnosis.ruled_out.push_back(fmt::format("{}: {}", result.probe_id, item));
    }
    outcome.book.add(result);
    if (options.explain) {
      record_moves(score_causes(outcome.book, catalog, priors), result.probe_id, outcome.book,
                   diagnosis.explain);
    }
  }
  return outcome;
}

// Each cause the evidence ruled out, with the clearing signal that did it.
void note_ruled_out(const std::vector<CauseScore>& scores, Diagnosis& diagnosis) {
  for (const auto& score : scores) {
    if (!ruled_out(score)) {
      continue;
    }
    std::string clearing;
    for (const auto& contribution : score.contributions) {
      if (contribution.delta < 0.0) {
        clearing = contribution.rule->probe + " " + contribution.rule->signal;
        break;
      }
    }
    diagnosis.ruled_out.push_back(fmt::format("{}: ruled out ({})", score.cause->id, clearing));
  }
}

}  // namespace

Diagnosis diagnose(const model::Fabric& fabric, const kb::Catalog& catalog,
                   const kb::PlaybookSet& playbooks, const probes::ProbeRegistry& registry,
                   const DiagnoseOptions& options) {
  Diagnosis diagnosis;
  diagnosis.symptom = options.symptom;
  const kb::Playbook* playbook = playbooks.find(options.symptom);
  if (playbook == nullptr) {
    playbook = playbooks.find("auto");
  }
  for (const auto& problem : fabric.problems) {
    diagnosis.data_problems.push_back(describe_problem(problem));
  }
  if (playbook == nullptr) {
    diagnosis.data_problems.push_back(
        fmt::format("no playbook for symptom '{}' and no 'auto' playbook", options.symptom));
    return diagnosis;
  }

  const auto priors = priors_for(catalog, *playbook);
  // A long capture's interval views: their frame (the fabric copied without its series) is built
  // once, for the latest interval's runs and for the onsets.
  std::optional<model::IntervalViews> intervals;
  if (model::interval_count(fabric) >= 2) {
    intervals.emplace(fabric);
  }
  const PlanOutcome outcome = run_plan(*playbook, fabric, intervals ? &*intervals : nullptr,
                                       catalog, registry, options, priors, diagnosis);
  const auto scores = score_causes(outcome.book, catalog, priors);
  note_ruled_out(scores, diagnosis);
  ReportedCauses reported =
      report_causes(scores, outcome.book, fabric, options.probe_options.roce_priority);
  for (auto& note : reported.explained_away) {
    diagnosis.ruled_out.push_back(std::move(note));
  }

  VerdictInputs inputs;
  inputs.any_reported = !reported.causes.empty();
  inputs.top_score = reported.top_score;
  inputs.probes_ran = outcome.ran;
  inputs.probes_without_data = outcome.without_data;
  inputs.clearing_seen =
      std::any_of(outcome.book.findings().begin(), outcome.book.findings().end(),
                  [&catalog](const ObservedFinding& observed) {
                    return catalog.clears_any(observed.probe, observed.finding.signal);
                  });
  diagnosis.verdict = decide_verdict(inputs);
  if (diagnosis.verdict != Verdict::Healthy) {
    diagnosis.causes = std::move(reported.causes);
    if (intervals) {
      find_onsets(*intervals, registry, options.probe_options, diagnosis.causes);
    }
  }
  return diagnosis;
}

}  // namespace netdoctor::engine
