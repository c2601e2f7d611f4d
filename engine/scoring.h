// Scores per cause from the kb's explicit weights: each supporting signal adds
// prior x weight x strength (its strongest finding), each clearing signal subtracts
// weight x strength. Priors come from the playbook's candidate order; causes outside the
// playbook keep a lower prior (the user's symptom can be wrong).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/evidence.h"
#include "kb/catalog.h"
#include "kb/playbook.h"

namespace netdoctor::engine {

struct Contribution {
  const kb::SignalWeight* rule = nullptr;
  double strength = 0.0;
  double delta = 0.0;  // positive: supports; negative: argues against
};

struct CauseScore {
  const kb::Cause* cause = nullptr;
  double prior = 0.0;
  double support = 0.0;
  double against = 0.0;
  double score() const { return support - against; }
  std::vector<Contribution> contributions;  // non-zero only
};

// Priors: candidates 1.0, 0.95, ... (not below 0.7); other causes 0.6.
std::map<std::string, double> priors_for(const kb::Catalog& catalog, const kb::Playbook& playbook);

// One score per catalog cause, sorted by score (highest first, ties in catalog order).
std::vector<CauseScore> score_causes(const EvidenceBook& book, const kb::Catalog& catalog,
                                     const std::map<std::string, double>& priors);

// A cause is ruled out once clearing evidence outweighs any support it may still get.
bool ruled_out(const CauseScore& score);

// 0..1: the squashed score, scaled by its separation from the strongest competitor.
double confidence(double score, double competitor);

}  // namespace netdoctor::engine
