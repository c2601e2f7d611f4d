#include "cli/sweep_glue.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "base/strings.h"
#include "collect/fanout.h"
#include "remote/time_spec.h"
#include "store/baseline_repository.h"
#include "store/incident_repository.h"
#include "store/sweep_repository.h"

namespace netdoctor::cli {
namespace {

// "HOST[/DEV] LEAF" per line, '#' comments.
Result<std::map<std::string, std::string>> read_leaf_map(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::NotFound, "cannot read the leaf map", path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::map<std::string, std::string> out;
  int number = 0;
  for (std::string_view line : split_lines(text.str())) {
    ++number;
    line = line.substr(0, line.find('#'));
    const auto fields = split_ws(line);
    if (fields.empty()) {
      continue;
    }
    if (fields.size() != 2) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("line {}: expected 'HOST[/DEV] LEAF'", number), path);
    }
    out[std::string(fields[0])] = std::string(fields[1]);
  }
  return out;
}

std::vector<sweep::BaselineFigure> stored_baselines(store::Database& db) {
  std::vector<sweep::BaselineFigure> figures;
  store::BaselineRepository baselines(db);
  auto runs = baselines.list();
  if (!runs.ok()) {
    return figures;
  }
  for (const auto& run : *runs) {
    if (run.bw_gbps) {
      figures.push_back({run.client, run.server, run.device, run.test, *run.bw_gbps});
    }
  }
  return figures;
}

store::SweepRecord to_record(const sweep::SweepReport& report, const std::string& hosts_spec,
                             std::string json) {
  store::SweepRecord record;
  record.created_at = report.started_at;
  record.hosts_spec = hosts_spec;
  record.verdict = sweep::to_string(report.verdict);
  record.summary = report.summary;
  for (const auto& slow : report.slow) {
    record.slow_entities.push_back(slow.entity);
  }
  for (const auto& run : report.runs) {
    store::SweepRun row;
    row.round = run.round;
    row.test = run.test;
    row.client = run.client;
    row.server = run.server;
    row.device = run.device;
    row.server_device = run.server_device;
    row.hosts = run.hosts;
    row.gbps = run.gbps;
    row.lat_us = run.lat_us;
    row.busbw_gbyte_s = run.busbw_gbyte_s;
    row.expected_gbps = run.expected_gbps;
    row.expected_from = run.expected_from;
    row.result = sweep::to_string(run.result);
    row.detail = run.detail;
    row.seconds = run.seconds;
    row.measured_at = run.measured_at;
    record.runs.push_back(std::move(row));
  }
  record.json = std::move(json);
  return record;
}

}  // namespace

void add_sweep_flags(CLI::App& command, SweepFlags& flags, const std::string& prefix) {
  const auto flag = [&prefix](const char* name) { return "--" + prefix + name; };
  command.add_option(flag("device"), flags.device, "one RDMA device, or all (default)");
  command.add_option(flag("test"), flags.test, "perftest, nccl or both (default)")
      ->check(CLI::IsMember({"perftest", "nccl", "both"}));
  command.add_option(flag("budget"), flags.budget,
                     "start no test that would end past this (default 10m)");
  command
      .add_option(flag("per-leaf"), flags.per_leaf,
                  "concurrent tests touching one leaf (default 8)")
      ->check(CLI::Range(1, 1024));
  command
      .add_option(flag("parallel"), flags.parallel,
                  "launcher processes at once on this machine (default 256)")
      ->check(CLI::Range(2, 4096));
  command.add_option(flag("timeout"), flags.timeout_s, "seconds for each remote test (default 60)")
      ->check(CLI::Range(5, 3600));
  command
      .add_option(flag("perftest-seconds"), flags.perftest_seconds,
                  "ib_write_bw -D duration (default 5)")
      ->check(CLI::Range(1, 600));
  command.add_option(flag("gid-index"), flags.gid_index, "perftest -x GID index (RoCE)");
  command
      .add_option(flag("gpus-per-host"), flags.gpus_per_host,
                  "nccl-tests ranks per host (default 8)")
      ->check(CLI::Range(1, 64));
  command.add_option(flag("leaf-map"), flags.leaf_map,
                     "file of 'HOST[/DEV] LEAF' lines (InfiniBand, or hosts without lldpd)");
  command.add_flag(flag("force"), flags.force, "also test hosts that carry RDMA traffic right now");
}

Result<sweep::SweepOptions> sweep_options(const SweepFlags& flags, store::Database* db) {
  ND_TRY_ASSIGN(auto launcher, collect::parse_launcher(flags.via));
  ND_TRY_ASSIGN(auto tests, sweep::parse_tests(flags.test));
  const auto budget = remote::parse_duration(flags.budget);
  if (!budget) {
    return make_error(ErrorCode::InvalidArgument, "--budget is not a duration (600, 90s, 10m, 1h)",
                      flags.budget);
  }
  ND_TRY_ASSIGN(auto thresholds, sweep::load_thresholds());
  sweep::SweepOptions options;
  options.launcher = launcher;
  options.pdsh_rcmd = flags.pdsh_rcmd;
  options.device = flags.device;
  options.tests = tests;
  options.budget = std::chrono::seconds(static_cast<std::int64_t>(*budget));
  options.force = flags.force;
  options.per_leaf = flags.per_leaf;
  options.parallel = flags.parallel;
  options.command_timeout = std::chrono::seconds(flags.timeout_s);
  options.perftest_seconds = flags.perftest_seconds;
  options.gid_index = flags.gid_index;
  options.gpus_per_host = flags.gpus_per_host;
  options.thresholds = thresholds;
  if (!flags.leaf_map.empty()) {
    ND_TRY_ASSIGN(options.leaf_of, read_leaf_map(flags.leaf_map));
  }
  if (db != nullptr) {
    options.baselines = stored_baselines(*db);
  }
  return options;
}

Result<std::int64_t> record_sweep(store::Database& db, std::optional<std::int64_t> incident,
                                  const sweep::SweepReport& report, const std::string& hosts_spec,
                                  std::string json) {
  std::int64_t id = 0;
  if (incident) {
    id = *incident;
  } else {
    store::IncidentRepository incidents(db);
    ND_TRY_ASSIGN(id, incidents.open("slowdown", "sweep of " + hosts_spec, report.started_at));
  }
  store::SweepRecord record = to_record(report, hosts_spec, std::move(json));
  record.incident_id = id;
  store::SweepRepository sweeps(db);
  ND_TRY(sweeps.add(record));
  return id;
}

}  // namespace netdoctor::cli
