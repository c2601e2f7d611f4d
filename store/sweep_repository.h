// SweepRepository: the sweeps `netdoctor sweep` ran for an incident (docs/sweep.md). A sweep
// is stored whole (the JSON it rendered, format "netdoctor-sweep" version 1) plus queryable
// rows: the sweep itself (verdict, summary, slow entities) and every run it made, which are
// the incident's perftest and nccl-tests runs (table sweep_runs, keyed by incident).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::store {

class Database;

// One run of a sweep, kept as a perftest (or nccl-tests) run of its incident.
struct SweepRun {
  int round = 0;
  std::string test;  // "ib_write_bw", "all_reduce_perf", "alltoall_perf"
  std::string client, server, device, server_device;
  std::vector<std::string> hosts;  // nccl-tests group; empty for a pair
  std::optional<double> gbps, lat_us, busbw_gbyte_s;
  double expected_gbps = 0;
  std::string expected_from;  // "baseline" or "line-rate"
  std::string result;         // "ok", "slow", "failed"
  std::string detail;
  double seconds = 0;
  double measured_at = 0;
};

struct SweepRecord {
  std::int64_t id = 0;  // assigned when stored
  std::int64_t incident_id = 0;
  double created_at = 0;
  std::string hosts_spec;  // the --hosts text
  std::string verdict;     // "slow-found", "all-healthy", "inconclusive"
  std::string summary;
  std::vector<std::string> slow_entities;
  std::vector<SweepRun> runs;
  std::string json;  // the sweep's JSON as rendered (kept whole)
};

class SweepRepository {
 public:
  explicit SweepRepository(Database& db);

  // Stores the sweep and its runs (in their order) in one transaction and returns its id.
  // NotFound for an unknown incident; InvalidArgument for a verdict or a run result outside
  // the vocabularies above (what renders them relies on it).
  Result<std::int64_t> add(const SweepRecord& record);
  // The incident's sweeps with their runs, oldest first (empty for an unknown incident).
  Result<std::vector<SweepRecord>> for_incident(std::int64_t incident_id);

 private:
  Database& m_db;
};

}  // namespace netdoctor::store
