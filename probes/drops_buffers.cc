// drops-buffers: drops on the RoCE (lossless) queue of switch ports, receive discards on the
// NICs, and drops on lossy queues, each judged against the fleet and against the traffic.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

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

// Why PFC is not holding the RoCE priority lossless at this NIC, or empty. A NIC with PFC
// off there neither pauses nor honours pause, so drops at it or at the switch port facing it
// come from that configuration, not from a queue too small for the load. Where no QoS config
// was captured (no mlnx_qos for Broadcom NICs), the counters say it: a NIC with PFC on pauses
// its peer before its buffer overflows, so discarding while sending no pause at all means PFC
// is not active there.
std::string pfc_inactive(const model::Nic& nic, int prio, bool discarding) {
  const auto slot = static_cast<std::size_t>(prio);
  if (slot < nic.qos.pfc_enabled.size() && nic.qos.pfc_enabled[slot].has_value()) {
    return *nic.qos.pfc_enabled[slot] ? std::string()
                                      : fmt::format("its PFC is off on priority {}", prio);
  }
  if (!discarding) {
    return {};
  }
  const Reading pause = read_counter(nic.samples, metric::k_pfc_tx_pause_frames, prio);
  if (pause.is_rate() && pause.delta <= 0.0) {
    return fmt::format(
        "it sends no PFC pause on priority {} while discarding, so PFC is not "
        "active there",
        prio);
  }
  return {};
}

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
            {"lossless-queue-drops", "nic-discards", "lossy-queue-drops", "drops-at-lossy-nic",
             "drops-clear"}) {}

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
    OutlierRule rule;
    rule.abs_floor = nic.rate_mode ? k_min_drop_rate : k_min_drop_count;
    std::set<const model::Nic*> discarding;
    for (const auto& value : nic.values) {
      if (assess_high(value.reading.value, nic.stats, rule).outlier) {
        discarding.insert(value.nic);
      }
    }
    const auto lossy_reason = [&discarding, prio](const model::Nic& n) {
      return pfc_inactive(n, prio, discarding.count(&n) > 0);
    };

    bool found = false;
    found |= judge_ports(lossless_ports, "lossless-queue-drops", prio, fabric, result, 1.0,
                         lossy_reason);
    found |= judge_ports(lossy_ports, "lossy-queue-drops", -1, fabric, result, 0.5, nullptr);

    for (const auto& value : nic.values) {
      Deviation dev = assess_high(value.reading.value, nic.stats, rule);
      if (!dev.outlier) {
        continue;
      }
      found = true;
      const std::string why_lossy = lossy_reason(*value.nic);
      result.findings.push_back(make_finding(
          why_lossy.empty() ? "nic-discards" : "drops-at-lossy-nic", nic_entities(*value.nic),
          dev.strength,
          fmt::format("{} discards {} received packets{} for lack of buffer (priority {} or "
                      "port), fleet median {}{}{}",
                      nic_label(*value.nic), human(value.reading.value), per(nic), prio,
                      human(nic.stats.median), per(nic), why_lossy.empty() ? "" : "; " + why_lossy),
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
  // `lossy_reason` (lossless queue only) says why PFC is not active at the NIC behind a port.
  static bool judge_ports(const std::vector<PortDrops>& ports, const std::string& signal, int queue,
                          const model::Fabric& fabric, ProbeResult& result, double weight,
                          const std::function<std::string(const model::Nic&)>& lossy_reason) {
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
      const model::Nic* nic = nic_behind(fabric, *p.sw, *p.port);
      const std::string lossy = nic != nullptr && lossy_reason ? lossy_reason(*nic) : "";
      if (nic != nullptr) {
        append_unique(entities, nic->nic_entity());
      }
      append_unique(entities, p.sw->entity());
      result.findings.push_back(make_finding(
          lossy.empty() ? signal : "drops-at-lossy-nic", entities, dev.strength * weight,
          fmt::format("{}/{} drops {} packets{} on its {} ({} of that queue's traffic), "
                      "{}x the median port ({}{}){}",
                      p.sw->name, p.port->name, human(p.drops.value), suffix, what,
                      percent(drop_share(p)), human(dev.ratio), human(stats.median), suffix,
                      lossy.empty()
                          ? ""
                          : fmt::format("; the NIC behind it, {}: {}", nic->nic_entity(), lossy)),
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
