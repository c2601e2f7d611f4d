#include "store/map_repository.h"

#include "store/database.h"

namespace netdoctor::store {

Status MapRepository::save(std::int64_t diagnosis_id, const std::string& json) {
  return m_db.write([&]() -> Status {
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("INSERT OR REPLACE INTO diagnosis_maps (diagnosis_id, json) "
                               "VALUES (?, ?)"));
    stmt.bind(1, diagnosis_id).bind(2, std::string_view(json));
    return stmt.run();
  });
}

Result<std::optional<StoredMap>> MapRepository::latest_for_incident(std::int64_t incident_id) {
  std::optional<StoredMap> found;
  ND_TRY(m_db.read([&]() -> Status {
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("SELECT m.diagnosis_id, m.json FROM diagnosis_maps m "
                               "JOIN diagnoses d ON d.id = m.diagnosis_id "
                               "WHERE d.incident_id = ? ORDER BY d.created_at DESC, d.id DESC "
                               "LIMIT 1"));
    stmt.bind(1, incident_id);
    ND_TRY_ASSIGN(bool row, stmt.step());
    if (row) {
      found = StoredMap{stmt.int64(0), stmt.text(1)};
    }
    return {};
  }));
  return found;
}

}  // namespace netdoctor::store
