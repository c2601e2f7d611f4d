// The fabric map of each diagnosis (schema 4, table diagnosis_maps), kept as the text the report
// library wrote ("netdoctor-map" JSON): the store keeps it whole and reads nothing inside it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"

namespace netdoctor::store {

class Database;

struct StoredMap {
  std::int64_t diagnosis_id = 0;
  std::string json;
};

class MapRepository {
 public:
  explicit MapRepository(Database& db) : m_db(db) {}

  // Keeps `json` as diagnosis `diagnosis_id`'s map (replacing one kept before).
  Status save(std::int64_t diagnosis_id, const std::string& json);
  // The map of the latest diagnosis of the incident that has one; nullopt when none has.
  Result<std::optional<StoredMap>> latest_for_incident(std::int64_t incident_id);

 private:
  Database& m_db;
};

}  // namespace netdoctor::store
