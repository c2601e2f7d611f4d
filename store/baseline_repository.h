// BaselineRepository: perftest results kept as the healthy reference, per client/server
// pair, device, test and message size. A baseline is only ever looked up by that whole key,
// so a run is never compared with another device's or another pair's numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace netdoctor::store {

class Database;

struct PerfRun {
  std::int64_t id = 0;  // assigned when stored
  std::string client;
  std::string server;
  std::string device;
  std::string test;  // "ib_write_bw", "ib_read_lat", ...
  std::optional<std::uint64_t> msg_bytes;
  std::optional<double> bw_gbps;  // bandwidth tests
  std::optional<double> lat_us;   // latency tests
  double measured_at = 0.0;
  std::string source;  // bundle path or "live"

  std::string pair() const { return client + "__" + server; }  // as in spec/bundle.md
};

// The run's figure for people: "97.12 Gb/s" for bandwidth, else "1.85 us" for latency, else "-".
std::string figure_text(const PerfRun& run);

// "node01__node02" -> {"node01", "node02"}; nullopt when the text is not a pair.
std::optional<std::pair<std::string, std::string>> parse_pair(const std::string& text);

class BaselineRepository {
 public:
  explicit BaselineRepository(Database& db) : m_db(db) {}

  // Stores all runs in one transaction; returns their ids in order.
  Result<std::vector<std::int64_t>> add(const std::vector<PerfRun>& runs);
  // The most recent baseline with the same client, server, device, test and message size.
  Result<std::optional<PerfRun>> latest_for(const PerfRun& current);
  // Every baseline, or one pair's, oldest first.
  Result<std::vector<PerfRun>> list();
  Result<std::vector<PerfRun>> for_pair(const std::string& client, const std::string& server);

 private:
  Result<std::vector<PerfRun>> query(const std::string& where,
                                     const std::vector<std::string>& params);

  Database& m_db;
};

}  // namespace netdoctor::store
