#include "sim/fake_cluster_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "sim/fake_cluster_parts.h"
#include "sim/rng.h"

namespace netdoctor::sim::fake {
namespace {

constexpr const char* k_rule =
    "---------------------------------------------------------------------------------------\n";
constexpr std::uint64_t k_perftest_message = 65536;          // ib_write_bw's default size (-s)
constexpr double k_full_speed_bytes = 1024.0 * 1024 * 1024;  // nccl: busbw flat from 1 GiB
constexpr double k_half_speed_bytes = 32.0 * 1024 * 1024;    // ... half of it at 32 MiB

// perftest prints RoCE GIDs as decimal bytes: the IPv4-mapped form of `ip`.
std::string gid_bytes(const std::string& ip) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d) != 4) {
    a = b = c = d = 0;
  }
  return fmt::format("00:00:00:00:00:00:00:00:00:00:255:255:{:02}:{:02}:{:02}:{:02}", a, b, c, d);
}

std::string address(const char* side, const PerftestSide& end, bool ib, Rng& rng) {
  const std::string lid = ib ? fmt::format("{:#04x}", end.lid) : "0000";
  std::string out = fmt::format(
      " {} address: LID {} QPN 0x{:04x} PSN 0x{:06x} RKey 0x{:06x} VAddr 0x{:014x}\n", side, lid,
      rng.below(0x10000), rng.below(0x1000000), rng.below(0x1000000),
      (0x7f0000000000ull + rng.below(0xffffffffffull)) & ~0xfffull);  // a page-aligned buffer
  if (!ib) {
    out += " GID: " + gid_bytes(end.ip) + "\n";
  }
  return out;
}

std::string parameters(const PerftestText& run) {
  std::string out = k_rule;
  out += "                    RDMA_Write BW Test\n";
  out += fmt::format(" Dual-port       : OFF\t\tDevice         : {}\n", run.local.device);
  out += " Number of qps   : 1\t\tTransport type : IB\n";
  out += " Connection type : RC\t\tUsing SRQ      : OFF\n";
  out += " PCIe relax order: ON\n ibv_wr* API     : ON\n";
  if (!run.server) {
    out += " TX depth        : 128\n";  // the server side does not print it
  }
  out += " CQ Moderation   : 1\n Mtu             : 4096[B]\n";
  out += run.infiniband
             ? " Link type       : IB\n"
             : fmt::format(" Link type       : Ethernet\n GID index       : {}\n", run.gid_index);
  out += " Max inline data : 0[B]\n rdma_cm QPs\t : OFF\n Data ex. method : Ethernet\n";
  return out + k_rule;
}

}  // namespace

std::string perftest_text(const PerftestText& run) {
  std::string out;
  if (run.duration_mode) {
    out += "WARNING: BW peak won't be measured in this run.\n";
  }
  if (run.server) {
    out +=
        "\n************************************\n"
        "* Waiting for client to connect... *\n"
        "************************************\n";
  }
  out += parameters(run);
  Rng rng(run.key);
  out += address("local", run.local, run.infiniband, rng);
  out += address("remote", run.remote, run.infiniband, rng);
  out += k_rule;
  const char* unit = run.report_gbits ? "Gb/sec" : "MB/sec";
  // perftest's format factors: 125000000 for Gb/sec, 0x100000 for MB/sec (print_report_bw).
  const double bytes_per_s = run.gbps * 1e9 / 8.0;
  const double average = run.report_gbits ? run.gbps : bytes_per_s / 1048576.0;
  const double peak = run.duration_mode ? 0.0 : average * 1.002;
  const auto iterations = static_cast<std::uint64_t>(bytes_per_s * run.seconds /
                                                     static_cast<double>(k_perftest_message));
  out += fmt::format(" #bytes     #iterations    BW peak[{0}]    BW average[{0}]   MsgRate[Mpps]\n",
                     unit);
  out +=
      fmt::format(" {:<10} {:<16} {:<18.2f} {:.2f}\t\t   {:.6f}\n", k_perftest_message, iterations,
                  peak, average, bytes_per_s / static_cast<double>(k_perftest_message) / 1e6);
  return out + k_rule;
}

std::string perftest_connect_failure(const std::string& server, int tcp_port) {
  return fmt::format(
      "Couldn't connect to {}:{}\n"
      "Unable to open file descriptor for socket connection Unable to init the socket "
      "connection\n",
      server, tcp_port);
}

std::string perftest_listen_failure(int tcp_port) {
  return fmt::format(
      "Couldn't listen to port {}\n"
      "Unable to open file descriptor for socket connection Unable to init the socket "
      "connection\n",
      tcp_port);
}

std::string perftest_no_device(const std::string& device) {
  return fmt::format("IB device {} not found\n Unable to find the Infiniband/RoCE device\n",
                     device);
}

double nccl_bus_factor(const std::string& test, std::size_t ranks) {
  const double n = static_cast<double>(std::max<std::size_t>(ranks, 1));
  return test == "alltoall_perf" ? (n - 1.0) / n : 2.0 * (n - 1.0) / n;
}

