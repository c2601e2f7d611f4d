// `netdoctor explain CAUSE`: a kb entry for a person - mechanism, the signs for and against
// it (probe, signal, weight, and how to check each by hand), remediation, the one-variable
// change to try first and how to verify it, where the field's material discusses it.
#pragma once

#include <string>
#include <vector>

#include "runbook/library.h"

namespace netdoctor::runbook {

struct Sign {
  std::string probe;
  std::string signal;
  double weight = 0.0;
  std::string note;
  std::string look_for;  // from the probe's manual
  std::string command;   // the manual command whose output shows it
};

struct SymptomRank {
  std::string symptom;
  std::size_t rank = 0;  // 1-based place among the playbook's candidates
};

struct CauseExplanation {
  std::string id;
  std::string title;
  std::string category;
  std::string severity;
  std::string mechanism;
  std::vector<Sign> supports;
  std::vector<Sign> against;
  std::vector<std::string> remediation;
  kb::NextChangeTemplate next_change;
  std::vector<SymptomRank> symptoms;
  std::string source;
};

// Error (InvalidArgument) naming the valid ids and the nearest ones for an unknown cause.
// `fabric` ("ib" or "roce"; "" for either) picks each sign's command for that kind of fabric.
Result<CauseExplanation> explain_cause(const Library& library, const std::string& id,
                                       int roce_priority = 3, const std::string& fabric = {});

// The ids closest to `id` by edit distance (and those containing it), best first.
std::vector<std::string> suggest_causes(const Library& library, const std::string& id);

// Templates' {entity}-style fields shown as <entity> for a person to fill in.
std::string show_template(const std::string& text, int roce_priority);

std::string render_explanation_text(const CauseExplanation& explanation);
std::string render_explanation_markdown(const CauseExplanation& explanation);
std::string render_cause_list_text(const Library& library);
std::string render_cause_list_markdown(const Library& library);

}  // namespace netdoctor::runbook
