// The texts the fake cluster (sim/fake_cluster.h) answers with that the simulator's bundle
// writers do not already print: ib_write_bw's two sides and its socket errors, nccl-tests over
// a chosen group, and the launchers' and tools' failure messages. Each in the real tool's layout
// (tests/fixtures/shared/reference/perftest, .../nccl, FORMATS.md sections 4 and 8). Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netdoctor::sim::fake {

struct PerftestSide {
  std::string device;  // mlx5_0
  std::string ip;      // RoCE: the GID's IPv4 address
  std::uint32_t lid = 0;
};

struct PerftestText {
  bool server = false;  // the server prints the "Waiting for client" box first
  bool infiniband = false;
  bool duration_mode = false;  // -D: "BW peak won't be measured", the peak column 0.00
  bool report_gbits = true;
  int gid_index = 3;
  PerftestSide local;
  PerftestSide remote;
  double gbps = 0;        // BW average, Gb/s
  double seconds = 5;     // how long it ran: sets #iterations
  std::uint64_t key = 0;  // picks QPNs, PSNs and keys
};
// ib_write_bw's output for one side of a finished run: parameters, addresses, the result table.
std::string perftest_text(const PerftestText& run);
// The client's socket failure ("Couldn't connect to node0002:18515 ...") and the server's
// ("Couldn't listen to port 18515 ...").
std::string perftest_connect_failure(const std::string& server, int tcp_port);
std::string perftest_listen_failure(int tcp_port);
// perftest's "IB device mlx5_9 not found" / "Unable to find the Infiniband/RoCE device".
std::string perftest_no_device(const std::string& device);

struct NcclText {
  std::string test;                     // all_reduce_perf or alltoall_perf
  std::vector<std::string> rank_hosts;  // one per rank, in rank order
  std::uint64_t min_bytes = 1ull << 30;
  std::uint64_t max_bytes = 1ull << 30;
  std::uint64_t factor = 2;
  double peak_busbw = 0;  // GB/s at 1 GiB and above; smaller messages ramp up to it
  std::uint64_t key = 0;  // picks the pids
};
// nccl-tests 2.x output (new layout: root and #wrong columns): parameters, one "Rank" line per
// rank naming its host, a row per size, out-of-bounds and average bus bandwidth lines.
std::string nccl_tests_text(const NcclText& run);
// The bytes each rank sends in one iteration of one leg, per byte of message (ring all-reduce
// 2(n-1)/n, alltoall (n-1)/n): nccl-tests' busbw factor.
double nccl_bus_factor(const std::string& test, std::size_t ranks);

// Open MPI's report when a host of --host cannot be reached (the ssh error, then ORTE's box).
std::string mpirun_unreachable(const std::string& host, const std::string& ssh_error);
// lldpcli with no lldpd to talk to (stderr).
std::string lldpcli_no_daemon();

}  // namespace netdoctor::sim::fake
