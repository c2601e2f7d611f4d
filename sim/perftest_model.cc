#include "sim/perftest_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "sim/rng.h"

namespace netdoctor::sim {
namespace {

constexpr const char* k_dashes =
    "---------------------------------------------------------------------------------------\n";

std::string gid(const std::string& ip) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (std::sscanf(ip.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d) != 4) {
    return "00:00:00:00:00:00:00:00:00:00:255:255:00:00:00:00";
  }
  return fmt::format("00:00:00:00:00:00:00:00:00:00:255:255:{:02}:{:02}:{:02}:{:02}", a, b, c, d);
}

// RoCE prints "LID 0000" (printf's %#04x of 0), InfiniBand the port's LID ("LID 0x40").
std::string address_line(const char* side, Rng& rng, bool with_out, std::uint32_t lid = 0) {
  return fmt::format(
      " {} address: LID {} QPN 0x{:04x} PSN 0x{:06x}{} RKey 0x{:06x} VAddr "
      "0x{:012x}\n",
      side, lid == 0 ? std::string("0000") : fmt::format("{:#04x}", lid), rng.below(0x1000),
      rng.below(0x1000000), with_out ? " OUT 0x10" : "", rng.below(0x1000000),
      0x550000000000ull + rng.below(0x2000000000ull));
}

std::string header(const Fabric& fabric, const PerftestResult& run, bool bw) {
  const Nic& nic = fabric.hosts[run.client].nics[0];
  std::string out = k_dashes;
  out += bw ? "                    RDMA_Write BW Test\n"
            : "                    RDMA_Read Latency Test\n";
  out += fmt::format(" Dual-port       : OFF\t\tDevice         : {}\n", nic.rdma_dev);
  out += " Number of qps   : 1\t\tTransport type : IB\n";
  out += " Connection type : RC\t\tUsing SRQ      : OFF\n";
  out += " PCIe relax order: ON\n";
  out += " ibv_wr* API     : ON\n";
  out += bw ? " TX depth        : 128\n CQ Moderation   : 100\n" : " TX depth        : 1\n";
  out += fmt::format(" Mtu             : {}[B]\n", run.mtu);
  if (fabric.kind == FabricKind::Ib) {
    out += " Link type       : IB\n";
  } else {
    out += " Link type       : Ethernet\n";
    out += " GID index       : 3\n";
  }
  out += bw ? " Max inline data : 0[B]\n" : " Outstand reads  : 16\n";
  out += " rdma_cm QPs\t : OFF\n";
  out += " Data ex. method : Ethernet\n";
  out += k_dashes;
  return out;
}

std::string addresses(const Fabric& fabric, const PerftestResult& run, bool bw, bool baseline) {
  Rng rng(hash_u64(fabric.noise_seed, fabric.hosts[run.client].name,
                   (bw ? 1u : 2u) + (baseline ? 10u : 0u)));
  if (fabric.kind == FabricKind::Ib) {  // addressed by LID, no GID lines
    std::string out = address_line("local", rng, !bw, fabric.hosts[run.client].nics[0].lid);
    out += address_line("remote", rng, !bw, fabric.hosts[run.server].nics[0].lid);
    return out + k_dashes;
  }
  std::string out = address_line("local", rng, !bw);
  out += " GID: " + gid(fabric.hosts[run.client].nics[0].ip) + "\n";
  out += address_line("remote", rng, !bw);
  out += " GID: " + gid(fabric.hosts[run.server].nics[0].ip) + "\n";
  out += k_dashes;
  return out;
}

std::string failure(const Fabric& fabric, const PerftestResult& run) {
  return fmt::format(
      " Completion with error at client\n"
      " Failed status 12: wr_id 0 syndrom 0x81\n"
      "scnt=128, ccnt=0\n"
      " Failed to complete run_iter_bw function successfully\n"
      "Couldn't connect to {} or the remote side timed out\n",
      fabric.hosts[run.server].name);
}

}  // namespace

