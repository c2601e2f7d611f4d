#include "store/change_verification.h"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "store/change_verdict.h"
#include "store/database.h"

namespace netdoctor::store {
namespace {

// Evidence is matched between runs by probe and signal; repeats get an ordinal.
std::vector<std::pair<std::string, const EvidenceRow*>> keyed_evidence(const CauseRow& cause) {
  std::map<std::string, int> seen;
  std::vector<std::pair<std::string, const EvidenceRow*>> keyed;
  for (const EvidenceRow& row : cause.evidence) {
    std::string key = row.probe + "/" + row.signal;
    int n = seen[key]++;
    keyed.emplace_back(n == 0 ? key : fmt::format("{} #{}", key, n + 1), &row);
  }
  return keyed;
}

const CauseRow* find_cause(const DiagnosisRecord& record, const std::string& id) {
  for (const CauseRow& cause : record.causes) {
    if (cause.id == id) {
      return &cause;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<DiagnosisRecord> diagnosis_before(const std::vector<DiagnosisRecord>& records,
                                                double change_time) {
  std::optional<DiagnosisRecord> chosen;
  for (const DiagnosisRecord& record : records) {
    if (record.origin != k_origin_diagnose) {
      continue;
    }
    if (!chosen || record.created_at <= change_time) {
      chosen = record;
    }
  }
  return chosen;
}

std::vector<Figure> evidence_figures(const DiagnosisRecord& before, const DiagnosisRecord& after) {
  std::vector<Figure> figures;
  const CauseRow* top = before.top_cause();
  if (top == nullptr) {
    return figures;
  }
  // Prefer the same cause's evidence after; a finding that moved to another cause still counts.
  std::map<std::string, const EvidenceRow*> later;
  for (const CauseRow& cause : after.causes) {
    for (const auto& [key, row] : keyed_evidence(cause)) {
      if (cause.id == top->id || later.count(key) == 0) {
        later[key] = row;
      }
    }
  }
  for (const auto& [key, row] : keyed_evidence(*top)) {
    if (!row->value) {
      continue;  // a finding without a figure cannot be compared
    }
    Figure figure;
    figure.label = key;
    figure.unit = row->unit;
    figure.before = row->value;
    // Bad is far from the fleet's normal: above it for counters and rates, below it for
    // bandwidth-like figures.
    figure.lower_is_better = !row->fleet_normal || *row->value >= *row->fleet_normal;
    if (auto it = later.find(key); it != later.end()) {
      figure.after = it->second->value;
    }
    figures.push_back(std::move(figure));
  }
  return figures;
}

ChangeAssessment assess_change(const std::optional<DiagnosisRecord>& before,
                               const DiagnosisRecord& after) {
  ChangeAssessment assessment;
  VerdictInput input;
  if (before && before->top_cause() != nullptr) {
    assessment.cause_id = before->top_cause()->id;
    input.cause_before = true;
    input.cause_after = find_cause(after, assessment.cause_id) != nullptr;
    input.figures = evidence_figures(*before, after);
  } else {
    input.cause_before = false;
    input.cause_after = !after.causes.empty();
  }
  assessment.verdict = judge_change(input);
  assessment.figures = std::move(input.figures);
  return assessment;
}

Result<VerifyOutcome> verify_change(Database& db, std::int64_t change_id, DiagnosisRecord rerun,
                                    bool symptom_gone, const std::string& source) {
  VerifyOutcome outcome;
  auto body = [&]() -> Status {
    ChangeRepository changes(db);
    IncidentRepository incidents(db);
    ND_TRY_ASSIGN(Change change, changes.get(change_id));
    if (change.rolled_back_at) {
      return make_error(
          ErrorCode::Refused,
          fmt::format("change {} was rolled back; there is nothing to verify", describe(change)));
    }
    ND_TRY_ASSIGN(std::vector<DiagnosisRecord> records, incidents.diagnoses(change.incident_id));
    rerun.incident_id = change.incident_id;
    rerun.origin = k_origin_verify;
    rerun.change_id = change.id;
    const double at = rerun.created_at;

    ChangeAssessment assessment =
        assess_change(diagnosis_before(records, change.recorded_at), rerun);
    outcome.cause_id = std::move(assessment.cause_id);
    outcome.figures = std::move(assessment.figures);
    outcome.verdict = assessment.verdict;
    outcome.symptom_gone = symptom_gone;

    ND_TRY_ASSIGN(DiagnosisRecord stored, incidents.add_diagnosis(std::move(rerun)));
    outcome.diagnosis_id = stored.id;
    ND_TRY(changes.verify({change.id, at, outcome.verdict, source, outcome.figures}));
    if (outcome.symptom_gone && !outcome.cause_id.empty()) {
      ND_TRY(incidents.confirm_cause(change.incident_id, outcome.cause_id, change.id));
      outcome.confirmed = true;
    }
    ND_TRY_ASSIGN(outcome.change, changes.get(change.id));
    return {};
  };
  ND_TRY(db.write(body));
  return outcome;
}

}  // namespace netdoctor::store
