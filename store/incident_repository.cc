#include "store/incident_repository.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "store/database.h"

namespace netdoctor::store {
namespace {

constexpr const char* k_incident_columns =
    "id, opened_at, symptom, scope, closed_at, cause_id, summary, confirmed_cause, "
    "confirmed_by_change";

Incident read_incident(const Statement& row) {
  Incident incident;
  incident.id = row.int64(0);
  incident.opened_at = row.real(1);
  incident.symptom = row.text(2);
  incident.scope = row.text(3);
  incident.closed_at = row.optional_real(4);
  incident.cause_id = row.text(5);
  incident.summary = row.text(6);
  incident.confirmed_cause = row.text(7);
  incident.confirmed_by_change = row.optional_int64(8);
  return incident;
}

std::string to_json_array(const std::vector<std::string>& items) {
  return json_text(nlohmann::json(items));
}

std::vector<std::string> from_json_array(const std::string& text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  std::vector<std::string> items;
  if (parsed.is_array()) {
    for (const auto& item : parsed) {
      if (item.is_string()) {
        items.push_back(item.get<std::string>());
      }
    }
  }
  return items;
}

Error unknown_incident(std::int64_t id) {
  return make_error(ErrorCode::NotFound,
                    fmt::format("no incident {} (see 'netdoctor incident list')", id));
}

}  // namespace

Result<std::int64_t> IncidentRepository::open(const std::string& symptom, const std::string& scope,
                                              double at) {
  std::int64_t id = 0;
  auto body = [&]() -> Status {
    ND_TRY_ASSIGN(
        Statement stmt,
        m_db.prepare("INSERT INTO incidents (opened_at, symptom, scope) VALUES (?, ?, ?)"));
    stmt.bind(1, at).bind(2, symptom).bind(3, scope);
    ND_TRY(stmt.run());
    id = m_db.last_insert_id();
    return {};
  };
  ND_TRY(m_db.write(body));
  return id;
}

Result<DiagnosisRecord> IncidentRepository::add_diagnosis(DiagnosisRecord record) {
  auto body = [&]() -> Status {
    if (record.incident_id == 0) {
      ND_TRY_ASSIGN(record.incident_id, open(record.symptom, record.scope, record.created_at));
    } else {
      ND_TRY_ASSIGN(Incident incident, get(record.incident_id));
      (void)incident;
    }
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("INSERT INTO diagnoses (incident_id, created_at, origin, change_id, "
                               "symptom, scope, verdict, top_cause, top_confidence, json) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    stmt.bind(1, record.incident_id)
        .bind(2, record.created_at)
        .bind(3, record.origin)
        .bind(4, record.change_id)
        .bind(5, record.symptom)
        .bind(6, record.scope)
        .bind(7, record.verdict);
    if (const CauseRow* top = record.top_cause()) {
      stmt.bind(8, top->id).bind(9, top->confidence);
    } else {
      stmt.bind_null(8).bind_null(9);
    }
    stmt.bind(10, record.json);
    ND_TRY(stmt.run());
    record.id = m_db.last_insert_id();
    return insert_rows(record);
  };
  ND_TRY(m_db.write(body));
  return record;
}

Status IncidentRepository::insert_rows(const DiagnosisRecord& record) {
  std::int64_t seq = 0;
  for (const ProbeRow& row : record.probes) {
    ND_TRY_ASSIGN(Statement probe,
                  m_db.prepare("INSERT INTO diagnosis_probes (diagnosis_id, seq, probe, status, "
                               "reason, duration_ms) VALUES (?, ?, ?, ?, ?, ?)"));
    probe.bind(1, record.id).bind(2, seq++).bind(3, row.id).bind(4, row.status);
    probe.bind(5, row.reason).bind(6, row.duration_ms);
    ND_TRY(probe.run());
  }
  std::int64_t rank = 0;
  for (const CauseRow& cause : record.causes) {
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("INSERT INTO diagnosis_causes (diagnosis_id, rank, cause_id, title, "
                               "confidence, entities, remediation, onset, began_from, began_to, "
                               "began_in_capture) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    stmt.bind(1, record.id).bind(2, rank).bind(3, cause.id).bind(4, cause.title);
    stmt.bind(5, cause.confidence)
        .bind(6, to_json_array(cause.entities))
        .bind(7, to_json_array(cause.remediation));
    stmt.bind(8, cause.onset).bind(9, cause.began_from).bind(10, cause.began_to);
    stmt.bind(11, static_cast<std::int64_t>(cause.began_in_capture ? 1 : 0));
    ND_TRY(stmt.run());
    std::int64_t item = 0;
    for (const EvidenceRow& evidence : cause.evidence) {
      ND_TRY_ASSIGN(Statement ev,
                    m_db.prepare("INSERT INTO diagnosis_evidence (diagnosis_id, rank, seq, probe, "
                                 "signal, summary, weight, value, fleet_normal, unit) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
      ev.bind(1, record.id).bind(2, rank).bind(3, item++).bind(4, evidence.probe);
      ev.bind(5, evidence.signal).bind(6, evidence.summary).bind(7, evidence.weight);
      ev.bind(8, evidence.value).bind(9, evidence.fleet_normal).bind(10, evidence.unit);
      ND_TRY(ev.run());
    }
    ++rank;
  }
  return {};
}

Status IncidentRepository::load_rows(DiagnosisRecord& record) {
  ND_TRY_ASSIGN(Statement probes,
                m_db.prepare("SELECT probe, status, reason, duration_ms FROM diagnosis_probes "
                             "WHERE diagnosis_id = ? ORDER BY seq"));
  probes.bind(1, record.id);
  while (true) {
    ND_TRY_ASSIGN(bool row, probes.step());
    if (!row) {
      break;
    }
    record.probes.push_back({probes.text(0), probes.text(1), probes.text(2), probes.real(3)});
  }
  ND_TRY_ASSIGN(Statement causes,
                m_db.prepare("SELECT cause_id, title, confidence, entities, remediation, onset, "
                             "began_from, began_to, began_in_capture "
                             "FROM diagnosis_causes WHERE diagnosis_id = ? ORDER BY rank"));
  causes.bind(1, record.id);
  while (true) {
    ND_TRY_ASSIGN(bool row, causes.step());
    if (!row) {
      break;
    }
    CauseRow cause;
    cause.id = causes.text(0);
    cause.title = causes.text(1);
    cause.confidence = causes.real(2);
    cause.entities = from_json_array(causes.text(3));
    cause.remediation = from_json_array(causes.text(4));
    cause.onset = causes.text(5);
    cause.began_from = causes.optional_real(6);
    cause.began_to = causes.optional_real(7);
    cause.began_in_capture = causes.int64(8) != 0;
    record.causes.push_back(std::move(cause));
  }
  ND_TRY_ASSIGN(
      Statement evidence,
      m_db.prepare("SELECT rank, probe, signal, summary, weight, value, fleet_normal, unit "
                   "FROM diagnosis_evidence WHERE diagnosis_id = ? ORDER BY rank, seq"));
  evidence.bind(1, record.id);
  while (true) {
    ND_TRY_ASSIGN(bool row, evidence.step());
    if (!row) {
      break;
    }
    auto rank = static_cast<std::size_t>(evidence.int64(0));
    if (rank >= record.causes.size()) {
      continue;
    }
    record.causes[rank].evidence.push_back({evidence.text(1), evidence.text(2), evidence.text(3),
                                            evidence.real(4), evidence.optional_real(5),
                                            evidence.optional_real(6), evidence.text(7)});
  }
  return {};
}

Result<Incident> IncidentRepository::get(std::int64_t id) {
  ND_TRY_ASSIGN(Statement stmt, m_db.prepare(fmt::format("SELECT {} FROM incidents WHERE id = ?",
                                                         k_incident_columns)));
  stmt.bind(1, id);
  ND_TRY_ASSIGN(bool row, stmt.step());
  if (!row) {
    return unknown_incident(id);
  }
  return read_incident(stmt);
}

Result<std::vector<Incident>> IncidentRepository::list() {
  ND_TRY_ASSIGN(Statement stmt, m_db.prepare(fmt::format("SELECT {} FROM incidents ORDER BY id",
                                                         k_incident_columns)));
  std::vector<Incident> incidents;
  while (true) {
    ND_TRY_ASSIGN(bool row, stmt.step());
    if (!row) {
      break;
    }
    incidents.push_back(read_incident(stmt));
  }
  return incidents;
}

Result<std::vector<DiagnosisRecord>> IncidentRepository::diagnoses(std::int64_t incident_id) {
  std::vector<DiagnosisRecord> records;
  auto body = [&]() -> Status {
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("SELECT id, incident_id, created_at, origin, change_id, symptom, "
                               "scope, verdict, json FROM diagnoses WHERE incident_id = ? "
                               "ORDER BY created_at, id"));
    stmt.bind(1, incident_id);
    while (true) {
      ND_TRY_ASSIGN(bool row, stmt.step());
      if (!row) {
        break;
      }
      DiagnosisRecord record;
      record.id = stmt.int64(0);
      record.incident_id = stmt.int64(1);
      record.created_at = stmt.real(2);
      record.origin = stmt.text(3);
      record.change_id = stmt.optional_int64(4);
      record.symptom = stmt.text(5);
      record.scope = stmt.text(6);
      record.verdict = stmt.text(7);
      record.json = stmt.text(8);
      records.push_back(std::move(record));
    }
    for (DiagnosisRecord& record : records) {
      ND_TRY(load_rows(record));
    }
    return {};
  };
  ND_TRY(m_db.read(body));
  return records;
}

Result<std::optional<DiagnosisRecord>> IncidentRepository::latest_diagnosis(
    std::int64_t incident_id) {
  ND_TRY_ASSIGN(std::vector<DiagnosisRecord> records, diagnoses(incident_id));
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    if (it->origin == k_origin_diagnose) {
      return std::optional<DiagnosisRecord>(std::move(*it));
    }
  }
  return std::optional<DiagnosisRecord>();
}

Status IncidentRepository::close(std::int64_t id, const std::string& cause_id,
                                 const std::string& summary, double at) {
  return m_db.write([&]() -> Status {
    ND_TRY_ASSIGN(Incident incident, get(id));
    if (incident.closed()) {
      return make_error(ErrorCode::Refused, fmt::format("incident {} is already closed", id));
    }
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("UPDATE incidents SET closed_at = ?, cause_id = ?, summary = ? "
                               "WHERE id = ?"));
    stmt.bind(1, at).bind(2, cause_id).bind(3, summary).bind(4, id);
    return stmt.run();
  });
}

Status IncidentRepository::confirm_cause(std::int64_t id, const std::string& cause_id,
                                         std::int64_t change_id) {
  return m_db.write([&]() -> Status {
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("UPDATE incidents SET confirmed_cause = ?, confirmed_by_change = ? "
                               "WHERE id = ?"));
    stmt.bind(1, cause_id).bind(2, change_id).bind(3, id);
    return stmt.run();
  });
}

}  // namespace netdoctor::store
