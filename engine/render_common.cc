#include <fmt/format.h>

#include "engine/render.h"

namespace netdoctor::engine {

std::string shell_quote(const std::string& word) {
  if (word.empty()) {
    return "''";
  }
  bool plain = true;
  for (char c : word) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || c == ',' || c == '=';
    plain = plain && safe;
  }
  if (plain) {
    return word;
  }
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string change_record_command(const NextChange& change, const std::string& incident) {
  return fmt::format("netdoctor change record --incident {} --entity {} --var {} --from {} --to {}",
                     shell_quote(incident), shell_quote(change.entity),
                     shell_quote(change.variable), shell_quote(change.from),
                     shell_quote(change.to));
}

std::string describe_evidence(const EvidenceItem& item) {
  std::string text = fmt::format("[{}] {}", item.probe, item.summary);
  if (item.value) {
    std::string unit = item.unit.empty() ? "" : " " + item.unit;
    if (item.fleet_normal) {
      text += fmt::format(" ({:g}{}; fleet normal {:g}{})", *item.value, unit, *item.fleet_normal,
                          unit);
    } else {
      text += fmt::format(" ({:g}{})", *item.value, unit);
    }
  }
  return text;
}

std::string headline(const Diagnosis& diagnosis) {
  switch (diagnosis.verdict) {
    case Verdict::RootCauseFound: {
      const RankedCause& top = diagnosis.causes.front();
      std::string culprit = top.entities.empty() ? "fabric-wide" : top.entities.front();
      std::string more = diagnosis.causes.size() > 1
                             ? fmt::format(" (+{} more cause{})", diagnosis.causes.size() - 1,
                                           diagnosis.causes.size() > 2 ? "s" : "")
                             : "";
      return fmt::format("ROOT CAUSE: {} at {} - {} (confidence {:.2f}){}", top.id, culprit,
                         top.title, top.confidence, more);
    }
    case Verdict::Healthy:
      return fmt::format("HEALTHY: no fault found for symptom '{}'; every check that ran was clear",
                         diagnosis.symptom);
    case Verdict::Inconclusive:
      break;
  }
  if (diagnosis.causes.empty()) {
    return fmt::format(
        "INCONCLUSIVE: no cause found for symptom '{}', but too little data to call it healthy",
        diagnosis.symptom);
  }
  const RankedCause& top = diagnosis.causes.front();
  std::string culprit = top.entities.empty() ? "fabric-wide" : top.entities.front();
  return fmt::format("INCONCLUSIVE: best lead {} at {} - {} (confidence {:.2f}, weak evidence)",
                     top.id, culprit, top.title, top.confidence);
}

}  // namespace netdoctor::engine
