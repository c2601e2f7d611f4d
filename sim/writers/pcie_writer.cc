// The NICs' PCIe links as lspci -vvv and the kernel log show them (formats of
// tests/parsers/data/lspci_vvv_* and dmesg_mlx5_*_pcie_limited_*).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "sim/nic_models.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

// "16" for 16.0, "2.5" for 2.5: lspci's way of printing a rate.
std::string lspci_rate(double gt_s) {
  return fmt::format("{}GT/s", gt_s == std::floor(gt_s) ? fmt::format("{}", static_cast<int>(gt_s))
                                                        : fmt::format("{:.1f}", gt_s));
}

std::string device_name(const Nic& nic) {
  return nic.vendor == Vendor::Bnxt
             ? "Broadcom Inc. and subsidiaries BCM57508 NetXtreme-E 10Gb/25Gb/40Gb/50Gb/100Gb/"
               "200Gb Ethernet"
             : "Mellanox Technologies MT2910 Family [ConnectX-7]";
}

std::string gbps_text(long mbps) {
  return fmt::format("{}.{:03}", mbps / 1000, mbps % 1000);
}

// The driver's boot-time PCIe lines for one NIC.
std::string pcie_lines(const Nic& nic, double at) {
  const std::string driver = nic_model(nic.vendor).driver;
  const long available = pcie_kernel_mbps(nic.pcie_gt_s, nic.pcie_width);
  const long capable = pcie_kernel_mbps(nic.pcie_max_gt_s, nic.pcie_max_width);
  std::string out =
      fmt::format("[{:12.6f}] {} {}: enabling device (0000 -> 0002)\n", at, driver, nic.pci);
  if (available < capable) {
    out += fmt::format(
        "[{:12.6f}] {} {}: {} Gb/s available PCIe bandwidth, limited by {:.1f} GT/s PCIe x{} "
        "link at {} (capable of {} Gb/s with {:.1f} GT/s PCIe x{} link)\n",
        at + 0.0002, driver, nic.pci, gbps_text(available), nic.pcie_gt_s, nic.pcie_width, nic.pci,
        gbps_text(capable), nic.pcie_max_gt_s, nic.pcie_max_width);
  } else {
    out += fmt::format(
        "[{:12.6f}] {} {}: {} Gb/s available PCIe bandwidth ({:.1f} GT/s PCIe x{} "
        "link)\n",
        at + 0.0002, driver, nic.pci, gbps_text(available), nic.pcie_gt_s, nic.pcie_width);
  }
  return out;
}

// The netdev's link state change in its driver's words: mlx5_core "Link up"/"Link down",
// bnxt_en "NIC Link is Up, <speed> Mbps full duplex, ..."/"NIC Link is Down".
std::string link_line(const Nic& nic, double at, bool up) {
  const std::string driver = nic_model(nic.vendor).driver;
  if (nic.vendor == Vendor::Bnxt) {
    return up ? fmt::format(
                    "[{:12.6f}] {} {} {}: NIC Link is Up, {} Mbps full duplex, Flow "
                    "control: ON - receive & transmit\n",
                    at, driver, nic.pci, nic.netdev, nic.speed_gbps * 1000)
              : fmt::format("[{:12.6f}] {} {} {}: NIC Link is Down\n", at, driver, nic.pci,
                            nic.netdev);
  }
  return fmt::format("[{:12.6f}] {} {} {}: Link {}\n", at, driver, nic.pci, nic.netdev,
                     up ? "up" : "down");
}

}  // namespace

long pcie_kernel_mbps(double gt_s, int width) {
  // 8b/10b below 8 GT/s, 128b/130b from gen3 on (gen6 FLIT is not simulated).
  const double per_lane = gt_s < 8.0 ? gt_s * 1000.0 * 8.0 / 10.0 : gt_s * 1000.0 * 128.0 / 130.0;
  return static_cast<long>(std::floor(per_lane)) * width;
}

std::string lspci_vvv(const Host& host) {
  std::string out;
  for (const Nic& nic : host.nics) {
    const bool slow = nic.pcie_gt_s < nic.pcie_max_gt_s;
    const bool narrow = nic.pcie_width < nic.pcie_max_width;
    const std::string driver = nic_model(nic.vendor).driver;
    out += fmt::format(
        "{} Ethernet controller: {}\n"
        "\tSubsystem: {}\n"
        "\tControl: I/O- Mem+ BusMaster+ SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- "
        "FastB2B- DisINTx+\n"
        "\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
        "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0, Latency L0s unlimited, L1 unlimited\n"
        "\t\tLnkCap:\tPort #0, Speed {}, Width x{}, ASPM not supported\n"
        "\t\t\tClockPM- Surprise- LLActRep- BwNot- ASPMOptComp+\n"
        "\t\tLnkSta:\tSpeed {}{}, Width x{}{}\n"
        "\t\t\tTrErr- Train- SlotClk+ DLActive- BWMgmt- ABWMgmt-\n"
        "\tKernel driver in use: {}\n"
        "\tKernel modules: {}\n\n",
        nic.pci.substr(5), device_name(nic), device_name(nic), lspci_rate(nic.pcie_max_gt_s),
        nic.pcie_max_width, lspci_rate(nic.pcie_gt_s), slow ? " (downgraded)" : "", nic.pcie_width,
        narrow ? " (downgraded)" : "", driver, driver);
  }
  return out;
}

std::string dmesg(const Host& host) {
  std::string out;
  double at = 1.444801;  // seconds since boot: each NIC probed a moment after the last
  for (const Nic& nic : host.nics) {
    out += pcie_lines(nic, at);
    at += 0.241;
  }
  // The netdevs come up once the drivers are loaded and the ports have trained.
  at += 6.5;
  for (const Nic& nic : host.nics) {
    out += link_line(nic, at, true);
    at += 0.113;
  }
  std::vector<std::pair<double, std::string>> flaps;
  for (const Nic& nic : host.nics) {
    // Spread over the uptime: drop, then train again a few seconds later.
    for (int k = 0; k < nic.kernel_flaps; ++k) {
      const double down = at + (host.uptime_s - at) * (k + 1) / (nic.kernel_flaps + 1);
      flaps.emplace_back(down, link_line(nic, down, false) + link_line(nic, down + 3.2, true));
    }
  }
  std::sort(flaps.begin(), flaps.end());
  for (const auto& flap : flaps) {
    out += flap.second;
  }
  return out;
}

}  // namespace netdoctor::sim
