// packet-size: is message rate, not bandwidth, what limits the job? Reads, per NIC, the bytes
// and packets it sends over the window on the RoCE priority (the port's when the driver does
// not count per priority) and its link speed (ethtool -S, sysfs counters), and the path MTU
// the hosts report (ibv_devinfo active_mtu).
//
// Bulk RDMA transfers fill the path MTU, so in a healthy fleet the mean packet size across the
// NICs lies well above a fraction of it; small packets on a saturated link are a different
// problem (there bandwidth is the limit):
//   small-packets  the fleet's mean packet size is far below the path MTU while its links are
//                  not busy: tiny messages, no batching; a fabric-wide condition, named by
//                  its NICs with the smallest packets.
#include <fmt/format.h>

#include <algorithm>

#include "probes/fleet_probe.h"
#include "probes/fleet_stats.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// Presentation: findings name at most this many of the smallest-packet NICs.
constexpr std::size_t k_max_listed = 8;
// Physics: bits per byte, for the line rate in bytes.
constexpr double k_bits_per_byte = 8.0;

struct Row {
  const model::Nic* nic = nullptr;
  double bytes = 0.0;
  double packets = 0.0;
  double utilisation = -1.0;  // < 0 when the speed is unknown
};

struct Survey {
  std::vector<Row> rows;  // NICs with byte and packet rates over the window
  std::vector<int> mtus;  // active_mtu of every NIC reporting one
  std::size_t total = 0;
  double bytes = 0.0;  // over every row, per second
  double packets = 0.0;
  double util = -1.0;  // median link utilisation; < 0 when no speed is known
};

// The RoCE priority's own figures when present, the port's otherwise.
std::optional<Row> nic_row(const model::Nic& nic, int prio) {
  Reading bytes = read_counter(nic.samples, metric::k_prio_tx_bytes, prio);
  Reading packets = read_counter(nic.samples, metric::k_prio_tx_packets, prio);
  if (!bytes.is_rate() || !packets.is_rate()) {
    bytes = read_counter(nic.samples, metric::k_port_tx_bytes);
    packets = read_counter(nic.samples, metric::k_port_tx_packets);
  }
  if (!bytes.is_rate() || !packets.is_rate() || packets.value <= 0.0) {
    return std::nullopt;
  }
  Reading all_bytes = read_counter(nic.samples, metric::k_port_tx_bytes);
  double line = nic.speed_gbps ? *nic.speed_gbps * 1e9 / k_bits_per_byte : 0.0;
  double carried = all_bytes.is_rate() ? std::max(all_bytes.value, bytes.value) : bytes.value;
  return Row{&nic, bytes.value, packets.value, line > 0.0 ? carried / line : -1.0};
}

std::string util_text(const Survey& fleet) {
  return fleet.util < 0.0 ? std::string("link utilisation unknown")
                          : fmt::format("median link utilisation {}", percent(fleet.util));
}

class PacketSizeProbe final : public FleetProbe<Survey> {
 public:
  PacketSizeProbe()
      : FleetProbe(
            {.id = "packet-size",
             .description = "Mean packet size against the MTU, and link utilisation",
             .cost = CostClass::Passive,
             .reads = {source::k_ethtool_stats, source::k_sysfs_counters, source::k_sysfs_port},
             .findings = {"small-packets"},
             .clearing = "packet-size-normal",
             .thresholds = {"small_fraction_of_mtu", "max_busy_utilisation", "default_path_mtu",
                            "small_half_ratio", "unknown_utilisation_weight", "normal_strength"}}) {
  }

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.total;
        if (nic.active_mtu) {
          fleet.mtus.push_back(*nic.active_mtu);
        }
        if (auto row = nic_row(nic, judgement.roce_priority())) {
          fleet.rows.push_back(*row);
        }
      }
    }
    std::vector<double> utils;
    for (const auto& row : fleet.rows) {
      fleet.bytes += row.bytes;
      fleet.packets += row.packets;
      if (row.utilisation >= 0.0) {
        utils.push_back(row.utilisation);
      }
    }
    fleet.util = utils.empty() ? -1.0 : median_of(utils);
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "ethtool -S or sysfs counters (byte and packet counters over two samples)",
             fleet.rows.size(), fleet.total}};
  }

  // Small packets count only on links that are not busy: there the packet rate limits.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const double mean_size = fleet.bytes / fleet.packets;
    const double mtu = path_mtu(fleet, judgement);
    const double small_size = judgement.limit("small_fraction_of_mtu") * mtu;
    const bool small = mean_size < small_size;
    const bool idle = fleet.util < 0.0 || fleet.util < judgement.limit("max_busy_utilisation");
    if (!small || !idle) {
      return;
    }
    std::vector<Row> rows = fleet.rows;
    std::sort(rows.begin(), rows.end(),
              [](const Row& a, const Row& b) { return a.bytes / a.packets < b.bytes / b.packets; });
    std::vector<std::string> entities;
    for (std::size_t i = 0; i < rows.size() && i < k_max_listed; ++i) {
      entities.push_back(rows[i].nic->nic_entity());
    }
    double strength = saturating(small_size / mean_size, judgement.limit("small_half_ratio"));
    if (fleet.util < 0.0) {
      strength *= judgement.limit("unknown_utilisation_weight");
    }
    judgement.find(
        "small-packets", entities, strength,
        fmt::format("mean packet size across {} NICs is {:.0f} bytes, {} of the {:.0f}-byte "
                    "path MTU, at {} packets/s in total; {}",
                    rows.size(), mean_size, percent(mean_size / mtu), mtu, human(fleet.packets),
                    util_text(fleet)),
        mean_size, mtu, "bytes/packet");
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const double mean_size = fleet.bytes / fleet.packets;
    const double mtu = path_mtu(fleet, judgement);
    return {.summary = fmt::format("mean packet size {:.0f} bytes over {} NICs (path MTU {:.0f}); "
                                   "{}",
                                   mean_size, fleet.rows.size(), mtu, util_text(fleet)),
            .strength = judgement.limit("normal_strength"),
            .value = mean_size,
            .fleet_normal = mtu,
            .unit = "bytes/packet"};
  }

 private:
  // The fleet's most common active_mtu, or the usual one when no host reports any.
  static double path_mtu(const Survey& fleet, const Judgement& judgement) {
    if (const auto mode = int_mode_of(fleet.mtus)) {
      return static_cast<double>(*mode);
    }
    return judgement.limit("default_path_mtu");
  }
};

}  // namespace

std::unique_ptr<Probe> make_packet_size_probe() {
  return std::make_unique<PacketSizeProbe>();
}

}  // namespace netdoctor::probes
