#include "store/baseline_repository.h"

#include <fmt/format.h>

#include "store/database.h"

namespace netdoctor::store {
namespace {

constexpr const char* k_select =
    "SELECT id, client, server, device, test, msg_bytes, bw_gbps, lat_us, measured_at, source "
    "FROM baselines ";

PerfRun read_run(const Statement& row) {
  PerfRun run;
  run.id = row.int64(0);
  run.client = row.text(1);
  run.server = row.text(2);
  run.device = row.text(3);
  run.test = row.text(4);
  if (auto bytes = row.optional_int64(5)) {
    run.msg_bytes = static_cast<std::uint64_t>(*bytes);
  }
  run.bw_gbps = row.optional_real(6);
  run.lat_us = row.optional_real(7);
  run.measured_at = row.real(8);
  run.source = row.text(9);
  return run;
}

std::optional<std::int64_t> msg_bytes_param(const PerfRun& run) {
  if (!run.msg_bytes) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*run.msg_bytes);
}

}  // namespace

std::string figure_text(const PerfRun& run) {
  if (run.bw_gbps) {
    return fmt::format("{:.2f} Gb/s", *run.bw_gbps);
  }
  return run.lat_us ? fmt::format("{:.2f} us", *run.lat_us) : "-";
}

std::optional<std::pair<std::string, std::string>> parse_pair(const std::string& text) {
  auto split_at = text.find("__");
  if (split_at == std::string::npos || split_at == 0 || split_at + 2 >= text.size()) {
    return std::nullopt;
  }
  return std::make_pair(text.substr(0, split_at), text.substr(split_at + 2));
}

Result<std::vector<std::int64_t>> BaselineRepository::add(const std::vector<PerfRun>& runs) {
  std::vector<std::int64_t> ids;
  auto body = [&]() -> Status {
    ids.clear();
    for (const PerfRun& run : runs) {
      ND_TRY_ASSIGN(Statement stmt,
                    m_db.prepare("INSERT INTO baselines (client, server, device, test, msg_bytes, "
                                 "bw_gbps, lat_us, measured_at, source) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
      stmt.bind(1, run.client).bind(2, run.server).bind(3, run.device).bind(4, run.test);
      stmt.bind(5, msg_bytes_param(run)).bind(6, run.bw_gbps).bind(7, run.lat_us);
      stmt.bind(8, run.measured_at).bind(9, run.source);
      ND_TRY(stmt.run());
      ids.push_back(m_db.last_insert_id());
    }
    return {};
  };
  ND_TRY(m_db.write(body));
  return ids;
}

Result<std::optional<PerfRun>> BaselineRepository::latest_for(const PerfRun& current) {
  ND_TRY_ASSIGN(Statement stmt,
                m_db.prepare(std::string(k_select) +
                             "WHERE client = ? AND server = ? AND device = ? AND test = ? AND "
                             "msg_bytes IS ? ORDER BY measured_at DESC, id DESC LIMIT 1"));
  stmt.bind(1, current.client).bind(2, current.server).bind(3, current.device);
  stmt.bind(4, current.test).bind(5, msg_bytes_param(current));
  ND_TRY_ASSIGN(bool row, stmt.step());
  if (!row) {
    return std::optional<PerfRun>();
  }
  return std::optional<PerfRun>(read_run(stmt));
}

Result<std::vector<PerfRun>> BaselineRepository::query(const std::string& where,
                                                       const std::vector<std::string>& params) {
  ND_TRY_ASSIGN(Statement stmt,
                m_db.prepare(std::string(k_select) + where +
                             " ORDER BY client, server, device, test, measured_at, id"));
  int index = 1;
  for (const std::string& param : params) {
    stmt.bind(index++, param);
  }
  std::vector<PerfRun> runs;
  while (true) {
    ND_TRY_ASSIGN(bool row, stmt.step());
    if (!row) {
      return runs;
    }
    runs.push_back(read_run(stmt));
  }
}

Result<std::vector<PerfRun>> BaselineRepository::list() {
  return query("", {});
}

Result<std::vector<PerfRun>> BaselineRepository::for_pair(const std::string& client,
                                                          const std::string& server) {
  return query("WHERE client = ? AND server = ?", {client, server});
}

}  // namespace netdoctor::store
