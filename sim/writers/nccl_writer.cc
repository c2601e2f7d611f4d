// The NCCL job of the simulated fleet: one all-reduce over every host, 8 GPUs a host, ring
// channels between neighbouring hosts spread over the HCAs NCCL uses (formats of
// shared/reference/nccl and tests/parsers/data/nccl_log_*, NCCL 2.19).
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "base/strings.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

constexpr std::size_t k_gpus = 8;  // GPUs (ranks) per host, as on HGX/DGX nodes
// What a host moves over TCP sockets through the kernel (NCCL's socket transport on the
// management port): a few GB/s at best.
constexpr double k_socket_gbps = 25.0;
// GPUDirect RDMA off: every byte bounces through host memory, roughly halving what a NIC moves.
constexpr double k_bounce_share = 0.55;

std::vector<const Nic*> used_nics(const Host& host) {
  std::vector<const Nic*> used;
  for (std::size_t n = 0; n < host.nics.size() && n < host.nccl.hcas; ++n) {
    used.push_back(&host.nics[n]);
  }
  return used;
}

// What NCCL on the host can move, Gb/s.
double host_rate(const Host& host) {
  if (host.nccl.socket) {
    return k_socket_gbps;
  }
  double rate = 0.0;
  for (const Nic* nic : used_nics(host)) {
    rate += nic->speed_gbps;
  }
  return host.nccl.gdr ? rate : rate * k_bounce_share;
}

struct Prefix {
  std::string text;  // "node01:12345:12345 [0]"
};

Prefix prefix(const Host& host, std::size_t index, std::size_t thread) {
  const std::size_t pid = 20000 + index * 97;
  return {fmt::format("{}:{}:{} [0]", host.name, pid, pid + thread)};
}

void bootstrap(const Host& host, const Prefix& main, std::string& out) {
  fmt::format_to(std::back_inserter(out), "{} NCCL INFO Bootstrap : Using eno1:{}<0>\n", main.text,
                 host.mgmt_ip);
  fmt::format_to(std::back_inserter(out),
                 "{} NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal "
                 "implementation\n{} NCCL INFO cudaDriverVersion 12020\nNCCL version "
                 "2.19.3+cuda12.3\n",
                 main.text, main.text);
}

void environment(const Host& host, bool ib, const Prefix& init, std::string& out) {
  if (!ib) {  // RoCE jobs pin the RoCE v2 GID; InfiniBand addresses by LID
    fmt::format_to(std::back_inserter(out),
                   "{} NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n", init.text);
  }
  if (host.nccl.socket) {
    fmt::format_to(std::back_inserter(out),
                   "{} NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n", init.text);
  }
  if (host.nccl.hcas < host.nics.size()) {
    std::vector<std::string> names;
    for (const Nic* nic : used_nics(host)) {
      names.push_back(nic->rdma_dev);
    }
    fmt::format_to(std::back_inserter(out), "{} NCCL INFO NCCL_IB_HCA set by environment to ={}.\n",
                   init.text, join(names, ","));
  }
}

void network(const Host& host, bool ib, const Prefix& init, std::string& out) {
  auto o = std::back_inserter(out);
  if (host.nccl.socket) {
    fmt::format_to(o, "{} NCCL INFO NET/Socket : Using [0]eno1:{}<0>\n", init.text, host.mgmt_ip);
    fmt::format_to(o, "{} NCCL INFO Using network Socket\n", init.text);
    return;
  }
  fmt::format_to(o, "{} NCCL INFO NET/IB : Using", init.text);
  const auto used = used_nics(host);
  for (std::size_t i = 0; i < used.size(); ++i) {
    fmt::format_to(o, " [{}]{}:1/{}", i, used[i]->rdma_dev, ib ? "IB" : "RoCE");
  }
  fmt::format_to(o, " [RO]; OOB eno1:{}<0>\n{} NCCL INFO Using network IB\n", host.mgmt_ip,
                 init.text);
  for (std::size_t i = 0; i < used.size(); ++i) {
    fmt::format_to(o, "{} NCCL INFO NET/IB : GPU Direct RDMA {} for HCA {} '{}'{}\n", init.text,
                   host.nccl.gdr ? "Enabled" : "Disabled", i, used[i]->rdma_dev,
                   host.nccl.gdr ? "" : " (no module)");
  }
}

