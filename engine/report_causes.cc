#include "engine/report_causes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "engine/localize.h"
#include "engine/next_change.h"
#include "engine/verdict.h"
#include "model/entity_names.h"

namespace netdoctor::engine {

namespace {

constexpr std::size_t k_max_findings_per_signal = 4;

bool same_signal(const Contribution& a, const Contribution& b) {
  return a.rule->probe == b.rule->probe && a.rule->signal == b.rule->signal;
}

// Support of `score` not already claimed by a reported cause.
double own_support(const CauseScore& score, const std::vector<const CauseScore*>& reported) {
  double own = 0.0;
  for (const auto& contribution : score.contributions) {
    if (contribution.delta <= 0.0) {
      continue;
    }
    bool claimed = false;
    for (const CauseScore* other : reported) {
      for (const auto& theirs : other->contributions) {
        if (theirs.delta > 0.0 && same_signal(theirs, contribution)) {
          claimed = true;
        }
      }
    }
    if (!claimed) {
      own += contribution.delta;
    }
  }
  return own;
}

std::vector<EvidenceItem> evidence_for(const CauseScore& score, const EvidenceBook& book) {
  std::vector<EvidenceItem> items;
  std::vector<const Contribution*> ordered;
  for (const auto& contribution : score.contributions) {
    if (contribution.delta > 0.0) {
      ordered.push_back(&contribution);
    }
  }
  std::stable_sort(
      ordered.begin(), ordered.end(),
      [](const Contribution* a, const Contribution* b) { return a->delta > b->delta; });
  for (const Contribution* contribution : ordered) {
    auto findings = book.matching(contribution->rule->probe, contribution->rule->signal);
    for (std::size_t i = 0; i < findings.size() && i < k_max_findings_per_signal; ++i) {
      const probes::Finding& finding = findings[i]->finding;
      EvidenceItem item;
      item.probe = findings[i]->probe;
      item.signal = finding.signal;
      item.summary = finding.summary.empty() ? finding.signal : finding.summary;
      // Only the strongest finding of a signal moves the score.
      item.weight = i == 0 ? contribution->delta : 0.0;
      item.value = finding.value;
      item.fleet_normal = finding.fleet_normal;
      item.unit = finding.unit;
      items.push_back(std::move(item));
    }
    if (findings.size() > k_max_findings_per_signal) {
      EvidenceItem more;
      more.probe = contribution->rule->probe;
      more.signal = contribution->rule->signal;
      more.summary =
          fmt::format("... and {} more {} findings", findings.size() - k_max_findings_per_signal,
                      contribution->rule->signal);
      items.push_back(std::move(more));
    }
  }
  return items;
}

// The NIC an entity belongs to physically (its netdev, the switch port and the link it is
// cabled to), so that a cause naming a NIC's switch port names the same place as a cause
// naming the NIC. Entities of no NIC map to themselves.
std::map<std::string, std::string> nic_owners(const model::Fabric& fabric) {
  std::map<std::string, std::string> owners;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      const std::string owner = nic.nic_entity();
      owners.emplace(nic.netdev_entity(), owner);
      const std::string port = nic.port_entity();
      if (!port.empty()) {
        owners.emplace(port, owner);
      }
    }
  }
  return owners;
}

std::string owner_of(const std::string& entity, const std::map<std::string, std::string>& owners) {
  const auto it = owners.find(entity);
  return it == owners.end() ? entity : it->second;
}

// Independent means its own evidence on other entities: a weaker cause blaming only culprits
// already named (the storm origin's own rx discards) is the same fault.
bool blames_only_named(const CauseScore& score, const std::vector<const CauseScore*>& reported,
                       const EvidenceBook& book, const std::map<std::string, std::string>& owners) {
  std::set<std::string> named;
  for (const CauseScore* other : reported) {
    for (const auto& theirs : rank_entities(*other, book)) {  // all, not the top few
      named.insert(theirs.name);
      named.insert(owner_of(theirs.name, owners));
    }
  }
  // Links are named through their ends; they alone never make a cause the same fault.
  std::vector<std::string> places;
  for (const auto& culprit : rank_entities(score, book)) {
    if (model::entity_kind(culprit.name) != model::EntityKind::Link) {
      places.push_back(owner_of(culprit.name, owners));
    }
  }
  return !places.empty() && std::all_of(places.begin(), places.end(), [&named](const auto& place) {
    return named.count(place) > 0;
  });
}

