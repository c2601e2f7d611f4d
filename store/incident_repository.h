// IncidentRepository: incidents and the diagnoses recorded in them. A diagnosis is stored
// whole (the JSON the engine rendered) plus queryable rows: its probes, ranked causes and
// their evidence. Plain structs only: the store does not know the engine's types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::store {

class Database;

struct Incident {
  std::int64_t id = 0;
  double opened_at = 0.0;
  std::string symptom;
  std::string scope;  // the bundle path or the hosts looked at
  std::optional<double> closed_at;
  std::string cause_id;         // given at close
  std::string summary;          // given at close
  std::string confirmed_cause;  // set when a verified change made the symptom go away
  std::optional<std::int64_t> confirmed_by_change;

  bool closed() const { return closed_at.has_value(); }
};

struct EvidenceRow {
  std::string probe;
  std::string signal;
  std::string summary;
  double weight = 0.0;
  std::optional<double> value;
  std::optional<double> fleet_normal;
  std::string unit;
};

struct CauseRow {
  std::string id;
  std::string title;
  double confidence = 0.0;
  std::vector<std::string> entities;
  std::vector<std::string> remediation;
  std::vector<EvidenceRow> evidence;
  // When it began, for a capture of three samples or more (engine/onset.h): the sentence the
  // diagnosis says, and the bounds of the first interval where it shows (Unix seconds). Empty /
  // unset when the capture could not place it in time.
  std::string onset;
  std::optional<double> began_from;
  std::optional<double> began_to;
  bool began_in_capture = false;  // false: it was there before the capture began
};

struct ProbeRow {
  std::string id;
  std::string status;  // "ran", "skipped", "failed"
  std::string reason;
  double duration_ms = 0.0;
};

inline constexpr const char* k_origin_diagnose = "diagnose";
inline constexpr const char* k_origin_verify = "verify";

struct DiagnosisRecord {
  std::int64_t id = 0;  // assigned on insert
  std::int64_t incident_id = 0;
  double created_at = 0.0;
  std::string origin = k_origin_diagnose;  // or k_origin_verify
  std::optional<std::int64_t> change_id;   // the change a verify run judged
  std::string symptom;
  std::string scope;
  std::string verdict;           // "root-cause-found", "inconclusive", "healthy"
  std::string json;              // the diagnosis as rendered (spec/diagnosis.md)
  std::vector<CauseRow> causes;  // highest confidence first
  std::vector<ProbeRow> probes;  // in run order

  const CauseRow* top_cause() const { return causes.empty() ? nullptr : &causes.front(); }
};

class IncidentRepository {
 public:
  explicit IncidentRepository(Database& db) : m_db(db) {}

  Result<std::int64_t> open(const std::string& symptom, const std::string& scope, double at);

  // Stores `record` in incident `record.incident_id`, or in a new incident (opened at the
  // record's time with its symptom and scope) when that id is 0. NotFound for an unknown
  // incident. Returns the record with both ids filled in.
  Result<DiagnosisRecord> add_diagnosis(DiagnosisRecord record);

  Result<Incident> get(std::int64_t id);
  Result<std::vector<Incident>> list();
  // Oldest first, with causes, evidence and probes.
  Result<std::vector<DiagnosisRecord>> diagnoses(std::int64_t incident_id);
  // The latest diagnosis that came from `diagnose` (not from verifying a change).
  Result<std::optional<DiagnosisRecord>> latest_diagnosis(std::int64_t incident_id);

  // Refused when already closed.
  Status close(std::int64_t id, const std::string& cause_id, const std::string& summary, double at);
  Status confirm_cause(std::int64_t id, const std::string& cause_id, std::int64_t change_id);

 private:
  Status insert_rows(const DiagnosisRecord& record);
  Status load_rows(DiagnosisRecord& record);

  Database& m_db;
};

}  // namespace netdoctor::store
