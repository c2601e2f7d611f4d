// drops-buffers: where packets are dropped for lack of buffer. Reads the drop and transmit
// counters of every unicast queue of every switch port (show queue counters) and the receive
// discards of every NIC on the RoCE priority, or of the whole port where the driver does not
// count per priority (ethtool -S).
//
// A healthy fleet drops nothing on the RoCE queue: it is lossless, and RDMA's go-back-N
// turns each drop into a window of resent packets. A NIC discards nothing either, since it
// pauses its peer before its buffer overflows. Lossy queues drop under load, which is TCP's
// normal behaviour. Each port and NIC is judged against its own fleet, above a floor of
// drops per second that counter noise (the odd drop during a link retrain) stays under:
//   lossless-queue-drops  a port drops on its RoCE queue: buffer or headroom ran out;
//   lossy-queue-drops     a port drops on the other queues far above the rest: congestion of
//                         the traffic that may drop, weaker evidence;
//   nic-discards          a NIC discards received packets: its receive buffer overflows;
//   drops-at-lossy-nic    either kind of drop next to a NIC whose PFC is off on the RoCE
//                         priority (configured so, or visibly not pausing while it discards):
//                         that configuration, not buffer size, explains the drops.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// Hardware: SONiC ASICs number unicast queues 0..7 (some 0..9); the lossy set is every UC
// queue but the RoCE one.
constexpr int k_max_unicast_queue = 10;

struct PortDrops {
  const model::Switch* sw = nullptr;
  const model::SwitchPort* port = nullptr;
  Reading drops;
  Reading traffic;
};

struct Survey {
  int prio = 3;
  std::vector<PortDrops> lossless;  // ports with drop counters on the RoCE queue
  std::vector<PortDrops> lossy;     // ports with drop counters on the other unicast queues
  std::size_t port_total = 0;
  NicSurvey discards;  // receive discards per NIC (RoCE priority, else the port)
};

// One class of queue judged across the ports.
struct QueueClass {
  const char* signal = "";
  std::string what;       // "RoCE queue UC3", "lossy queues"
  double weight = 1.0;    // the share of its outlier strength a finding keeps
  bool lossless = false;  // only there does PFC at the NIC behind the port explain the drops
};

// The ports of one queue class in one mode: rates when any port has a rate over the window,
// else cumulative counts of one sample.
struct PortFleet {
  bool rates = false;
  FleetStats stats;
  std::string per;
};

Survey survey_drops(const Judgement& judgement) {
  Survey fleet;
  const int prio = fleet.prio = judgement.roce_priority();
  std::vector<int> lossy;
  for (int q = 0; q < k_max_unicast_queue; ++q) {
    if (q != prio) {
      lossy.push_back(q);
    }
  }
  for (const auto& sw : judgement.fabric().switches) {
    for (const auto& port : sw.ports) {
      ++fleet.port_total;
      PortDrops roce{&sw, &port, read_counter(port.samples, metric::k_sw_queue_drop_packets, prio),
                     read_counter(port.samples, metric::k_sw_queue_tx_packets, prio)};
      if (roce.drops.present()) {
        fleet.lossless.push_back(roce);
      }
      PortDrops other{&sw, &port, read_sum(port.samples, metric::k_sw_queue_drop_packets, lossy),
                      read_sum(port.samples, metric::k_sw_queue_tx_packets, lossy)};
      if (other.drops.present()) {
        fleet.lossy.push_back(other);
      }
    }
  }
  fleet.discards = survey_nics(judgement.fabric(), [prio](const model::Nic& nic) {
    Reading on_prio = read_counter(nic.samples, metric::k_prio_rx_discards, prio);
    return on_prio.present() || on_prio.status == model::RateStatus::Reset
               ? on_prio
               : read_counter(nic.samples, metric::k_port_rx_discards);
  });
  return fleet;
}

// Below the floor a drop count is counter noise, whatever the fleet does.
OutlierRule drop_rule(bool rates, const Judgement& judgement) {
  const double rate = judgement.limit("min_drop_rate");
  return judgement.outlier_rule(rates ? rate : judgement.cumulative_floor(rate));
}

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

// The NICs discarding far above the fleet: for them a silent pause counter means PFC is off.
std::set<const model::Nic*> discarding_nics(const Survey& fleet, const Judgement& judgement) {
  const OutlierRule rule = drop_rule(fleet.discards.rate_mode, judgement);
  std::set<const model::Nic*> discarding;
  for (const auto& value : fleet.discards.values) {
    if (assess_high(value.reading.value, fleet.discards.stats, rule).outlier) {
      discarding.insert(value.nic);
    }
  }
  return discarding;
}

double drop_share(const PortDrops& p) {
  double total = p.drops.value + p.traffic.value;
  return total > 0.0 ? p.drops.value / total : 0.0;
}

PortFleet port_fleet(const std::vector<PortDrops>& ports) {
  PortFleet fleet;
  fleet.rates =
      std::any_of(ports.begin(), ports.end(), [](const PortDrops& p) { return p.drops.is_rate(); });
  std::vector<double> values;
  for (const auto& p : ports) {
    if (p.drops.is_rate() == fleet.rates) {
      values.push_back(p.drops.value);
    }
  }
  fleet.stats = fleet_stats(values);
  fleet.per = fleet.rates ? "/s" : " (cumulative)";
  return fleet;
}

