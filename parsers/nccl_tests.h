// nccl-tests (all_reduce_perf, all_gather_perf, ...) output, old and new table layouts.
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

// One half of a row (out-of-place or in-place). Bandwidths in GB/s = 1e9 bytes/s.
struct NcclLeg {
  std::optional<double> time_us;
  std::optional<double> algbw_gbyte_s;
  std::optional<double> busbw_gbyte_s;
  std::optional<std::uint64_t> wrong;  // new format "#wrong" count
  std::string error;  // old format "error" column as printed ("0e+00"); "N/A" possible
};

struct NcclRow {
  std::uint64_t size_bytes = 0;
  std::uint64_t count = 0;           // elements
  std::string type;                  // "float"
  std::string redop;                 // "sum", "none"
  std::optional<std::int64_t> root;  // new format only (-1 when not rooted)
  NcclLeg out_of_place;
  NcclLeg in_place;
};

struct NcclRank {
  std::uint32_t rank = 0;
  std::uint32_t group = 0;
  std::uint64_t pid = 0;
  std::string host;
  std::uint32_t device = 0;
  std::string bus_id;    // "0x10"
  std::string gpu_name;  // "NVIDIA A800-SXM4-80GB"
};

// "NET/IB : Using [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1/RoCE ..."
struct NcclIbDevice {
  std::uint32_t index = 0;
  std::string name;  // "mlx5_0"
  std::uint32_t port = 0;
  std::string link;  // "IB" or "RoCE"
  bool sharp = false;
};

struct NcclTestsResult {
  std::map<std::string, std::string> params;  // "nThread" -> "1", "minBytes" -> ..., "iters" -> ...
  std::vector<NcclRank> ranks;
  bool new_format = false;  // has the root and #wrong columns
  std::vector<NcclRow> rows;
  std::optional<std::uint64_t> out_of_bounds;       // "# Out of bounds values : 0 OK"
  std::optional<double> avg_bus_bandwidth_gbyte_s;  // "# Avg bus bandwidth : X"
  std::vector<std::string> failures;  // "Test NCCL failure ..." / "Test failure ..." lines
  std::vector<std::string> warnings;  // "NCCL WARN ..." lines
  std::string network;                // "IB", "IBext", "Socket" ("Using network X")
  std::vector<NcclIbDevice> ib_devices;
  bool relaxed_ordering = false;  // "[RO]" on the NET/IB line
};

// Fails when there is neither a header, a data row, an Avg bus bandwidth line nor a failure.
// Rows are read with the columns their table header declares: collectives without a reduction
// (alltoall, all_gather, sendrecv) print "none" or nothing under redop, and "-1" or nothing
// under root; such rows keep redop "" or "none" and root nullopt or -1 as printed.
Result<NcclTestsResult> parse_nccl_tests(std::string_view text);

// The HCAs of a "NET/IB : Using [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1/RoCE [RO]; OOB ib0:..." line
// (text from "Using" on); `relaxed_ordering` is set when "[RO]" is printed. Shared with the
// NCCL_DEBUG=INFO log parser.
std::vector<NcclIbDevice> parse_nccl_net_ib_devices(std::string_view line, bool& relaxed_ordering);

nlohmann::json to_json(const NcclTestsResult& result);

}  // namespace netdoctor::parsers
