#include "engine/scoring.h"

#include <algorithm>
#include <cmath>

namespace netdoctor::engine {

namespace {
constexpr double k_first_prior = 1.0;
constexpr double k_prior_step = 0.05;  // each later candidate is a little less likely
constexpr double k_lowest_candidate_prior = 0.7;
constexpr double k_sanity_prior = 0.6;  // outside the playbook: still reportable
constexpr double k_ruled_out_against = 2.5;
constexpr double k_confidence_scale = 2.0;  // score 2 -> 0.63, 4 -> 0.86, 6 -> 0.95
}  // namespace

std::map<std::string, double> priors_for(const kb::Catalog& catalog, const kb::Playbook& playbook) {
  std::map<std::string, double> priors;
  for (const auto& cause : catalog.causes()) {
    priors[cause.id] = k_sanity_prior;
  }
  double prior = k_first_prior;
  for (const auto& id : playbook.candidates) {
    priors[id] = std::max(prior, k_lowest_candidate_prior);
    prior -= k_prior_step;
  }
  return priors;
}

std::vector<CauseScore> score_causes(const EvidenceBook& book, const kb::Catalog& catalog,
                                     const std::map<std::string, double>& priors) {
  std::vector<CauseScore> scores;
  for (const auto& cause : catalog.causes()) {
    CauseScore score;
    score.cause = &cause;
    auto prior = priors.find(cause.id);
    score.prior = prior == priors.end() ? k_sanity_prior : prior->second;
    for (const auto& rule : cause.supports) {
      double strength = book.strongest(rule.probe, rule.signal);
      if (strength > 0.0) {
        double delta = score.prior * rule.weight * strength;
        score.support += delta;
        score.contributions.push_back({&rule, strength, delta});
      }
    }
    for (const auto& rule : cause.against) {
      double strength = book.strongest(rule.probe, rule.signal);
      if (strength > 0.0) {
        double delta = rule.weight * strength;
        score.against += delta;
        score.contributions.push_back({&rule, strength, -delta});
      }
    }
    scores.push_back(std::move(score));
  }
  std::stable_sort(scores.begin(), scores.end(),
                   [](const CauseScore& a, const CauseScore& b) { return a.score() > b.score(); });
  return scores;
}

bool ruled_out(const CauseScore& score) {
  return score.support <= 0.0 && score.against >= k_ruled_out_against;
}

double confidence(double score, double competitor) {
  if (score <= 0.0) {
    return 0.0;
  }
  double squashed = 1.0 - std::exp(-score / k_confidence_scale);
  double rival = std::max(competitor, 0.0);
  double separation = score / (score + rival);  // 1 alone, 0.5 when tied
  double value = squashed * (0.5 + 0.5 * separation);
  return std::round(std::clamp(value, 0.0, 1.0) * 100.0) / 100.0;
}

}  // namespace netdoctor::engine
