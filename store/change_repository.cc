#include "store/change_repository.h"

#include <fmt/format.h>

#include "store/database.h"
#include "store/incident_repository.h"
#include "store/time_format.h"

namespace netdoctor::store {
namespace {

constexpr const char* k_change_columns =
    "id, incident_id, recorded_at, entity, variable, from_value, to_value, why, forced_note, "
    "verified_at, verdict, verify_source, rolled_back_at";

Change read_change(const Statement& row) {
  Change change;
  change.id = row.int64(0);
  change.incident_id = row.int64(1);
  change.recorded_at = row.real(2);
  change.entity = row.text(3);
  change.variable = row.text(4);
  change.from = row.text(5);
  change.to = row.text(6);
  change.why = row.text(7);
  change.forced_note = row.text(8);
  change.verified_at = row.optional_real(9);
  change.verdict = parse_change_verdict(row.text(10));
  change.verify_source = row.text(11);
  change.rolled_back_at = row.optional_real(12);
  return change;
}

Error unknown_change(std::int64_t id) {
  return make_error(ErrorCode::NotFound,
                    fmt::format("no change {} (see 'netdoctor change list')", id));
}

}  // namespace

const char* to_string(ChangeVerdict verdict) {
  switch (verdict) {
    case ChangeVerdict::Improved:
      return "improved";
    case ChangeVerdict::Regressed:
      return "regressed";
    case ChangeVerdict::NoEffect:
      return "no effect";
  }
  return "no effect";
}

std::optional<ChangeVerdict> parse_change_verdict(const std::string& text) {
  for (auto verdict :
       {ChangeVerdict::Improved, ChangeVerdict::Regressed, ChangeVerdict::NoEffect}) {
    if (text == to_string(verdict)) {
      return verdict;
    }
  }
  return std::nullopt;
}

std::string describe(const Change& change) {
  return fmt::format("#{} {} {} {} -> {}", change.id, change.entity, change.variable, change.from,
                     change.to);
}

Result<Change> ChangeRepository::record(const NewChange& change) {
  Change stored;
  auto body = [&]() -> Status {
    IncidentRepository incidents(m_db);
    ND_TRY_ASSIGN(Incident incident, incidents.get(change.incident_id));
    if (incident.closed()) {
      return make_error(ErrorCode::Refused,
                        fmt::format("incident {} is closed; open a new one with 'netdoctor "
                                    "diagnose' to record further changes",
                                    incident.id));
    }
    ND_TRY_ASSIGN(std::optional<Change> open, open_change(change.incident_id));
    std::string forced_note;
    if (open) {
      if (!change.force) {
        return make_error(
            ErrorCode::Refused,
            fmt::format("change {} (recorded {}) is still open: neither verified nor rolled "
                        "back. Two simultaneous changes make the outcome unreadable, so change "
                        "one variable at a time: verify it ('netdoctor change verify {} --bundle "
                        "NEW_CAPTURE') or roll it back ('netdoctor change rollback {}') first, or "
                        "pass --force to record this one anyway (the record will say so)",
                        describe(*open), iso8601_utc(open->recorded_at), open->id, open->id));
      }
      forced_note =
          fmt::format("recorded with --force while change {} was still open", describe(*open));
    }
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("INSERT INTO changes (incident_id, recorded_at, entity, variable, "
                               "from_value, to_value, why, forced_note) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    stmt.bind(1, change.incident_id).bind(2, change.at).bind(3, change.entity);
    stmt.bind(4, change.variable).bind(5, change.from).bind(6, change.to);
    stmt.bind(7, change.why).bind(8, forced_note);
    ND_TRY(stmt.run());
    ND_TRY_ASSIGN(stored, get(m_db.last_insert_id()));
    return {};
  };
  ND_TRY(m_db.write(body));
  return stored;
}

Result<std::optional<Change>> ChangeRepository::open_change(std::int64_t incident_id) {
  ND_TRY_ASSIGN(Statement stmt,
                m_db.prepare(fmt::format("SELECT {} FROM changes WHERE incident_id = ? AND "
                                         "verified_at IS NULL AND rolled_back_at IS NULL "
                                         "ORDER BY id LIMIT 1",
                                         k_change_columns)));
  stmt.bind(1, incident_id);
  ND_TRY_ASSIGN(bool row, stmt.step());
  if (!row) {
    return std::optional<Change>();
  }
  return std::optional<Change>(read_change(stmt));
}

Status ChangeRepository::load_figures(Change& change) {
  ND_TRY_ASSIGN(Statement stmt,
                m_db.prepare("SELECT label, unit, before, after, lower_is_better FROM "
                             "change_figures WHERE change_id = ? ORDER BY seq"));
  stmt.bind(1, change.id);
  change.figures.clear();
  while (true) {
    ND_TRY_ASSIGN(bool row, stmt.step());
    if (!row) {
      return {};
    }
    change.figures.push_back({stmt.text(0), stmt.text(1), stmt.optional_real(2),
                              stmt.optional_real(3), stmt.int64(4) != 0});
  }
}

Result<Change> ChangeRepository::get(std::int64_t id) {
  Change change;
  auto body = [&]() -> Status {
    ND_TRY_ASSIGN(Statement stmt, m_db.prepare(fmt::format("SELECT {} FROM changes WHERE id = ?",
                                                           k_change_columns)));
    stmt.bind(1, id);
    ND_TRY_ASSIGN(bool row, stmt.step());
    if (!row) {
      return unknown_change(id);
    }
    change = read_change(stmt);
    return load_figures(change);
  };
  ND_TRY(m_db.read(body));
  return change;
}

Result<std::vector<Change>> ChangeRepository::list(std::optional<std::int64_t> incident_id) {
  std::vector<Change> changes;
  auto body = [&]() -> Status {
    std::string sql = fmt::format("SELECT {} FROM changes {} ORDER BY id", k_change_columns,
                                  incident_id ? "WHERE incident_id = ?" : "");
    ND_TRY_ASSIGN(Statement stmt, m_db.prepare(sql));
    if (incident_id) {
      stmt.bind(1, *incident_id);
    }
    while (true) {
      ND_TRY_ASSIGN(bool row, stmt.step());
      if (!row) {
        break;
      }
      changes.push_back(read_change(stmt));
    }
    for (Change& change : changes) {
      ND_TRY(load_figures(change));
    }
    return {};
  };
  ND_TRY(m_db.read(body));
  return changes;
}

Status ChangeRepository::verify(const ChangeVerification& verification) {
  return m_db.write([&]() -> Status {
    ND_TRY_ASSIGN(Change change, get(verification.change_id));
    if (change.rolled_back_at) {
      return make_error(ErrorCode::Refused,
                        fmt::format("change {} was rolled back at {}; there is nothing to verify",
                                    describe(change), iso8601_utc(*change.rolled_back_at)));
    }
    ND_TRY_ASSIGN(Statement update,
                  m_db.prepare("UPDATE changes SET verified_at = ?, verdict = ?, verify_source = ? "
                               "WHERE id = ?"));
    update.bind(1, verification.at).bind(2, std::string(to_string(verification.verdict)));
    update.bind(3, verification.source).bind(4, change.id);
    ND_TRY(update.run());
    ND_TRY_ASSIGN(Statement clear, m_db.prepare("DELETE FROM change_figures WHERE change_id = ?"));
    clear.bind(1, change.id);
    ND_TRY(clear.run());
    std::int64_t seq = 0;
    for (const Figure& figure : verification.figures) {
      ND_TRY_ASSIGN(Statement insert,
                    m_db.prepare("INSERT INTO change_figures (change_id, seq, label, unit, before, "
                                 "after, lower_is_better) VALUES (?, ?, ?, ?, ?, ?, ?)"));
      insert.bind(1, change.id).bind(2, seq++).bind(3, figure.label).bind(4, figure.unit);
      insert.bind(5, figure.before).bind(6, figure.after);
      insert.bind(7, static_cast<std::int64_t>(figure.lower_is_better ? 1 : 0));
      ND_TRY(insert.run());
    }
    return {};
  });
}

Result<Change> ChangeRepository::rollback(std::int64_t id, double at) {
  Change change;
  auto body = [&]() -> Status {
    ND_TRY_ASSIGN(change, get(id));
    if (change.rolled_back_at) {
      return make_error(ErrorCode::Refused,
                        fmt::format("change {} was already rolled back at {}", describe(change),
                                    iso8601_utc(*change.rolled_back_at)));
    }
    ND_TRY_ASSIGN(Statement stmt,
                  m_db.prepare("UPDATE changes SET rolled_back_at = ? WHERE id = ?"));
    stmt.bind(1, at).bind(2, id);
    ND_TRY(stmt.run());
    change.rolled_back_at = at;
    return {};
  };
  ND_TRY(m_db.write(body));
  return change;
}

}  // namespace netdoctor::store