// Whether a reported cause names one of this cause's places (links aside): a residual cause
// there is that cause's symptom (a perftest pair through a NIC that is down).
bool shares_a_place(const CauseScore& score, const std::vector<const CauseScore*>& reported,
                    const EvidenceBook& book, const std::map<std::string, std::string>& owners) {
  std::set<std::string> named;
  for (const CauseScore* other : reported) {
    for (const auto& theirs : rank_entities(*other, book)) {
      named.insert(owner_of(theirs.name, owners));
    }
  }
  const auto culprits = rank_entities(score, book);
  return std::any_of(culprits.begin(), culprits.end(), [&](const auto& culprit) {
    return model::entity_kind(culprit.name) != model::EntityKind::Link &&
           named.count(owner_of(culprit.name, owners)) > 0;
  });
}

// The score confidence is measured against: the strongest other reported cause, or, for a
// cause reported alone, the strongest unreported competitor (it still takes some confidence).
double rival_score(const std::vector<CauseScore>& scores,
                   const std::vector<const CauseScore*>& reported,
                   const std::vector<double>& reported_scores, std::size_t i) {
  double rival = 0.0;
  for (std::size_t j = 0; j < reported.size(); ++j) {
    if (j != i) {
      rival = std::max(rival, reported_scores[j]);
    }
  }
  if (reported.size() == 1) {
    for (const auto& other : scores) {
      if (&other != reported[i]) {
        rival = std::max(rival, other.score());
      }
    }
  }
  return rival;
}

// Advice in the culprit's own tool (its NIC's QoS tool, its host's clock daemon), where the cause
// has some; null for the cause's general advice.
const kb::ToolAdvice* advice_for_culprit(const kb::Cause& cause, Placeholders& values) {
  for (const auto& [placeholder, by_tool] : cause.by_tool) {
    const auto tool = by_tool.find(values[placeholder]);
    if (tool != by_tool.end()) {
      return &tool->second;
    }
  }
  return nullptr;
}

RankedCause ranked_cause(const CauseScore& score, double confidence_value, const EvidenceBook& book,
                         const model::Fabric& fabric, int roce_priority) {
  RankedCause cause;
  cause.id = score.cause->id;
  cause.title = score.cause->title;
  cause.confidence = confidence_value;
  cause.entities = localize(score, book);
  cause.evidence = evidence_for(score, book);
  Placeholders values = placeholders_for(cause.entities, cause.evidence, fabric, roce_priority);
  const kb::ToolAdvice* advice = advice_for_culprit(*score.cause, values);
  for (const auto& step : advice != nullptr ? advice->remediation : score.cause->remediation) {
    cause.remediation.push_back(fill_template(step, values));
  }
  cause.next_change =
      make_next_change(advice != nullptr ? advice->next_change : score.cause->next_change, values);
  return cause;
}

}  // namespace

ReportedCauses report_causes(const std::vector<CauseScore>& scores, const EvidenceBook& book,
                             const model::Fabric& fabric, int roce_priority) {
  ReportedCauses out;
  const auto owners = nic_owners(fabric);
  std::vector<const CauseScore*> reported;
  std::vector<double> reported_scores;
  for (const auto& score : scores) {
    if (score.score() < k_report_score) {
      continue;
    }
    double own = own_support(score, reported) - score.against;
    if (!reported.empty() && own < k_report_score) {
      out.explained_away.push_back(fmt::format("{}: its evidence is explained by {}",
                                               score.cause->id, reported.front()->cause->id));
      continue;
    }
    if (!reported.empty() && score.cause->residual &&
        shares_a_place(score, reported, book, owners)) {
      out.explained_away.push_back(fmt::format("{}: measured where {} is, its symptom there",
                                               score.cause->id, reported.front()->cause->id));
      continue;
    }
    if (!reported.empty() && blames_only_named(score, reported, book, owners)) {
      out.explained_away.push_back(fmt::format("{}: same culprit as {}, not an independent cause",
                                               score.cause->id, reported.front()->cause->id));
      continue;
    }
    reported.push_back(&score);
    reported_scores.push_back(reported.size() == 1 ? score.score() : own);
  }
  for (std::size_t i = 0; i < reported.size(); ++i) {
    const double rival = rival_score(scores, reported, reported_scores, i);
    out.causes.push_back(ranked_cause(*reported[i], confidence(reported_scores[i], rival), book,
                                      fabric, roce_priority));
  }
  if (!reported.empty()) {
    out.top_score = reported.front()->score();
  }
  std::stable_sort(
      out.causes.begin(), out.causes.end(),
      [](const RankedCause& a, const RankedCause& b) { return a.confidence > b.confidence; });
  return out;
}

}  // namespace netdoctor::engine
