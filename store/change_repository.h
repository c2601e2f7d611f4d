// ChangeRepository: the one-variable-at-a-time change log of an incident. A change is open
// until it is verified or rolled back; while one is open, recording another is refused
// (two simultaneous changes make the outcome unreadable) unless forced, and the forced
// record says which change it overrode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::store {

class Database;

enum class ChangeVerdict { Improved, Regressed, NoEffect };
const char* to_string(ChangeVerdict verdict);  // "improved", "regressed", "no effect"
std::optional<ChangeVerdict> parse_change_verdict(const std::string& text);

// One measured figure of the evidence that mattered, before and after a change.
struct Figure {
  std::string label;  // "pfc-pause/pause-storm nic:node07/mlx5_2"
  std::string unit;
  std::optional<double> before;
  std::optional<double> after;  // empty: the finding no longer fires
  bool lower_is_better = true;
};

struct NewChange {
  std::int64_t incident_id = 0;
  std::string entity;
  std::string variable;
  std::string from;
  std::string to;
  std::string why;
  double at = 0.0;
  bool force = false;  // record even while another change is open
};

struct Change {
  std::int64_t id = 0;
  std::int64_t incident_id = 0;
  double recorded_at = 0.0;
  std::string entity;
  std::string variable;
  std::string from;
  std::string to;
  std::string why;
  std::string forced_note;  // non-empty when recorded with --force over an open change
  std::optional<double> verified_at;
  std::optional<ChangeVerdict> verdict;
  std::string verify_source;  // the bundle the verification ran on
  std::vector<Figure> figures;
  std::optional<double> rolled_back_at;

  bool open() const { return !verified_at && !rolled_back_at; }
};

struct ChangeVerification {
  std::int64_t change_id = 0;
  double at = 0.0;
  ChangeVerdict verdict = ChangeVerdict::NoEffect;
  std::string source;
  std::vector<Figure> figures;
};

// "#3 nic:node07/mlx5_2 ecn_min_threshold 150KB -> 50KB"
std::string describe(const Change& change);

class ChangeRepository {
 public:
  explicit ChangeRepository(Database& db) : m_db(db) {}

  // Refused (naming the open change and why) while the incident has an open change and
  // `change.force` is false; NotFound for an unknown incident; Refused for a closed one.
  // The check and the insert are one transaction, so two processes cannot both pass it.
  Result<Change> record(const NewChange& change);
  Result<std::optional<Change>> open_change(std::int64_t incident_id);
  Result<Change> get(std::int64_t id);
  // All changes, or one incident's, oldest first.
  Result<std::vector<Change>> list(std::optional<std::int64_t> incident_id = std::nullopt);
  // Stores the verdict and figures (replacing an earlier verification). Refused for a change
  // that was rolled back.
  Status verify(const ChangeVerification& verification);
  // Refused when already rolled back. Returns the change as now stored.
  Result<Change> rollback(std::int64_t id, double at);

 private:
  Status load_figures(Change& change);

  Database& m_db;
};

}  // namespace netdoctor::store
