// packet-size: mean packet size over the window. Traffic dominated by small packets (far
// below the MTU) while links are far from line rate means message rate, not bandwidth,
// limits the job: a fabric-wide condition, named by its worst NICs.
#include <fmt/format.h>

#include <algorithm>

#include "probes/builtin.h"
#include "probes/fleet_stats.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// Bulk RDMA transfers fill the path MTU; a mean below a quarter of it means most messages
// are a few hundred bytes (or ~1 KB at 4096 MTU).
constexpr double k_small_fraction_of_mtu = 0.25;
// "Not busy": mean link utilisation below half of line rate. Small packets on a saturated
// link are a different problem (it's then the bandwidth that limits).
constexpr double k_max_busy_utilisation = 0.5;
// RoCE path MTU when no host reports one (the usual 4096 of a 9000-byte netdev).
constexpr double k_default_path_mtu = 4096.0;
// Findings name at most this many of the smallest-packet NICs.
constexpr std::size_t k_max_listed = 8;

class PacketSizeProbe final : public BasicProbe {
 public:
  PacketSizeProbe()
      : BasicProbe("packet-size", "Mean packet size against the MTU, and link utilisation",
                   CostClass::Passive, {"ethtool -S", "sysfs counters"},
                   {"small-packets", "packet-size-normal"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const int prio = context.options.roce_priority;
    struct Row {
      const model::Nic* nic;
      double bytes;
      double packets;
      double utilisation;  // < 0 when the speed is unknown
    };
    std::vector<Row> rows;
    std::vector<int> mtus;
    std::size_t total = 0;
    for (const auto& host : context.fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++total;
        if (nic.active_mtu) {
          mtus.push_back(*nic.active_mtu);
        }
        // The RoCE priority's own figures when present, the port's otherwise.
        Reading bytes = read_counter(nic.samples, metric::k_prio_tx_bytes, prio);
        Reading packets = read_counter(nic.samples, metric::k_prio_tx_packets, prio);
        if (!bytes.is_rate() || !packets.is_rate()) {
          bytes = read_counter(nic.samples, metric::k_port_tx_bytes);
          packets = read_counter(nic.samples, metric::k_port_tx_packets);
        }
        if (!bytes.is_rate() || !packets.is_rate() || packets.value <= 0.0) {
          continue;
        }
        Reading all_bytes = read_counter(nic.samples, metric::k_port_tx_bytes);
        double line = nic.speed_gbps ? *nic.speed_gbps * 1e9 / 8.0 : 0.0;
        double carried = all_bytes.is_rate() ? std::max(all_bytes.value, bytes.value) : bytes.value;
        rows.push_back(Row{&nic, bytes.value, packets.value, line > 0.0 ? carried / line : -1.0});
      }
    }
    if (!apply_coverage(result, rows.size(), total, "NICs",
                        "ethtool -S or sysfs counters (byte and packet counters over two "
                        "samples)")) {
      return;
    }
    double bytes = 0.0;
    double packets = 0.0;
    std::vector<double> utils;
    for (const auto& row : rows) {
      bytes += row.bytes;
      packets += row.packets;
      if (row.utilisation >= 0.0) {
        utils.push_back(row.utilisation);
      }
    }
    double mean_size = bytes / packets;
    double mtu =
        mtus.empty() ? k_default_path_mtu : static_cast<double>(int_mode_of(mtus).value_or(4096));
    double util = utils.empty() ? -1.0 : median_of(utils);
    std::string util_text = util < 0.0 ? std::string("link utilisation unknown")
                                       : fmt::format("median link utilisation {}", percent(util));
    bool small = mean_size < k_small_fraction_of_mtu * mtu;
    bool idle = util < 0.0 || util < k_max_busy_utilisation;
    if (small && idle) {
      std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.bytes / a.packets < b.bytes / b.packets;
      });
      std::vector<std::string> entities;
      for (std::size_t i = 0; i < rows.size() && i < k_max_listed; ++i) {
        entities.push_back(rows[i].nic->nic_entity());
      }
      double strength = saturating(k_small_fraction_of_mtu * mtu / mean_size, 1.5);
      if (util < 0.0) {
        strength *= 0.7;  // cannot confirm the links are not busy
      }
      result.findings.push_back(make_finding(
          "small-packets", entities, strength,
          fmt::format("mean packet size across {} NICs is {:.0f} bytes, {} of the {:.0f}-byte "
                      "path MTU, at {} packets/s in total; {}",
                      rows.size(), mean_size, percent(mean_size / mtu), mtu, human(packets),
                      util_text),
          mean_size, mtu, "bytes/packet"));
      return;
    }
    std::string text = fmt::format(
        "mean packet size {:.0f} bytes over {} NICs (path MTU {:.0f}); "
        "{}",
        mean_size, rows.size(), mtu, util_text);
    result.checked.push_back(text);
    result.findings.push_back(
        make_finding("packet-size-normal", {}, 0.8, text, mean_size, mtu, "bytes/packet"));
  }
};

}  // namespace

std::unique_ptr<Probe> make_packet_size_probe() {
  return std::make_unique<PacketSizeProbe>();
}

}  // namespace netdoctor::probes
