// Localization: a cause's culprits are the entities of the findings that supported it
// through localizing signals (victims and side effects do not count). Each finding's blame
// is shared among the entities of one kind it names (one switch named next to sixteen NICs
// carries the whole blame; each NIC a sixteenth). Most blamed first; among equals, the most
// specific first (nic/netdev/port/link before host before switch).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/evidence.h"
#include "engine/scoring.h"

namespace netdoctor::engine {

inline constexpr std::size_t k_max_entities = 6;

// 0 nic, netdev, port, link; 1 host; 2 switch; 3 anything else.
int specificity_rank(const std::string& entity);

struct NamedEntity {
  std::string name;
  double weight = 0.0;  // sum of weight x strength of the findings naming it
};

std::vector<NamedEntity> rank_entities(const CauseScore& score, const EvidenceBook& book);

std::vector<std::string> localize(const CauseScore& score, const EvidenceBook& book,
                                  std::size_t cap = k_max_entities);

}  // namespace netdoctor::engine
