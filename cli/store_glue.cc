#include "cli/store_glue.h"

#include <fmt/format.h>

#include <filesystem>
#include <future>
#include <ostream>
#include <system_error>
#include <utility>

#include "base/clock.h"
#include "base/sample_source.h"
#include "base/strings.h"
#include "cli/settings.h"
#include "engine/render.h"
#include "model/loader.h"
#include "store/map_repository.h"

namespace netdoctor::cli {

double now_unix() {
  return SystemClock().now_unix();
}

DbPathSources DbPathSources::from_environment(std::string flag, std::string configured) {
  return DbPathSources{std::move(flag), env_or_empty("NETDOCTOR_DB"), std::move(configured),
                       env_or_empty("XDG_DATA_HOME"), env_or_empty("HOME")};
}

Result<std::string> resolve_db_path(const DbPathSources& sources) {
  if (!sources.flag.empty()) {
    return sources.flag;
  }
  // Environment over configuration files, as ccache layers them: NETDOCTOR_DB still wins.
  if (!sources.env_db.empty()) {
    return sources.env_db;
  }
  if (!sources.configured.empty()) {
    return sources.configured;
  }
  // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
  if (!sources.xdg_data.empty() && sources.xdg_data.front() == '/') {
    return sources.xdg_data + "/netdoctor/netdoctor.db";
  }
  if (!sources.home.empty()) {
    return sources.home + "/.local/share/netdoctor/netdoctor.db";
  }
  return make_error(ErrorCode::InvalidArgument,
                    "no place for the database: pass --db PATH or set NETDOCTOR_DB "
                    "(neither XDG_DATA_HOME nor HOME is set)");
}

Result<store::Database> open_store(const std::string& flag, const Settings& settings) {
  ND_TRY_ASSIGN(std::string path, resolve_db_path(DbPathSources::from_environment(
                                      flag, settings.text("store.database"))));
  if (path != ":memory:") {
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty() && !std::filesystem::exists(parent, ec)) {
      std::filesystem::create_directories(parent, ec);
      if (ec) {
        return make_error(ErrorCode::Io, "cannot create the database directory: " + ec.message(),
                          parent.string());
      }
    }
  }
  return store::Database::open(path);
}

void add_db_option(CLI::App& command, std::string& target) {
  command.add_option("--db", target,
                     "the netdoctor database (default: $NETDOCTOR_DB, else "
                     "$XDG_DATA_HOME/netdoctor/netdoctor.db, else "
                     "~/.local/share/netdoctor/netdoctor.db)");
}

void fail(Context& context, const Error& error) {
  context.err << "netdoctor: " << error.describe() << "\n";
  context.exit_code = ExitCode::Failure;
}

store::DiagnosisRecord to_record(const engine::Diagnosis& diagnosis, std::string scope,
                                 std::string json_text, double at) {
  store::DiagnosisRecord record;
  record.created_at = at;
  record.symptom = diagnosis.symptom;
  record.scope = std::move(scope);
  record.verdict = engine::to_string(diagnosis.verdict);
  record.json = std::move(json_text);
  for (const engine::RankedCause& cause : diagnosis.causes) {
    store::CauseRow row;
    row.id = cause.id;
    row.title = cause.title;
    row.confidence = cause.confidence;
    row.entities = cause.entities;
    row.remediation = cause.remediation;
    if (cause.onset) {
      row.onset = engine::describe_onset(*cause.onset);
      row.began_from = cause.onset->from;
      row.began_to = cause.onset->to;
      row.began_in_capture = !cause.onset->before_capture();
    }
    for (const engine::EvidenceItem& item : cause.evidence) {
      row.evidence.push_back({item.probe, item.signal, item.summary, item.weight, item.value,
                              item.fleet_normal, item.unit});
    }
    record.causes.push_back(std::move(row));
  }
  for (const engine::ProbeRun& probe : diagnosis.probes) {
    record.probes.push_back({probe.id, probe.status, probe.reason, probe.duration_ms});
  }
  return record;
}

Result<std::int64_t> record_diagnosis(store::Database& db, std::optional<std::int64_t> incident,
                                      const engine::Diagnosis& diagnosis, std::string scope,
                                      std::string json_text,
                                      const std::optional<std::string>& map_json) {
  store::DiagnosisRecord record =
      to_record(diagnosis, std::move(scope), std::move(json_text), now_unix());
  record.incident_id = incident.value_or(0);
  std::int64_t incident_id = 0;
  ND_TRY(db.write([&]() -> Status {
    store::IncidentRepository incidents(db);
    ND_TRY_ASSIGN(store::DiagnosisRecord stored, incidents.add_diagnosis(std::move(record)));
    if (map_json) {
      ND_TRY(store::MapRepository(db).save(stored.id, *map_json));
    }
    incident_id = stored.incident_id;
    return {};
  }));
  return incident_id;
}