// The ring channels: this host's last GPU sends to the next host's first, its first receives
// from the previous host's last; two channels per HCA.
void channels(const Fabric& fabric, std::size_t h, const Prefix& init, std::string& out) {
  const std::size_t hosts = fabric.hosts.size();
  const Host& host = fabric.hosts[h];
  const std::size_t hcas = host.nccl.socket ? 1 : std::max<std::size_t>(1, used_nics(host).size());
  const std::size_t send_from = h * k_gpus + k_gpus - 1;
  const std::size_t send_to = ((h + 1) % hosts) * k_gpus;
  const std::size_t recv_from = ((h + hosts - 1) % hosts) * k_gpus + k_gpus - 1;
  const std::size_t recv_to = h * k_gpus;
  const char* net = host.nccl.socket ? "NET/Socket" : "NET/IB";
  const char* gdr = host.nccl.gdr && !host.nccl.socket ? "/GDRDMA" : "";
  for (std::size_t c = 0; c < 2 * hcas; ++c) {
    fmt::format_to(std::back_inserter(out),
                   "{} NCCL INFO Channel {:02}/0 : {}[{}] -> {}[0] [receive] via {}/{}{}\n"
                   "{} NCCL INFO Channel {:02}/0 : {}[{}] -> {}[0] [send] via {}/{}{}\n",
                   init.text, c, recv_from, k_gpus - 1, recv_to, net, c % hcas, gdr, init.text, c,
                   send_from, k_gpus - 1, send_to, net, c % hcas, gdr);
  }
  fmt::format_to(std::back_inserter(out),
                 "{} NCCL INFO Connected all rings, use ring PXN 0 GDR {}\n", init.text,
                 host.nccl.gdr && !host.nccl.socket ? 1 : 0);
}

}  // namespace

double nccl_peak_busbw(const Fabric& fabric) {
  double slowest = 0.0;
  for (const Host& host : fabric.hosts) {
    const double rate = host_rate(host);
    slowest = slowest == 0.0 ? rate : std::min(slowest, rate);
  }
  // A healthy all-reduce reaches 80-86 % of the slowest host's line rate (nccl-tests
  // PERFORMANCE.md; published results); the seed picks where in that range.
  const double efficiency = 0.80 + 0.06 * static_cast<double>(fabric.noise_seed % 1000) / 1000.0;
  return slowest * efficiency / 8.0;
}

std::string nccl_log(const Fabric& fabric, std::size_t h) {
  const Host& host = fabric.hosts[h];
  const Prefix main = prefix(host, h, 0);
  const Prefix init = prefix(host, h, 41);
  std::string out;
  bootstrap(host, main, out);
  const bool ib = fabric.kind == FabricKind::Ib;
  environment(host, ib, init, out);
  network(host, ib, init, out);
  const std::size_t nranks = fabric.hosts.size() * k_gpus;
  const std::string comm = fmt::format(
      "comm 0x{:x} rank {} nranks {} cudaDev 0 nvmlDev 0 busId "
      "1b000 commId 0x5b1e7d0c9a4f3e21",
      0x55d0c8a00000ULL + h * 0x1000, h * k_gpus, nranks);
  fmt::format_to(std::back_inserter(out), "{} NCCL INFO {} - Init START\n", init.text, comm);
  channels(fabric, h, init, out);
  fmt::format_to(std::back_inserter(out), "{} NCCL INFO {} - Init COMPLETE\n", init.text, comm);
  return out;
}

std::string nccl_tests_output(const Fabric& fabric) {
  std::string out =
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 "
      "iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n";
  auto o = std::back_inserter(out);
  for (std::size_t h = 0; h < fabric.hosts.size(); ++h) {
    for (std::size_t g = 0; g < k_gpus; ++g) {
      fmt::format_to(o,
                     "#  Rank {:>2} Group  0 Pid {:>6} on {} device  {} [0x{:02x}] NVIDIA "
                     "H100 80GB HBM3\n",
                     h * k_gpus + g, 20000 + h * 97 + g, fabric.hosts[h].name, g, 0x1b + g * 0x10);
    }
  }
  out +=
      "#\n#                                                              out-of-place          "
      "             in-place          \n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong  "
      "   time   algbw   busbw #wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)          "
      "  (us)  (GB/s)  (GB/s)       \n";
  const double peak = nccl_peak_busbw(fabric);
  const double ranks = static_cast<double>(fabric.hosts.size() * k_gpus);
  const double bus_factor = 2.0 * (ranks - 1.0) / ranks;  // all-reduce: busbw = algbw x 2(n-1)/n
  double sum = 0.0;
  std::size_t rows = 0;
  for (std::uint64_t size = 8; size <= (8ULL << 30); size *= 2, ++rows) {
    // Small messages are latency-bound: busbw ramps up to the peak (half of it at 32 MB).
    const double bytes = static_cast<double>(size);
    const double busbw = peak * bytes / (bytes + 32.0 * 1024 * 1024);
    const double algbw = busbw / bus_factor;
    const double time_us = algbw > 0.0 ? bytes / (algbw * 1e3) : 0.0;
    sum += busbw;
    fmt::format_to(o,
                   "{:>12} {:>13}     float     sum      -1 {:>8.1f} {:>7.2f} {:>7.2f}      0 "
                   "{:>8.1f} {:>7.2f} {:>7.2f}      0\n",
                   size, size / 4, time_us, algbw, busbw, time_us, algbw, busbw);
  }
  fmt::format_to(o, "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : {:.4f} \n#\n",
                 sum / static_cast<double>(rows));
  return out;
}

}  // namespace netdoctor::sim
