// perftest output (ib_write_bw, ib_read_lat, ...): parameters, addresses, result table, errors.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

enum class PerftestKind { Bandwidth, Latency, Unknown };

struct PerftestParam {
  std::string key;    // "Number of qps", "rdma_cm QPs", ...
  std::string value;  // as printed: "4096[B]", "ON"
};

struct PerftestAddress {
  std::string side;  // "local" or "remote"
  std::string lid;   // as printed: "0000", "0x02"
  std::string qpn;   // "0x2c01"
  std::string psn;
  std::string gid;       // as printed (decimal bytes joined by ':'); empty on native IB
  std::string gid_ipv4;  // "10.0.0.12" when the GID is IPv4-mapped; empty otherwise
};

// BW values are in the table's unit (PerftestResult::bw_unit); *_gbps are normalised to
// Gb/s = 1e9 bit/s. perftest divides by 0x100000 for MB/sec (so "MB/sec" is MiB/s, 2^20 bytes)
// and by 125000000 for Gb/sec (perftest_resources.c, print_report_bw: format_factor).
struct PerftestBwRow {
  std::uint64_t bytes = 0;  // message size
  std::uint64_t iterations = 0;
  std::optional<double> bw_peak;  // nullopt when the run said "BW peak won't be measured"
  double bw_average = 0;
  std::optional<double> msg_rate_mpps;  // Mpps
  std::optional<double> bw_min;         // newer builds only
  std::optional<double> bw_peak_gbps;
  double bw_average_gbps = 0;
  std::optional<double> bw_min_gbps;
};

// Latency columns by position; all in microseconds.
struct PerftestLatRow {
  std::uint64_t bytes = 0;
  std::uint64_t iterations = 0;
  double t_min_us = 0;
  double t_max_us = 0;
  std::optional<double> t_typical_us;
  std::optional<double> t_avg_us;    // newer builds
  std::optional<double> t_stdev_us;  // newer builds
  std::optional<double> p99_us;
  std::optional<double> p999_us;
};

struct PerftestError {
  std::string kind;                        // "connect", "socket", "completion", "other"
  std::string message;                     // the line (or sentence) as printed
  std::string peer;                        // "192.168.1.2:18515" for "connect"
  std::optional<std::uint32_t> wc_status;  // "Failed status 12" -> 12
  std::string wc_status_name;              // "IBV_WC_RETRY_EXC_ERR" derived from the number
};

struct PerftestResult {
  std::string title;  // "RDMA_Write BW Test"
  std::string verb;   // "RDMA_Write", "RDMA_Read", "Send", "Atomic"
  PerftestKind kind = PerftestKind::Unknown;
  bool bidirectional = false;
  std::vector<PerftestParam> params;             // in printed order
  std::map<std::string, std::string> param_map;  // key -> value
  std::string device;                            // "mlx5_0"
  std::string link_type;                         // "Ethernet" / "IB"
  std::string connection_type;                   // "RC", "UD", "DC", ...
  std::optional<std::uint32_t> mtu_bytes;
  std::optional<std::uint32_t> num_qps;
  std::optional<std::uint32_t> gid_index;
  std::vector<PerftestAddress> addresses;
  std::string bw_unit;           // "MB/sec" or "Gb/sec" (from the table header); empty for latency
  bool bw_peak_measured = true;  // false after "WARNING: BW peak won't be measured"
  std::vector<PerftestBwRow> bw_rows;
  std::vector<PerftestLatRow> lat_rows;
  std::vector<PerftestError> errors;
  std::vector<std::string> warnings;  // "WARNING: ..." and "Conflicting CPU frequency" lines
};

// Name of an ibv_wc_status value: 12 -> "IBV_WC_RETRY_EXC_ERR"; empty when unknown.
std::string wc_status_name(std::uint32_t status);

// Strips "> " quote prefixes. Succeeds on error-only output (errors filled). Fails when there is
// neither a test title, a result table, nor a recognised error.
Result<PerftestResult> parse_perftest(std::string_view text);

nlohmann::json to_json(const PerftestResult& result);

}  // namespace netdoctor::parsers