std::optional<store::PerfRun> to_perf_run(const model::PerftestResult& result, double at,
                                          const std::string& source) {
  if (!result.ok || result.device.empty()) {
    return std::nullopt;
  }
  store::PerfRun run;
  run.client = result.client;
  run.server = result.server;
  run.device = result.device;
  run.test = result.test;
  run.msg_bytes = result.msg_bytes;
  run.bw_gbps = result.bw_avg_gbps;
  // The typical (median) latency is what perftest reports as the headline; avg as fallback.
  run.lat_us = result.lat_typical_us ? result.lat_typical_us : result.lat_avg_us;
  if (run.bw_gbps) {
    run.lat_us.reset();  // a bandwidth test's latency columns are not a latency baseline
  }
  if (!run.bw_gbps && !run.lat_us) {
    return std::nullopt;
  }
  run.measured_at = at;
  run.source = source;
  return run;
}

std::vector<store::PerfRun> perf_runs(const model::Fabric& fabric, bool baseline, double at,
                                      const std::string& source) {
  std::vector<store::PerfRun> runs;
  for (const model::PerftestResult& result : fabric.perftests) {
    if (result.baseline != baseline) {
      continue;
    }
    if (auto run = to_perf_run(result, at, source)) {
      runs.push_back(std::move(*run));
    }
  }
  return runs;
}

}  // namespace netdoctor::cli

namespace netdoctor::cli {

Result<std::vector<CapturePair>> parse_pairs(const std::string& text) {
  std::vector<CapturePair> pairs;
  int number = 0;
  for (std::string_view line : split_lines(text)) {
    ++number;
    if (auto hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    auto fields = split_ws(line);
    if (fields.empty()) {
      continue;
    }
    if (fields.size() < 2 || fields.size() > 3) {
      return make_error(
          ErrorCode::InvalidArgument,
          fmt::format("line {}: expected 'client server [device]', got '{}'", number, trim(line)));
    }
    pairs.push_back({std::string(fields[0]), std::string(fields[1]),
                     fields.size() == 3 ? std::string(fields[2]) : std::string()});
  }
  return pairs;
}

namespace {

std::vector<std::string> on_host(const CaptureOptions& options, const std::string& host,
                                 const std::vector<std::string>& argv) {
  std::vector<std::string> full;
  if (host != "localhost" && host != "-" && !options.remote.empty()) {
    full = options.remote;
    full.push_back(host);
  }
  full.insert(full.end(), argv.begin(), argv.end());
  return full;
}

std::string failure_of(const Result<CommandOutput>& output) {
  if (!output.ok()) {
    return output.error().describe();
  }
  if (output->timed_out) {
    return "timed out";
  }
  if (output->exit_code != 0) {
    std::string err(trim(output->err));
    return fmt::format("exit status {}{}", output->exit_code, err.empty() ? "" : ": " + err);
  }
  return {};
}

}  // namespace

std::vector<store::PerfRun> capture_baselines(CommandRunner& runner, Clock& clock,
                                              const std::vector<CapturePair>& pairs,
                                              const CaptureOptions& options,
                                              std::ostream& progress) {
  std::vector<store::PerfRun> runs;
  std::size_t total = pairs.size() * options.tests.size();
  std::size_t step = 0;
  CommandOptions command_options;
  command_options.timeout = options.timeout;
  for (const CapturePair& pair : pairs) {
    std::string device = pair.device.empty() ? options.device : pair.device;
    for (const std::string& test : options.tests) {
      ++step;
      std::vector<std::string> server_args = {test, "-d", device};
      if (ends_with(test, "_bw")) {
        server_args.push_back("--report_gbits");
      }
      std::vector<std::string> client_args = server_args;
      client_args.push_back(pair.server);
      std::string label = fmt::format("[{}/{}] {} -> {} {} {}", step, total, pair.client,
                                      pair.server, device, test);
      progress << label << ": starting server on " << pair.server << "\n";
      // The server waits for one client, so it runs alongside; its timeout bounds the wait.
      auto server = std::async(std::launch::async, [&] {
        return runner.run(on_host(options, pair.server, server_args), command_options);
      });
      clock.sleep_for(options.server_head_start);
      auto client = runner.run(on_host(options, pair.client, client_args), command_options);
      auto server_output = server.get();
      if (std::string why = failure_of(client); !why.empty()) {
        std::string server_why = failure_of(server_output);
        progress << label << ": failed: client " << why
                 << (server_why.empty() ? "" : "; server " + server_why) << "\n";
        continue;
      }
      PerftestFile file{pair.client, pair.server, mangle_command(client_args),
                        true,        client->out, "live: " + join(client_args, " ")};
      std::vector<model::Problem> problems;
      model::PerftestResult result = model::load_perftest(file, problems);
      result.device = result.device.empty() ? device : result.device;
      auto run = to_perf_run(result, clock.now_unix(), "live");
      if (!run) {
        progress << label << ": no result: "
                 << (result.error.empty() ? "output not understood" : result.error) << "\n";
        continue;
      }
      progress << label << ": " << store::figure_text(*run) << "\n";
      runs.push_back(std::move(*run));
    }
  }
  return runs;
}

}  // namespace netdoctor::cli
