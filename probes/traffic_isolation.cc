// traffic-isolation: bytes on the RoCE priority that are not RDMA (storage or other TCP
// classified into the lossless class), per NIC against the fleet.
#include <fmt/format.h>

#include <algorithm>

#include "probes/builtin.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// The RoCE priority should carry RDMA only; the per-priority and RDMA byte counters are
// kept at slightly different layers (headers, CNPs), so a few percent of disagreement is
// accounting, not foreign traffic.
constexpr double k_max_foreign_share = 0.05;
// And the share must stand out from the fleet by this much (absolute), so a fleet whose
// counters all disagree by 7 % for accounting reasons is not flagged wholesale.
constexpr double k_min_share_over_fleet = 0.05;

struct Share {
  double share = 0.0;    // non-RDMA bytes / priority bytes
  double foreign = 0.0;  // non-RDMA bytes/s on the priority
  bool ok = false;
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

class TrafficIsolationProbe final : public BasicProbe {
 public:
  TrafficIsolationProbe()
      : BasicProbe("traffic-isolation", "Non-RDMA bytes on the RoCE priority per NIC",
                   CostClass::Passive, {"ethtool -S"}, {"non-rdma-on-lossless", "isolation-ok"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const int prio = context.options.roce_priority;
    struct Row {
      const model::Host* host;
      const model::Nic* nic;
      Share tx;
      Share rx;
      double worst() const { return std::max(tx.ok ? tx.share : 0.0, rx.ok ? rx.share : 0.0); }
    };
    std::vector<Row> rows;
    std::size_t total = 0;
    for (const auto& host : context.fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++total;
        Row row{&host, &nic,
                foreign_share(nic, prio, metric::k_prio_tx_bytes, metric::k_rdma_tx_bytes),
                foreign_share(nic, prio, metric::k_prio_rx_bytes, metric::k_rdma_rx_bytes)};
        if (row.tx.ok || row.rx.ok) {
          rows.push_back(row);
        }
      }
    }
    if (!apply_coverage(result, rows.size(), total, "NICs",
                        "ethtool -S (per-priority and RDMA byte counters over two samples)")) {
      return;
    }
    std::vector<double> shares;
    for (const auto& row : rows) {
      shares.push_back(row.worst());
    }
    double fleet = median_of(shares);
    bool found = false;
    for (const auto& row : rows) {
      double share = row.worst();
      if (share <= k_max_foreign_share || share - fleet < k_min_share_over_fleet) {
        continue;
      }
      found = true;
      bool tx_side = row.tx.ok && row.tx.share >= (row.rx.ok ? row.rx.share : 0.0);
      const Share& s = tx_side ? row.tx : row.rx;
      std::vector<std::string> entities = nic_entities(*row.nic, false);
      entities.push_back(row.host->entity());
      result.findings.push_back(make_finding(
          "non-rdma-on-lossless", entities, saturating(share, 2.0 * k_max_foreign_share),
          fmt::format("{} {} {}/s of non-RDMA traffic on RoCE priority {} ({} of that "
                      "priority's bytes; fleet median {})",
                      nic_label(*row.nic), tx_side ? "sends" : "receives", human(s.foreign) + "B",
                      prio, percent(share), percent(fleet)),
          share * 100.0, fleet * 100.0, "% of priority bytes"));
    }
    if (!found) {
      std::string text = fmt::format(
          "RoCE priority {} carries RDMA only on {} NICs (non-RDMA "
          "share median {})",
          prio, rows.size(), percent(fleet));
      result.checked.push_back(text);
      result.findings.push_back(make_finding("isolation-ok", {}, 0.8, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_traffic_isolation_probe() {
  return std::make_unique<TrafficIsolationProbe>();
}

}  // namespace netdoctor::probes
