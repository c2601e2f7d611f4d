// traffic-isolation: is the RoCE priority carrying RDMA only? Reads, per NIC and per
// direction, the bytes on the RoCE priority and the RDMA bytes over the same window
// (ethtool -S, two samples); what the priority carries beyond RDMA is foreign traffic, such as
// storage or other TCP classified into the lossless class, where it competes with RoCE and
// triggers pause.
//
// In a healthy fleet the two figures agree on every NIC to within a few percent: they are
// counted at slightly different layers (headers, CNPs), so a small disagreement is
// accounting, not foreign traffic. A fleet whose counters all disagree alike is accounting
// too, so a NIC must also stand out from the fleet's median:
//   non-rdma-on-lossless  a NIC sends or receives non-RDMA bytes on the RoCE priority beyond
//                         the accounting tolerance and above the fleet.
#include <fmt/format.h>

#include <algorithm>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

struct Share {
  double share = 0.0;    // non-RDMA bytes / priority bytes
  double foreign = 0.0;  // non-RDMA bytes/s on the priority
  bool ok = false;
};

struct Row {
  const model::Host* host = nullptr;
  const model::Nic* nic = nullptr;
  Share tx;
  Share rx;
  double worst() const { return std::max(tx.ok ? tx.share : 0.0, rx.ok ? rx.share : 0.0); }
};

struct Survey {
  int prio = 3;
  std::vector<Row> rows;  // NICs with both byte counters over the window, in one direction
  std::size_t total = 0;
  double median_share = 0.0;  // the fleet's median of each NIC's worst direction
};

Share foreign_share(const model::Nic& nic, int prio, const char* prio_name, const char* rdma_name) {
  Share out;
  Reading on_prio = read_counter(nic.samples, prio_name, prio);
  Reading rdma = read_counter(nic.samples, rdma_name);
  if (!on_prio.is_rate() || !rdma.is_rate() || on_prio.value <= 0.0) {
    return out;
  }
  out.foreign = std::max(0.0, on_prio.value - rdma.value);
  out.share = out.foreign / on_prio.value;
  out.ok = true;
  return out;
}

void find_foreign(const Survey& fleet, const Row& row, double share, Judgement& judgement) {
  bool tx_side = row.tx.ok && row.tx.share >= (row.rx.ok ? row.rx.share : 0.0);
  const Share& s = tx_side ? row.tx : row.rx;
  std::vector<std::string> entities = nic_entities(*row.nic, false);
  entities.push_back(row.host->entity());
  judgement.find(
      "non-rdma-on-lossless", entities, saturating(share, judgement.limit("foreign_half_share")),
      fmt::format("{} {} {}/s of non-RDMA traffic on RoCE priority {} ({} of that "
                  "priority's bytes; fleet median {})",
                  nic_label(*row.nic), tx_side ? "sends" : "receives", human(s.foreign) + "B",
                  fleet.prio, percent(share), percent(fleet.median_share)),
      share * 100.0, fleet.median_share * 100.0, "% of priority bytes");
}

class TrafficIsolationProbe final : public FleetProbe<Survey> {
 public:
  TrafficIsolationProbe()
      : FleetProbe({.id = "traffic-isolation",
                    .description = "Non-RDMA bytes on the RoCE priority per NIC",
                    .cost = CostClass::Passive,
                    .reads = {source::k_ethtool_stats, source::k_sysfs_hw_counters},
                    .findings = {"non-rdma-on-lossless"},
                    .clearing = "isolation-ok",
                    .thresholds = {"max_foreign_share", "min_share_over_fleet",
                                   "foreign_half_share", "ok_strength"},
                    .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    const int prio = fleet.prio = judgement.roce_priority();
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.total;
        Row row{&host, &nic,
                foreign_share(nic, prio, metric::k_prio_tx_bytes, metric::k_rdma_tx_bytes),
                foreign_share(nic, prio, metric::k_prio_rx_bytes, metric::k_rdma_rx_bytes)};
        if (row.tx.ok || row.rx.ok) {
          fleet.rows.push_back(row);
        }
      }
    }
    std::vector<double> shares;
    for (const auto& row : fleet.rows) {
      shares.push_back(row.worst());
    }
    fleet.median_share = median_of(shares);
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "ethtool -S (per-priority and RDMA byte counters over two samples)",
             fleet.rows.size(), fleet.total}};
  }

  // Foreign bytes beyond the accounting tolerance, and standing out from the fleet.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const double max_share = judgement.limit("max_foreign_share");
    const double over_fleet = judgement.limit("min_share_over_fleet");
    for (const auto& row : fleet.rows) {
      const double share = row.worst();
      if (share <= max_share || share - fleet.median_share < over_fleet) {
        continue;
      }
      find_foreign(fleet, row, share, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance clear;
    clear.summary = fmt::format(
        "RoCE priority {} carries RDMA only on {} NICs (non-RDMA "
        "share median {})",
        fleet.prio, fleet.rows.size(), percent(fleet.median_share));
    clear.strength = judgement.limit("ok_strength");
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_traffic_isolation_probe() {
  return std::make_unique<TrafficIsolationProbe>();
}

}  // namespace netdoctor::probes
