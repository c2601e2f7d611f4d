#include "engine/localize.h"

#include <algorithm>

#include "model/entity_names.h"

namespace netdoctor::engine {

namespace {
constexpr double k_blame_tolerance = 1e-9;
}  // namespace

int specificity_rank(const std::string& entity) {
  switch (model::entity_kind(entity)) {
    case model::EntityKind::Nic:
    case model::EntityKind::Netdev:
    case model::EntityKind::Port:
    case model::EntityKind::Link:
      return 0;
    case model::EntityKind::Host:
      return 1;
    case model::EntityKind::Switch:
      return 2;
    case model::EntityKind::Unknown:
      break;
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
      const auto& entities = observed->finding.entities;
      double weight = contribution.rule->weight * clamp_strength(observed->finding.strength);
      for (const auto& entity : entities) {
        // A finding naming sixteen NICs and one switch blames each NIC a sixteenth and the
        // switch fully: the entity the evidence has in common is the likelier culprit.
        auto same_kind = static_cast<double>(
            std::count_if(entities.begin(), entities.end(), [&entity](const std::string& other) {
              return model::entity_kind(other) == model::entity_kind(entity);
            }));
        double share = weight / same_kind;
        auto it = std::find_if(named.begin(), named.end(),
                               [&entity](const NamedEntity& e) { return e.name == entity; });
        if (it == named.end()) {
          named.push_back({entity, share});
        } else {
          it->weight += share;
        }
      }
    }
  }
  // Most blamed first; among equally blamed, the most specific (nic/netdev/port/link, then
  // host, then switch).
  std::stable_sort(named.begin(), named.end(), [](const NamedEntity& a, const NamedEntity& b) {
    if (a.weight > b.weight + k_blame_tolerance || b.weight > a.weight + k_blame_tolerance) {
      return a.weight > b.weight;
    }
    return specificity_rank(a.name) < specificity_rank(b.name);
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
