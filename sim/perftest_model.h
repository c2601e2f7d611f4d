// perftest between host pairs (0,1), (2,3), ... on each client's first NIC: what ib_write_bw
// and ib_read_lat measure now (faults applied through the NICs' perf factors and link speeds)
// and on the healthy baseline day.
#pragma once

#include <string>
#include <vector>

#include "sim/topology.h"

namespace netdoctor::sim {

struct PerftestResult {
  std::size_t client = 0;
  std::size_t server = 0;
  bool failed = false;  // RETRY_EXC_ERR: the transport gave up
  int mtu = 4096;
  std::uint64_t bw_iterations = 5000;
  double bw_peak_gbps = 0;
  double bw_avg_gbps = 0;
  double msg_rate_mpps = 0;
  double lat_min = 0, lat_max = 0, lat_typical = 0, lat_avg = 0, lat_stdev = 0;
  double lat_p99 = 0, lat_p999 = 0;
};

std::vector<PerftestResult> measure_perftest(const Fabric& fabric, bool baseline);

// "ib_write_bw_-d_mlx5_0_--report_gbits_-F_node02" (sos-mangled command line)
std::string write_bw_name(const Fabric& fabric, const PerftestResult& run);
std::string read_lat_name(const Fabric& fabric, const PerftestResult& run);
std::string write_bw_output(const Fabric& fabric, const PerftestResult& run, bool baseline);
std::string read_lat_output(const Fabric& fabric, const PerftestResult& run, bool baseline);

}  // namespace netdoctor::sim
