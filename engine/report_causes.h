// Turns scores into the reported causes: evidence items, culprits, remediation and the next
// change. A lower cause whose support is only evidence a higher reported cause already
// explains (the same probe signal) is explained away; one with its own evidence is reported
// as a second, independent cause.
#pragma once

#include <string>
#include <vector>

#include "engine/diagnosis.h"
#include "engine/evidence.h"
#include "engine/scoring.h"
#include "model/fabric.h"

namespace netdoctor::engine {

struct ReportedCauses {
  std::vector<RankedCause> causes;
  double top_score = 0.0;
  std::vector<std::string> explained_away;  // "baseline-regression: explained by pfc-storm"
};

ReportedCauses report_causes(const std::vector<CauseScore>& scores, const EvidenceBook& book,
                             const model::Fabric& fabric, int roce_priority);

}  // namespace netdoctor::engine
