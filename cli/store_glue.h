// The glue between the engine/model types and the SQLite store (store/, which only knows
// plain structs): where the database lives, a diagnosis as the store's record (recorded in an
// incident, or handed to store::verify_change), and perftest results as baseline runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/result.h"
#include "cli/command.h"
#include "engine/diagnosis.h"
#include "model/fabric.h"
#include "store/baseline_repository.h"
#include "store/change_repository.h"
#include "store/database.h"
#include "store/incident_repository.h"

namespace netdoctor::cli {

struct DbPathSources {
  std::string flag;        // --db
  std::string env_db;      // NETDOCTOR_DB
  std::string configured;  // the store.database setting
  std::string xdg_data;    // XDG_DATA_HOME
  std::string home;        // HOME
  // `flag` and `configured`, with each variable read from the environment once.
  static DbPathSources from_environment(std::string flag, std::string configured);
};

// --db, else NETDOCTOR_DB, else the configured store.database, else
// $XDG_DATA_HOME/netdoctor/netdoctor.db, else ~/.local/share/netdoctor/netdoctor.db.
// InvalidArgument when none of them is set.
Result<std::string> resolve_db_path(const DbPathSources& sources);

// Resolves the path, creates its directory when needed, opens and migrates the database.
// The database of --db `flag`, else $NETDOCTOR_DB, else the configured store.database, else
// the XDG default.
Result<store::Database> open_store(const std::string& flag, const Settings& settings);

// Adds `--db PATH` to a subcommand.
void add_db_option(CLI::App& command, std::string& target);

// Prints "netdoctor: <what went wrong>" and sets the failure exit code.
void fail(Context& context, const Error& error);

// The queryable rows of a diagnosis, plus its rendered JSON.
store::DiagnosisRecord to_record(const engine::Diagnosis& diagnosis, std::string scope,
                                 std::string json_text, double at);

// Records `diagnosis` in `incident`, or in a new incident when none is given, with its fabric
// map's JSON when there is one (in the same transaction). Returns the incident id. NotFound for
// an unknown incident.
Result<std::int64_t> record_diagnosis(store::Database& db, std::optional<std::int64_t> incident,
                                      const engine::Diagnosis& diagnosis, std::string scope,
                                      std::string json_text,
                                      const std::optional<std::string>& map_json = std::nullopt);

// A baseline run from one perftest result; nullopt when it has no usable figure.
std::optional<store::PerfRun> to_perf_run(const model::PerftestResult& result, double at,
                                          const std::string& source);
// The fabric's perftest results of one kind (baseline or current) as runs.
std::vector<store::PerfRun> perf_runs(const model::Fabric& fabric, bool baseline, double at,
                                      const std::string& source);

double now_unix();

// One line of a `baseline capture --pairs` file: "client server [device]"; '#' comments.
struct CapturePair {
  std::string client;
  std::string server;
  std::string device;  // empty: the --device default
};
// InvalidArgument naming the line when one is malformed.
Result<std::vector<CapturePair>> parse_pairs(const std::string& text);

struct CaptureOptions {
  std::string device;  // for pairs that name none
  std::chrono::milliseconds timeout{60'000};
  std::chrono::milliseconds server_head_start{1'000};                // lets the server listen first
  std::vector<std::string> remote = {"ssh", "-o", "BatchMode=yes"};  // + host; none for localhost
  std::vector<std::string> tests = {"ib_write_bw", "ib_read_lat"};
};

// Runs each test for each pair: the server side first, the client after the head start,
// both with the timeout; parses the client's output. Progress lines go to `progress`. Runs
// that fail are reported there and left out; the rest are returned, measured at clock time.
std::vector<store::PerfRun> capture_baselines(CommandRunner& runner, Clock& clock,
                                              const std::vector<CapturePair>& pairs,
                                              const CaptureOptions& options,
                                              std::ostream& progress);

}  // namespace netdoctor::cli
