#include "store/sweep_repository.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "base/json_text.h"
#include "store/database.h"
#include "store/incident_repository.h"

namespace netdoctor::store {
namespace {

constexpr std::array<std::string_view, 3> k_verdicts = {"slow-found", "all-healthy",
                                                        "inconclusive"};
constexpr std::array<std::string_view, 3> k_results = {"ok", "slow", "failed"};

bool one_of(const auto& vocabulary, const std::string& word) {
  return std::find(vocabulary.begin(), vocabulary.end(), word) != vocabulary.end();
}

Status check_vocabulary(const SweepRecord& record) {
  if (!one_of(k_verdicts, record.verdict)) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("sweep verdict '{}' is not slow-found, all-healthy or "
                                  "inconclusive",
                                  record.verdict));
  }
  for (std::size_t i = 0; i < record.runs.size(); ++i) {
    if (!one_of(k_results, record.runs[i].result)) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("sweep run {} has result '{}', not ok, slow or failed", i + 1,
                                    record.runs[i].result));
    }
  }
  return {};
}

// Lists of names are kept as JSON arrays in one column; anything unreadable reads as empty.
std::vector<std::string> names_from(const std::string& text) {
  std::vector<std::string> names;
  const auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  for (const auto& item : parsed.is_array() ? parsed : nlohmann::json::array()) {
    if (item.is_string()) {
      names.push_back(item.get<std::string>());
    }
  }
  return names;
}

constexpr const char* k_insert_run =
    "INSERT INTO sweep_runs (sweep_id, seq, incident_id, round, test, client, server, device, "
    "server_device, hosts, gbps, lat_us, busbw_gbyte_s, expected_gbps, expected_from, result, "
    "detail, seconds, measured_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
    "?)";

constexpr const char* k_select_runs =
    "SELECT sweep_id, round, test, client, server, device, server_device, hosts, gbps, lat_us, "
    "busbw_gbyte_s, expected_gbps, expected_from, result, detail, seconds, measured_at "
    "FROM sweep_runs WHERE incident_id = ? ORDER BY sweep_id, seq";

void bind_run(Statement& stmt, const SweepRun& run) {
  stmt.bind(4, static_cast<std::int64_t>(run.round)).bind(5, run.test).bind(6, run.client);
  stmt.bind(7, run.server).bind(8, run.device).bind(9, run.server_device);
  stmt.bind(10, json_text(nlohmann::json(run.hosts)));
  stmt.bind(11, run.gbps).bind(12, run.lat_us).bind(13, run.busbw_gbyte_s);
  stmt.bind(14, run.expected_gbps).bind(15, run.expected_from).bind(16, run.result);
  stmt.bind(17, run.detail).bind(18, run.seconds).bind(19, run.measured_at);
}

SweepRun read_run(const Statement& row) {
  SweepRun run;
  run.round = static_cast<int>(row.int64(1));
  run.test = row.text(2);
  run.client = row.text(3);
  run.server = row.text(4);
  run.device = row.text(5);
  run.server_device = row.text(6);
  run.hosts = names_from(row.text(7));
  run.gbps = row.optional_real(8);
  run.lat_us = row.optional_real(9);
  run.busbw_gbyte_s = row.optional_real(10);
  run.expected_gbps = row.real(11);
  run.expected_from = row.text(12);
  run.result = row.text(13);
  run.detail = row.text(14);
  run.seconds = row.real(15);
  run.measured_at = row.real(16);
  return run;
}

}  // namespace

SweepRepository::SweepRepository(Database& db) : m_db(db) {}

Result<std::int64_t> SweepRepository::add(const SweepRecord& record) {
  ND_TRY(check_vocabulary(record));
  std::int64_t id = 0;
  auto body = [&]() -> Status {
    IncidentRepository incidents(m_db);
    ND_TRY_ASSIGN(Incident incident, incidents.get(record.incident_id));
    (void)incident;
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("INSERT INTO sweeps (incident_id, created_at, hosts_spec, verdict, "
                               "summary, slow_entities, json) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    stmt.bind(1, record.incident_id).bind(2, record.created_at).bind(3, record.hosts_spec);
    stmt.bind(4, record.verdict).bind(5, record.summary);
    stmt.bind(6, json_text(nlohmann::json(record.slow_entities))).bind(7, record.json);
    ND_TRY(stmt.run());
    id = m_db.last_insert_id();
    std::int64_t seq = 0;
    for (const SweepRun& run : record.runs) {
      ND_TRY_ASSIGN(Statement insert, m_db.prepare(k_insert_run));
      insert.bind(1, id).bind(2, seq++).bind(3, record.incident_id);
      bind_run(insert, run);
      ND_TRY(insert.run());
    }
    return {};
  };
  ND_TRY(m_db.write(body));
  return id;
}

Result<std::vector<SweepRecord>> SweepRepository::for_incident(std::int64_t incident_id) {
  std::vector<SweepRecord> records;
  auto body = [&]() -> Status {
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("SELECT id, created_at, hosts_spec, verdict, summary, "
                               "slow_entities, json FROM sweeps WHERE incident_id = ? "
                               "ORDER BY created_at, id"));
    stmt.bind(1, incident_id);
    std::map<std::int64_t, std::size_t> index_of;  // sweep id -> position in records
    while (true) {
      ND_TRY_ASSIGN(bool row, stmt.step());
      if (!row) {
        break;
      }
      SweepRecord& record = records.emplace_back();
      record.id = stmt.int64(0);
      record.incident_id = incident_id;
      record.created_at = stmt.real(1);
      record.hosts_spec = stmt.text(2);
      record.verdict = stmt.text(3);
      record.summary = stmt.text(4);
      record.slow_entities = names_from(stmt.text(5));
      record.json = stmt.text(6);
      index_of[record.id] = records.size() - 1;
    }
    // One query for every run of the incident (a large sweep has thousands), not one per sweep.
    ND_TRY_ASSIGN(Statement runs, m_db.prepare(k_select_runs));
    runs.bind(1, incident_id);
    while (true) {
      ND_TRY_ASSIGN(bool row, runs.step());
      if (!row) {
        return {};
      }
      auto at = index_of.find(runs.int64(0));
      if (at != index_of.end()) {
        records[at->second].runs.push_back(read_run(runs));
      }
    }
  };
  ND_TRY(m_db.read(body));
  return records;
}

}  // namespace netdoctor::store
