// The postmortem of an incident, written from the stored records only: summary, impact,
// timeline, root cause with the evidence that decided it, the active tests (sweeps) with their
// verdicts and runs, every change with its figures and verdict, what was rolled back, and
// follow-ups. Text that came from hosts or bundles is escaped in the Markdown so that it reads
// as text, never as markup.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/change_repository.h"
#include "store/incident_repository.h"
#include "store/sweep_repository.h"

namespace netdoctor::store {

class Database;

struct PostmortemData {
  Incident incident;
  std::vector<DiagnosisRecord> diagnoses;  // oldest first
  std::vector<Change> changes;             // oldest first
  std::vector<SweepRecord> sweeps;         // oldest first, with every run
};

Result<PostmortemData> load_postmortem(Database& db, std::int64_t incident_id);

// The Markdown lists, per sweep, only its slow and failed runs and those touching a slow entity
// (with the count of the other runs): a sweep of a thousand hosts makes thousands of runs. The
// JSON carries every run.
std::string render_postmortem_markdown(const PostmortemData& data);
nlohmann::json render_postmortem_json(const PostmortemData& data);

// The change that undoes `change`, as a command line: "--entity E --var V --from NEW --to OLD".
std::string reverse_change_arguments(const Change& change);
// A change as JSON, what `change list` and the postmortem both show of it: id, recorded_at,
// entity, variable, from, to, why, forced_note.
nlohmann::json change_json(const Change& change);

}  // namespace netdoctor::store
