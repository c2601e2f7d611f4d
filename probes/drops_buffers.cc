// drops-buffers: drops on the RoCE (lossless) queue of switch ports, receive discards on the
// NICs, and drops on lossy queues, each judged against the fleet and against the traffic.
#include <fmt/format.h>

#include <algorithm>

#include "probes/builtin.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// A lossless queue should never drop, but counters carry noise (the odd drop during a link
// retrain); one drop per second sustained over the window is a real loss rate for RDMA,
// whose go-back-N retransmission turns each drop into a window of resent packets.
constexpr double k_min_drop_rate = 1.0;
// One sample: demand at least a minute's worth at that rate in the cumulative count.
constexpr double k_min_drop_count = k_min_drop_rate * 60.0;
// SONiC ASICs number unicast queues 0..7 (some 0..9); the lossy set is every UC queue but the
// RoCE one.
constexpr int k_max_unicast_queue = 10;

struct PortDrops {
  const model::Switch* sw = nullptr;
  const model::SwitchPort* port = nullptr;
  Reading drops;
  Reading traffic;
};

double drop_share(const PortDrops& p) {
  double total = p.drops.value + p.traffic.value;
  return total > 0.0 ? p.drops.value / total : 0.0;
}

class DropsBuffersProbe final : public BasicProbe {
 public:
  DropsBuffersProbe()
      : BasicProbe(
            "drops-buffers", "Drops on the lossless queue, NIC receive discards, lossy-queue drops",
            CostClass::Passive, {"show queue counters", "show interfaces counters", "ethtool -S"},
            {"lossless-queue-drops", "nic-discards", "lossy-queue-drops", "drops-clear"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    const int prio = context.options.roce_priority;
    std::vector<int> lossy;
    for (int q = 0; q < k_max_unicast_queue; ++q) {
      if (q != prio) {
        lossy.push_back(q);
      }
    }
    std::vector<PortDrops> lossless_ports;
    std::vector<PortDrops> lossy_ports;
    std::size_t port_total = 0;
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        ++port_total;
        PortDrops p{&sw, &port, read_counter(port.samples, metric::k_sw_queue_drop_packets, prio),
                    read_counter(port.samples, metric::k_sw_queue_tx_packets, prio)};
        if (p.drops.present()) {
          lossless_ports.push_back(p);
        }
        PortDrops l{&sw, &port, read_sum(port.samples, metric::k_sw_queue_drop_packets, lossy),
                    read_sum(port.samples, metric::k_sw_queue_tx_packets, lossy)};
        if (l.drops.present()) {
          lossy_ports.push_back(l);
        }
      }
    }
    NicSurvey nic = survey_nics(fabric, [prio](const model::Nic& n) {
      Reading r = read_counter(n.samples, metric::k_prio_rx_discards, prio);
      return r.present() || r.status == model::RateStatus::Reset
                 ? r
                 : read_counter(n.samples, metric::k_port_rx_discards);
    });
    if (lossless_ports.empty() && nic.with_data == 0) {
      result.status = ProbeStatus::Skipped;
      result.reason = "no data for show queue counters or ethtool -S (drop counters)";
      return;
    }
    if (lossless_ports.size() < port_total) {
      add_note(result, fmt::format("{} of {} switch ports have queue counters",
                                   lossless_ports.size(), port_total));
    }
    if (nic.with_data < nic.total) {
      add_note(result, fmt::format("partial coverage: {} of {} NICs have discard counters",
                                   nic.with_data, nic.total));
    }
    bool found = false;
    found |= judge_ports(lossless_ports, "lossless-queue-drops", prio, fabric, result, 1.0);
    found |= judge_ports(lossy_ports, "lossy-queue-drops", -1, fabric, result, 0.5);

    OutlierRule rule;
    rule.abs_floor = nic.rate_mode ? k_min_drop_rate : k_min_drop_count;
    for (const auto& value : nic.values) {
      Deviation dev = assess_high(value.reading.value, nic.stats, rule);
      if (!dev.outlier) {
        continue;
      }
      found = true;
      result.findings.push_back(make_finding(
          "nic-discards", nic_entities(*value.nic), dev.strength,
          fmt::format("{} discards {} received packets{} for lack of buffer (priority {} or "
                      "port), fleet median {}{}",
                      nic_label(*value.nic), human(value.reading.value), per(nic), prio,
                      human(nic.stats.median), per(nic)),
          value.reading.value, nic.stats.median, nic.rate_mode ? "packets/s" : "packets"));
    }
    if (!found) {
      std::string text = fmt::format(
          "no drops above the fleet: {} switch ports' RoCE queue UC{} and {} NICs' receive "
          "discards (NIC median {}{})",
          lossless_ports.size(), prio, nic.values.size(), human(nic.stats.median), per(nic));
      result.checked.push_back(text);
      result.findings.push_back(make_finding("drops-clear", {}, 0.8, text));
    }
  }

 private:
  // Flags ports whose drops stand out from the other ports; `queue` < 0 means lossy queues.
  static bool judge_ports(const std::vector<PortDrops>& ports, const std::string& signal, int queue,
                          const model::Fabric& fabric, ProbeResult& result, double weight) {
    bool rates = std::any_of(ports.begin(), ports.end(),
                             [](const PortDrops& p) { return p.drops.is_rate(); });
    std::vector<double> values;
    for (const auto& p : ports) {
      if (p.drops.is_rate() == rates) {
        values.push_back(p.drops.value);
      }
    }
    FleetStats stats = fleet_stats(values);
    OutlierRule rule;
    rule.abs_floor = rates ? k_min_drop_rate : k_min_drop_count;
    const std::string suffix = rates ? "/s" : " (cumulative)";
    const std::string what = queue >= 0 ? fmt::format("RoCE queue UC{}", queue) : "lossy queues";
    bool found = false;
    for (const auto& p : ports) {
      if (p.drops.is_rate() != rates) {
        continue;
      }
      Deviation dev = assess_high(p.drops.value, stats, rule);
      if (!dev.outlier) {
        continue;
      }
      found = true;
      std::vector<std::string> entities{port_entity(p.sw->name, p.port->name)};
      if (const model::Nic* nic = nic_behind(fabric, *p.sw, *p.port)) {
        append_unique(entities, nic->nic_entity());
      }
      append_unique(entities, p.sw->entity());
      result.findings.push_back(make_finding(
          signal, entities, dev.strength * weight,
          fmt::format("{}/{} drops {} packets{} on its {} ({} of that queue's traffic), "
                      "{}x the median port ({}{})",
                      p.sw->name, p.port->name, human(p.drops.value), suffix, what,
                      percent(drop_share(p)), human(dev.ratio), human(stats.median), suffix),
          p.drops.value, stats.median, rates ? "packets/s" : "packets"));
    }
    return found;
  }
};

}  // namespace

std::unique_ptr<Probe> make_drops_buffers_probe() {
  return std::make_unique<DropsBuffersProbe>();
}

}  // namespace netdoctor::probes
