#include "engine/planner.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/verdict.h"

namespace netdoctor::engine {

namespace {

// What a probe could still add to a cause (all its supporting signals at full strength).
double possible_gain(const CauseScore& score, const std::string& probe_id) {
  double gain = 0.0;
  for (const auto& rule : score.cause->supports) {
    if (rule.probe == probe_id) {
      gain += score.prior * rule.weight;
    }
  }
  return gain;
}

// What a probe could still take away from a cause (its clearing signals at full strength).
double possible_loss(const CauseScore& score, const std::string& probe_id) {
  double loss = 0.0;
  for (const auto& rule : score.cause->against) {
    if (rule.probe == probe_id) {
      loss += rule.weight;
    }
  }
  return loss;
}

double value_of(const std::vector<CauseScore>& scores, const std::string& probe_id) {
  double value = 0.0;
  for (const auto& score : scores) {
    if (ruled_out(score)) {
      continue;
    }
    value += possible_gain(score, probe_id);
    if (score.score() > 0.0) {
      value += possible_loss(score, probe_id);
    }
  }
  return value;
}

// True when the probe could still change what gets reported: overtake the leader, or lift
// another cause to a root cause of its own (a second, independent fault is worth a cheap read).
bool can_change_report(const std::vector<CauseScore>& scores, const std::string& probe_id) {
  const CauseScore& leader = scores.front();
  double leader_floor = leader.score() - possible_loss(leader, probe_id);
  for (std::size_t i = 1; i < scores.size(); ++i) {
    if (ruled_out(scores[i])) {
      continue;
    }
    double best_case = scores[i].score() + possible_gain(scores[i], probe_id);
    if (best_case >= leader_floor || best_case >= k_found_score) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<PlannedProbe> make_plan(const kb::Playbook& playbook,
                                    const probes::ProbeRegistry& registry) {
  std::vector<PlannedProbe> plan;
  auto planned = [&plan](const std::string& id) {
    return std::any_of(plan.begin(), plan.end(),
                       [&id](const PlannedProbe& entry) { return entry.probe->id() == id; });
  };
  for (const auto& step : playbook.steps) {
    const probes::Probe* probe = registry.find(step.probe);
    if (probe == nullptr || planned(step.probe)) {
      continue;
    }
    plan.push_back({probe, step.why, true, plan.size(), false});
  }
  std::vector<const probes::Probe*> sanity;
  for (const probes::Probe* probe : registry.all()) {
    if (!planned(probe->id())) {
      sanity.push_back(probe);
    }
  }
  std::stable_sort(sanity.begin(), sanity.end(),
                   [](const probes::Probe* a, const probes::Probe* b) {
                     return static_cast<int>(a->cost()) < static_cast<int>(b->cost());
                   });
  for (const probes::Probe* probe : sanity) {
    plan.push_back(
        {probe, "sanity sweep: outside this symptom's playbook", false, plan.size(), false});
  }
  return plan;
}

double cost_units(probes::CostClass cost) {
  switch (cost) {
    case probes::CostClass::Passive:
      return 1.0;  // a counter read
    case probes::CostClass::Config:
      return 2.0;  // configuration dumps: more files, more parsing
    case probes::CostClass::Active:
      return 10.0;  // sends traffic: disturbs the job and takes seconds
  }
  return 10.0;
}

// The least value an open case gives an active probe: after everything worth more.
constexpr double k_open_case_value = 1e-3;

bool conclusive(const std::vector<CauseScore>& scores, const kb::StopRule& stop) {
  if (scores.empty()) {
    return false;
  }
  double runner_up = scores.size() > 1 ? std::max(scores[1].score(), 0.0) : 0.0;
  return scores.front().score() >= stop.min_score &&
         scores.front().score() - runner_up >= stop.min_margin;
}

NextStep choose_next(const std::vector<PlannedProbe>& plan, const std::vector<CauseScore>& scores,
                     const kb::StopRule& stop) {
  NextStep next;
  const bool decided = conclusive(scores, stop);
  double best_merit = 0.0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PlannedProbe& entry = plan[i];
    if (entry.done) {
      continue;
    }
    const std::string id = entry.probe->id();
    const bool active = entry.probe->cost() == probes::CostClass::Active;
    double value = value_of(scores, id);
    // An active probe's data exists only because someone ran the tests for a case the passive
    // evidence left open: weigh it whenever the case is still open, even against causes the
    // passive probes argued down (the active tests measure what they could not see).
    if (value <= 0.0 && !(active && !decided)) {
      next.skips.push_back({i, "not needed: no cause still in question weighs its signals"});
      continue;
    }
    value = std::max(value, k_open_case_value);
    if (decided && active) {
      next.skips.push_back(
          {i, fmt::format("not needed: passive evidence already decides ({} scores {:.1f})",
                          scores.front().cause->id, scores.front().score())});
      continue;
    }
    if (decided && !can_change_report(scores, id)) {
      next.skips.push_back(
          {i, fmt::format("not needed: {} is conclusive (score {:.1f}) and this probe cannot "
                          "change what is reported",
                          scores.front().cause->id, scores.front().score())});
      continue;
    }
    // The expert's order still counts: later steps are discounted a little.
    double merit =
        value / cost_units(entry.probe->cost()) / (1.0 + 0.1 * static_cast<double>(entry.position));
    if (!next.run || merit > best_merit) {
      next.run = i;
      best_merit = merit;
    }
  }
  return next;
}

}  // namespace netdoctor::engine
