#include "engine/localize.h"

#include <algorithm>

#include "base/strings.h"

namespace netdoctor::engine {

int specificity_rank(const std::string& entity) {
  if (starts_with(entity, "nic:") || starts_with(entity, "netdev:") ||
      starts_with(entity, "port:") || starts_with(entity, "link:")) {
    return 0;
  }
  if (starts_with(entity, "host:")) {
    return 1;
  }
  if (starts_with(entity, "switch:")) {
    return 2;
  }
  return 3;
}

std::vector<NamedEntity> rank_entities(const CauseScore& score, const EvidenceBook& book) {
  std::vector<NamedEntity> named;  // in first-seen order
  for (const auto& contribution : score.contributions) {
    if (contribution.delta <= 0.0 || !contribution.rule->localizes) {
      continue;
    }
    for (const ObservedFinding* observed :
         book.matching(contribution.rule->probe, contribution.rule->signal)) {
      double weight = contribution.rule->weight * clamp_strength(observed->finding.strength);
      for (const auto& entity : observed->finding.entities) {
        auto it = std::find_if(named.begin(), named.end(),
                               [&entity](const NamedEntity& e) { return e.name == entity; });
        if (it == named.end()) {
          named.push_back({entity, weight});
        } else {
          it->weight += weight;
        }
      }
    }
  }
  std::stable_sort(named.begin(), named.end(), [](const NamedEntity& a, const NamedEntity& b) {
    int rank_a = specificity_rank(a.name);
    int rank_b = specificity_rank(b.name);
    if (rank_a != rank_b) {
      return rank_a < rank_b;
    }
    return a.weight > b.weight;
  });
  return named;
}

std::vector<std::string> localize(const CauseScore& score, const EvidenceBook& book,
                                  std::size_t cap) {
  std::vector<std::string> out;
  for (const auto& entity : rank_entities(score, book)) {
    if (out.size() >= cap) {
      break;
    }
    out.push_back(entity.name);
  }
  return out;
}

}  // namespace netdoctor::engine