std::string nccl_tests_text(const NcclText& run) {
  const bool reduce = run.test != "alltoall_perf";
  std::string out = fmt::format(
      "# nccl-tests version 2.13.11 nccl-headers=22304 nccl-library=22304\n"
      "# Collective test starting: {}\n"
      "# nThread 1 nGpus 1 minBytes {} maxBytes {} step: {}(factor) warmup iters: 5 iters: 20 "
      "agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n",
      run.test, run.min_bytes, run.max_bytes, run.factor);
  auto o = std::back_inserter(out);
  Rng rng(run.key);
  std::size_t local = 0;
  for (std::size_t r = 0; r < run.rank_hosts.size(); ++r) {
    local = r > 0 && run.rank_hosts[r] == run.rank_hosts[r - 1] ? local + 1 : 0;
    fmt::format_to(o,
                   "#  Rank {:>2} Group  0 Pid {:>6} on {} device  {} [0000:{:02x}:00] NVIDIA "
                   "H100 80GB HBM3\n",
                   r, 2000 + rng.below(60000), run.rank_hosts[r], local, 0x1b + 0x10 * (local % 8));
  }
  out +=
      "NCCL version 2.23.4+cuda12.6\n#\n"
      "#                                                              out-of-place          "
      "             in-place          \n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong  "
      "   time   algbw   busbw #wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)          "
      "  (us)  (GB/s)  (GB/s)       \n";
  const std::size_t ranks = std::max<std::size_t>(run.rank_hosts.size(), 1);
  const double factor = nccl_bus_factor(run.test, ranks);
  double sum = 0;
  std::size_t rows = 0;
  for (std::uint64_t size = run.min_bytes; size <= run.max_bytes; size *= run.factor, ++rows) {
    // Latency-bound below 1 GiB: busbw ramps to the peak (half of the 1 GiB rate at 32 MiB).
    const auto bytes = static_cast<double>(size);
    const double ramp = bytes / (bytes + k_half_speed_bytes) *
                        (k_full_speed_bytes + k_half_speed_bytes) / k_full_speed_bytes;
    const double busbw = run.peak_busbw * std::min(1.0, ramp);
    const double algbw = factor > 0 ? busbw / factor : busbw;
    const double time_us = algbw > 0 ? bytes / (algbw * 1e3) : 0.0;
    const std::uint64_t count = reduce ? size / 4 : size / 4 / ranks;
    sum += busbw;
    fmt::format_to(o,
                   "{:>12} {:>13}     float {:>7} {:>7} {:>8.1f} {:>7.2f} {:>7.2f} {:>6} {:>8.1f} "
                   "{:>7.2f} {:>7.2f} {:>6}\n",
                   size, count, reduce ? "sum" : "none", -1, time_us, algbw, busbw, 0, time_us,
                   algbw, busbw, reduce ? "0" : "N/A");
  }
  fmt::format_to(o,
                 "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : {:.4f} \n#\n"
                 "# Collective test concluded: {}\n#\n",
                 rows > 0 ? sum / static_cast<double>(rows) : 0.0, run.test);
  return out;
}

std::string mpirun_unreachable(const std::string& host, const std::string& ssh_error) {
  return fmt::format(
      "{}\n"
      "--------------------------------------------------------------------------\n"
      "ORTE was unable to reliably start one or more daemons.\n"
      "This usually is caused by:\n\n"
      "* not finding the required libraries and/or binaries on\n"
      "  one or more nodes. Please check your PATH and LD_LIBRARY_PATH\n"
      "  settings, or configure OMPI with --enable-orterun-prefix-by-default\n\n"
      "* lack of authority to execute on one or more specified nodes.\n"
      "  Please verify your allocation and authorities.\n"
      "--------------------------------------------------------------------------\n"
      "--------------------------------------------------------------------------\n"
      "ORTE does not know how to route a message to the specified daemon\n"
      "located on the indicated node:\n\n"
      "  my node:   unknown\n  target node:  {}\n\n"
      "This is usually an internal programming error that should be\n"
      "reported to the developers. In the meantime, a workaround may\n"
      "be to set the MCA param routed=direct on the command line or\n"
      "in your environment. We apologize for the problem.\n"
      "--------------------------------------------------------------------------\n",
      ssh_error, host);
}

std::string ssh_failure(const std::string& host, bool down) {
  return down
             ? fmt::format("ssh: connect to host {} port 22: No route to host\n", host)
             : fmt::format("ssh: Could not resolve hostname {}: Name or service not known\n", host);
}

std::string lldpcli_no_daemon() {
  return "2026-03-02T10:05:00 [WARN/control] unable to connect to socket /run/lldpd.socket: No "
         "such file or directory\n"
         "2026-03-02T10:05:00 [WARN/lldpctl] not able to get the list of interfaces. Unable to "
         "connect to lldpd daemon\n";
}

}  // namespace netdoctor::sim::fake