std::vector<PerftestResult> measure_perftest(const Fabric& fabric, bool baseline) {
  std::vector<PerftestResult> results;
  for (std::size_t client = 0; client + 1 < fabric.hosts.size(); client += 2) {
    PerftestResult run;
    run.client = client;
    run.server = client + 1;
    const Nic& a = fabric.hosts[client].nics[0];
    const Nic& b = fabric.hosts[client + 1].nics[0];
    Rng rng(hash_u64(fabric.noise_seed, fabric.hosts[client].name, baseline ? 77 : 78));
    double speed =
        baseline ? std::min(a.rated_gbps, b.rated_gbps) : std::min(a.speed_gbps, b.speed_gbps);
    double bw_factor = 1.0;
    double lat_factor = 1.0;
    if (!baseline) {
      bw_factor = a.perf_bw_factor * b.perf_bw_factor;
      lat_factor = a.perf_lat_factor * b.perf_lat_factor;
      run.failed = a.perf_fails || b.perf_fails;
      run.mtu = std::min(a.active_mtu, b.active_mtu);
    }
    // A healthy 200G RoCE pair reaches ~92 % of line rate with 64 KiB writes.
    run.bw_avg_gbps = speed * 0.922 * bw_factor * rng.jitter(0.003);
    run.bw_peak_gbps = run.bw_avg_gbps * rng.uniform(1.001, 1.006);
    run.msg_rate_mpps = run.bw_avg_gbps * 1e9 / (65536.0 * 8.0) / 1e6;
    run.lat_typical = 2.48 * lat_factor * rng.jitter(0.004);
    run.lat_min = run.lat_typical * rng.uniform(0.96, 0.98);
    run.lat_avg = run.lat_typical * rng.uniform(1.004, 1.012);
    run.lat_max = run.lat_typical * rng.uniform(2.5, 2.8) * (lat_factor > 1.5 ? 3.0 : 1.0);
    run.lat_stdev = 0.08 * lat_factor;
    run.lat_p99 = run.lat_typical * rng.uniform(1.14, 1.16);
    run.lat_p999 = run.lat_max;
    results.push_back(run);
  }
  return results;
}

std::string write_bw_name(const Fabric& fabric, const PerftestResult& run) {
  return fmt::format("ib_write_bw_-d_{}_--report_gbits_-F_{}",
                     fabric.hosts[run.client].nics[0].rdma_dev, fabric.hosts[run.server].name);
}

std::string read_lat_name(const Fabric& fabric, const PerftestResult& run) {
  return fmt::format("ib_read_lat_-d_{}_-F_{}", fabric.hosts[run.client].nics[0].rdma_dev,
                     fabric.hosts[run.server].name);
}

std::string write_bw_output(const Fabric& fabric, const PerftestResult& run, bool baseline) {
  std::string out = header(fabric, run, true) + addresses(fabric, run, true, baseline);
  if (run.failed) {
    return out + failure(fabric, run);
  }
  out += " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n";
  out += fmt::format(" 65536      {}             {:.2f}             {:.2f} \t\t   {:.6f}\n",
                     run.bw_iterations, run.bw_peak_gbps, run.bw_avg_gbps, run.msg_rate_mpps);
  return out + k_dashes;
}

std::string read_lat_output(const Fabric& fabric, const PerftestResult& run, bool baseline) {
  std::string out = header(fabric, run, false) + addresses(fabric, run, false, baseline);
  if (run.failed) {
    return out + failure(fabric, run);
  }
  out +=
      " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
      "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";
  out += fmt::format(
      " 2       1000          {:.2f}           {:.2f}         {:.2f}     \t   "
      "{:.2f}        \t{:.2f}   \t\t{:.2f}   \t\t{:.2f}   \n",
      run.lat_min, run.lat_max, run.lat_typical, run.lat_avg, run.lat_stdev, run.lat_p99,
      run.lat_p999);
  return out + k_dashes;
}

}  // namespace netdoctor::sim
