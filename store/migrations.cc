#include "store/migrations.h"

#include <fmt/format.h>

#include <array>

#include "store/database.h"

namespace netdoctor::store {
namespace {

// k_migrations[i] takes the schema from version i to i+1.
constexpr std::array<const char*, 5> k_migrations = {
    // 1: incidents, the diagnoses recorded in them, and the change log.
    R"sql(
CREATE TABLE incidents (
  id INTEGER PRIMARY KEY,
  opened_at REAL NOT NULL,
  symptom TEXT NOT NULL,
  scope TEXT NOT NULL,
  closed_at REAL,
  cause_id TEXT,
  summary TEXT,
  confirmed_cause TEXT,
  confirmed_by_change INTEGER
);
CREATE TABLE diagnoses (
  id INTEGER PRIMARY KEY,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  created_at REAL NOT NULL,
  origin TEXT NOT NULL,
  change_id INTEGER,
  symptom TEXT NOT NULL,
  scope TEXT NOT NULL,
  verdict TEXT NOT NULL,
  top_cause TEXT,
  top_confidence REAL,
  json TEXT NOT NULL
);
CREATE INDEX diagnoses_by_incident ON diagnoses(incident_id, created_at);
CREATE TABLE diagnosis_probes (
  diagnosis_id INTEGER NOT NULL REFERENCES diagnoses(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  probe TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  duration_ms REAL NOT NULL,
  PRIMARY KEY (diagnosis_id, seq)
);
CREATE TABLE diagnosis_causes (
  diagnosis_id INTEGER NOT NULL REFERENCES diagnoses(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  cause_id TEXT NOT NULL,
  title TEXT NOT NULL,
  confidence REAL NOT NULL,
  entities TEXT NOT NULL,
  remediation TEXT NOT NULL,
  PRIMARY KEY (diagnosis_id, rank)
);
CREATE INDEX diagnosis_causes_by_cause ON diagnosis_causes(cause_id);
CREATE TABLE diagnosis_evidence (
  diagnosis_id INTEGER NOT NULL REFERENCES diagnoses(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  probe TEXT NOT NULL,
  signal TEXT NOT NULL,
  summary TEXT NOT NULL,
  weight REAL NOT NULL,
  value REAL,
  fleet_normal REAL,
  unit TEXT NOT NULL,
  PRIMARY KEY (diagnosis_id, rank, seq)
);
CREATE TABLE changes (
  id INTEGER PRIMARY KEY,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  recorded_at REAL NOT NULL,
  entity TEXT NOT NULL,
  variable TEXT NOT NULL,
  from_value TEXT NOT NULL,
  to_value TEXT NOT NULL,
  why TEXT NOT NULL,
  forced_note TEXT NOT NULL,
  verified_at REAL,
  verdict TEXT CHECK (verdict IN ('improved', 'regressed', 'no effect')),
  verify_source TEXT NOT NULL DEFAULT '',
  rolled_back_at REAL
);
CREATE INDEX changes_by_incident ON changes(incident_id, id);
CREATE TABLE change_figures (
  change_id INTEGER NOT NULL REFERENCES changes(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  label TEXT NOT NULL,
  unit TEXT NOT NULL,
  before REAL,
  after REAL,
  lower_is_better INTEGER NOT NULL,
  PRIMARY KEY (change_id, seq)
);
)sql",
    // 2: perftest baselines, per pair, device and test.
    R"sql(
CREATE TABLE baselines (
  id INTEGER PRIMARY KEY,
  client TEXT NOT NULL,
  server TEXT NOT NULL,
  device TEXT NOT NULL,
  test TEXT NOT NULL,
  msg_bytes INTEGER,
  bw_gbps REAL,
  lat_us REAL,
  measured_at REAL NOT NULL,
  source TEXT NOT NULL
);
CREATE INDEX baselines_by_key ON baselines(client, server, device, test, measured_at);
)sql",
    // 3: sweeps (docs/sweep.md) and their runs, which are the incident's perftest and
    // nccl-tests runs: sweep_runs carries the incident so they are queried without the sweep.
    R"sql(
CREATE TABLE sweeps (
  id INTEGER PRIMARY KEY,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  created_at REAL NOT NULL,
  hosts_spec TEXT NOT NULL,
  verdict TEXT NOT NULL,
  summary TEXT NOT NULL,
  slow_entities TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX sweeps_by_incident ON sweeps(incident_id, created_at);
CREATE TABLE sweep_runs (
  sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  round INTEGER NOT NULL,
  test TEXT NOT NULL,
  client TEXT NOT NULL,
  server TEXT NOT NULL,
  device TEXT NOT NULL,
  server_device TEXT NOT NULL,
  hosts TEXT NOT NULL,
  gbps REAL,
  lat_us REAL,
  busbw_gbyte_s REAL,
  expected_gbps REAL NOT NULL,
  expected_from TEXT NOT NULL,
  result TEXT NOT NULL,
  detail TEXT NOT NULL,
  seconds REAL NOT NULL,
  measured_at REAL NOT NULL,
  PRIMARY KEY (sweep_id, seq)
);
CREATE INDEX sweep_runs_by_incident ON sweep_runs(incident_id, client, server, device, test);
)sql",
    // 4: the fabric map of a diagnosis (report/map_json.h, "netdoctor-map"), kept so an
    // incident exported later draws the fabric as it was diagnosed.
    R"sql(
CREATE TABLE diagnosis_maps (
  diagnosis_id INTEGER PRIMARY KEY REFERENCES diagnoses(id) ON DELETE CASCADE,
  json TEXT NOT NULL
);
)sql",
    // 5: when each cause began, for captures of three samples or more (engine/onset.h).
    R"sql(
ALTER TABLE diagnosis_causes ADD COLUMN onset TEXT NOT NULL DEFAULT '';
ALTER TABLE diagnosis_causes ADD COLUMN began_from REAL;
ALTER TABLE diagnosis_causes ADD COLUMN began_to REAL;
ALTER TABLE diagnosis_causes ADD COLUMN began_in_capture INTEGER NOT NULL DEFAULT 0;
)sql",
};

}  // namespace

int latest_schema_version() {
  return static_cast<int>(k_migrations.size());
}

Error newer_schema_error(int found, const std::string& path) {
  return make_error(ErrorCode::Unsupported,
                    fmt::format("the database has schema version {}, newer than this netdoctor "
                                "understands (up to {}); use a newer netdoctor or another --db",
                                found, latest_schema_version()),
                    path);
}

Status migrate(Database& db, int target) {
  ND_TRY_ASSIGN(int current, db.user_version());
  if (current > latest_schema_version()) {
    return newer_schema_error(current, db.path());
  }
  for (int next = current + 1; next <= target && next <= latest_schema_version(); ++next) {
    auto body = [&]() -> Status {
      ND_TRY_ASSIGN(int now, db.user_version());
      if (now >= next) {
        return {};  // another process got here first
      }
      ND_TRY(db.exec(k_migrations[static_cast<std::size_t>(next - 1)]));
      return db.exec(fmt::format("PRAGMA user_version = {}", next));
    };
    ND_TRY(db.write(body));
  }
  return {};
}

}  // namespace netdoctor::store