// One port whose drops stand out from the other ports of its queue class.
void find_port_drops(const PortDrops& p, const Deviation& dev, const PortFleet& ports,
                     const QueueClass& queue, const std::set<const model::Nic*>& discarding,
                     int prio, const NicsBehindPorts& behind, Judgement& judgement) {
  std::vector<std::string> entities{port_entity(p.sw->name, p.port->name)};
  const model::Nic* nic = behind.find(*p.sw, *p.port);
  const std::string lossy = nic != nullptr && queue.lossless
                                ? pfc_inactive(*nic, prio, discarding.count(nic) > 0)
                                : std::string();
  if (nic != nullptr) {
    append_unique(entities, nic->nic_entity());
  }
  // Drops facing a NIC whose PFC is off are that NIC's doing, not its switch's: naming the switch
  // on every such port would blame it more than the NIC it faces.
  if (lossy.empty()) {
    append_unique(entities, p.sw->entity());
  }
  judgement.find(
      lossy.empty() ? queue.signal : "drops-at-lossy-nic", entities, dev.strength * queue.weight,
      fmt::format("{}/{} drops {} packets{} on its {} ({} of that queue's traffic), "
                  "{}x the median port ({}{}){}",
                  p.sw->name, p.port->name, human(p.drops.value), ports.per, queue.what,
                  percent(drop_share(p)), human(dev.ratio), human(ports.stats.median), ports.per,
                  lossy.empty()
                      ? ""
                      : fmt::format("; the NIC behind it, {}: {}", nic->nic_entity(), lossy)),
      p.drops.value, ports.stats.median, ports.rates ? "packets/s" : "packets");
}

// Ports whose drops on one queue class stand out from the other ports.
void judge_ports(const std::vector<PortDrops>& ports, const QueueClass& queue,
                 const std::set<const model::Nic*>& discarding, int prio,
                 const NicsBehindPorts& behind, Judgement& judgement) {
  const PortFleet fleet = port_fleet(ports);
  const OutlierRule rule = drop_rule(fleet.rates, judgement);
  for (const auto& p : ports) {
    if (p.drops.is_rate() != fleet.rates) {
      continue;
    }
    const Deviation dev = assess_high(p.drops.value, fleet.stats, rule);
    if (dev.outlier) {
      find_port_drops(p, dev, fleet, queue, discarding, prio, behind, judgement);
    }
  }
}

// NICs discarding received packets far above the fleet.
void judge_nics(const Survey& fleet, const std::set<const model::Nic*>& discarding,
                Judgement& judgement) {
  const NicSurvey& nics = fleet.discards;
  const OutlierRule rule = drop_rule(nics.rate_mode, judgement);
  for (const auto& value : nics.values) {
    const Deviation dev = assess_high(value.reading.value, nics.stats, rule);
    if (!dev.outlier) {
      continue;
    }
    const std::string why_lossy =
        pfc_inactive(*value.nic, fleet.prio, discarding.count(value.nic) > 0);
    judgement.find(
        why_lossy.empty() ? "nic-discards" : "drops-at-lossy-nic", nic_entities(*value.nic),
        dev.strength,
        fmt::format("{} discards {} received packets{} for lack of buffer (priority {} or "
                    "port), fleet median {}{}{}",
                    nic_label(*value.nic), human(value.reading.value), per(nics), fleet.prio,
                    human(nics.stats.median), per(nics), why_lossy.empty() ? "" : "; " + why_lossy),
        value.reading.value, nics.stats.median, nics.rate_mode ? "packets/s" : "packets");
  }
}

class DropsBuffersProbe final : public FleetProbe<Survey> {
 public:
  DropsBuffersProbe()
      : FleetProbe(
            {.id = "drops-buffers",
             .description = "Drops on the lossless queue, NIC receive discards, lossy-queue drops",
             .cost = CostClass::Passive,
             .reads = {source::k_show_queue_counters, source::k_show_interfaces_counters,
                       source::k_ethtool_stats, source::k_mlnx_qos},
             .findings = {"lossless-queue-drops", "nic-discards", "lossy-queue-drops",
                          "drops-at-lossy-nic"},
             .clearing = "drops-clear",
             .thresholds = {"min_drop_rate", "lossy_drops_weight", "clear_strength"},
             .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override { return survey_drops(judgement); }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {
        {"switch ports", "show queue counters", fleet.lossless.size(), fleet.port_total},
        {"NICs", "ethtool -S discard counters", fleet.discards.with_data, fleet.discards.total}};
  }

  // The RoCE queue first: a drop there is the lossless promise broken. Drops on lossy queues
  // only show buffer pressure, so they keep part of their strength.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const std::set<const model::Nic*> discarding = discarding_nics(fleet, judgement);
    // Full strength: the lossless queue should never drop.
    const QueueClass roce{"lossless-queue-drops", fmt::format("RoCE queue UC{}", fleet.prio), 1.0,
                          true};
    const NicsBehindPorts behind(judgement.fabric());
    judge_ports(fleet.lossless, roce, discarding, fleet.prio, behind, judgement);
    const QueueClass others{"lossy-queue-drops", "lossy queues",
                            judgement.limit("lossy_drops_weight"), false};
    judge_ports(fleet.lossy, others, discarding, fleet.prio, behind, judgement);
    judge_nics(fleet, discarding, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const NicSurvey& nics = fleet.discards;
    Clearance clear;
    clear.summary = fmt::format(
        "no drops above the fleet: {} switch ports' RoCE queue UC{} and {} NICs' receive "
        "discards (NIC median {}{})",
        fleet.lossless.size(), fleet.prio, nics.values.size(), human(nics.stats.median), per(nics));
    clear.strength = judgement.limit("clear_strength");
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_drops_buffers_probe() {
  return std::make_unique<DropsBuffersProbe>();
}

}  // namespace netdoctor::probes
