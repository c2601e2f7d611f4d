// Verifying a change: the incident's playbook is re-run on data taken after the change, and
// the evidence of the cause that was on top before it is compared with the re-run. Plain
// records only: the CLI turns the engine's diagnosis into a DiagnosisRecord first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/change_repository.h"
#include "store/incident_repository.h"

namespace netdoctor::store {

class Database;

// The diagnose run a change was made after: the latest `diagnose` record (verify re-runs are
// not) created at or before `change_time`; when every one came later, the first of them.
// `records` oldest first; nullopt when none came from diagnose.
std::optional<DiagnosisRecord> diagnosis_before(const std::vector<DiagnosisRecord>& records,
                                                double change_time);

// The figures of `before`'s top cause against the same evidence in `after`. Evidence is matched
// by "probe/signal" (repeats within a cause as "probe/signal #2", ...), in the same cause when
// `after` has it there, else in the first cause that has it. A finding without a value gives no
// figure; one gone from `after` gives a figure without an after value. Lower is better unless the
// value is below its fleet normal (bandwidth-like). Empty when `before` has no cause.
std::vector<Figure> evidence_figures(const DiagnosisRecord& before, const DiagnosisRecord& after);

struct ChangeAssessment {
  std::string cause_id;  // the top cause before the change; empty when none was found
  std::vector<Figure> figures;
  ChangeVerdict verdict = ChangeVerdict::NoEffect;
};

// Judges a change from the diagnosis it was made after (`before`, nullopt when there is none)
// and the re-run after it (judge_change with the default threshold). Without a cause before,
// any cause after is a regression.
ChangeAssessment assess_change(const std::optional<DiagnosisRecord>& before,
                               const DiagnosisRecord& after);

struct VerifyOutcome {
  Change change;  // as stored after the verification
  ChangeVerdict verdict = ChangeVerdict::NoEffect;
  std::vector<Figure> figures;
  std::string cause_id;  // the incident's top cause before the change
  bool symptom_gone = false;
  bool confirmed = false;         // the cause was marked confirmed by this change
  std::int64_t diagnosis_id = 0;  // the stored re-run
};

// Verifies change `change_id` with `rerun` (its incident's playbook re-run on the data of
// `source`; its ids and origin are set here, its created_at is the verification time):
// assesses it against the diagnosis the change was made after, stores the re-run, the
// figures and the verdict, and when `symptom_gone` (the re-run found the fabric healthy)
// marks that cause confirmed by the change. One write transaction. NotFound for an unknown
// change; Refused for one that was rolled back.
Result<VerifyOutcome> verify_change(Database& db, std::int64_t change_id, DiagnosisRecord rerun,
                                    bool symptom_gone, const std::string& source);

}  // namespace netdoctor::store
