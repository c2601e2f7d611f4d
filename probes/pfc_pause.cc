// pfc-pause: who originates PFC pause on the RoCE priority (sends far more than the fleet, or
// trips the NIC's pause-storm detector, or holds its peer paused most of the window), who
// suffers it (receives it), and whether pause is merely widespread (congestion).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/strings.h"
#include "probes/builtin.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// A few pause frames per second are ordinary microburst absorption; 100/s holds a 400G link
// at most ~1 % of the time (65535 quanta x 512 bit times ~ 84 us each), so below this no
// entity counts as pausing whatever the fleet does.
constexpr double k_min_pause_rate = 100.0;
// With one sample only cumulative counts exist: demand at least a minute of that rate.
constexpr double k_min_pause_count = k_min_pause_rate * 60.0;
// A sender paused half of the window has effectively stopped: a storm on its own.
constexpr double k_storm_share = 0.5;
// Where pause durations are counted, what pause costs is the share of time the peer is held:
// 5 % of the window is 5 % of the link's bandwidth, the deviation the field chases in a
// perftest baseline, so a storm's strength is half there. Below 1 % the pause costs less
// than run-to-run noise: a heavy pauser, not a storm.
constexpr double k_costly_share = 0.05;
constexpr double k_min_storm_share = 0.01;
// Widespread: a quarter of the entities pausing is a fabric condition, not one bad actor.
constexpr double k_widespread_fraction = 0.25;
constexpr std::size_t k_widespread_min_count = 3;
// Findings list at most this many victims; the summary gives the full count.
constexpr std::size_t k_max_listed = 16;

struct Origin {
  std::vector<std::string> entities;
  std::string summary;
  double strength = 0.0;
  double value = 0.0;
  double normal = 0.0;
  std::string switch_name;
  // Only its rate stands out: no storm detector event, not holding its peer paused most of
  // the window. Many of these together are congestion, not storms.
  bool rate_only = false;
};

// A storm is one NIC or a few going wrong; this many pausing hard at once is a fabric that
// cannot drain (congestion, late ECN), whatever each one's rate looks like against the fleet.
constexpr std::size_t k_congestion_group = 4;

class PfcPauseProbe final : public BasicProbe {
 public:
  PfcPauseProbe()
      : BasicProbe("pfc-pause",
                   "PFC pause on the RoCE priority: storm origin, victims, widespread pause",
                   CostClass::Passive, {"ethtool -S", "show pfc counters"},
                   {"pfc-storm-origin", "pfc-pause-victim", "pfc-pause-widespread", "pfc-quiet"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    const int prio = context.options.roce_priority;
    NicSurvey tx = survey_nics(fabric, [prio](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_pfc_tx_pause_frames, prio);
    });
    NicSurvey rx = survey_nics(fabric, [prio](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_pfc_rx_pause_frames, prio);
    });

    struct PortPause {
      const model::Switch* sw;
      const model::SwitchPort* port;
      Reading rx;  // pause received from the peer
      Reading tx;  // pause sent towards the peer
    };
    std::vector<PortPause> ports;
    std::size_t port_total = 0;
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        ++port_total;
        Reading prx = read_counter(port.samples, metric::k_sw_pfc_rx_pause_frames, prio);
        Reading ptx = read_counter(port.samples, metric::k_sw_pfc_tx_pause_frames, prio);
        if (prx.present() || ptx.present()) {
          ports.push_back(PortPause{&sw, &port, prx, ptx});
        }
      }
    }
    if (tx.with_data == 0 && rx.with_data == 0 && ports.empty()) {
      result.status = ProbeStatus::Skipped;
      result.reason = "no data for ethtool -S or show pfc counters (PFC pause counters)";
      return;
    }
    if (tx.with_data < tx.total) {
      add_note(result, fmt::format("partial coverage: {} of {} NICs have PFC pause counters",
                                   tx.with_data, tx.total));
    }
    if (ports.size() < port_total) {
      add_note(result,
               fmt::format("{} of {} switch ports have PFC counters", ports.size(), port_total));
    }
    if (!tx.resets.empty()) {
      add_note(result,
               fmt::format("pause counters reset on {} NICs (no rate for them)", tx.resets.size()));
    }
    const bool rate_mode = tx.rate_mode || rx.rate_mode;
    const double floor = rate_mode ? k_min_pause_rate : k_min_pause_count;
    const std::string unit = rate_mode ? "frames/s" : "frames";

    std::vector<Origin> origins;
    std::set<const model::Nic*> origin_nics;
    std::set<const model::Nic*> not_storms;  // pause duration shows the cost is negligible
    OutlierRule rule;
    rule.abs_floor = floor;
    for (const auto& value : tx.values) {
      const model::Nic& nic = *value.nic;
      Deviation dev = assess_high(value.reading.value, tx.stats, rule);
      double share = 0.0;
      Reading us = read_counter(nic.samples, metric::k_pfc_tx_pause_us, prio);
      if (us.is_rate()) {
        share = us.value / 1e6;
      }
      Reading warn = read_counter(nic.samples, metric::k_pause_storm_warning_events);
      Reading err = read_counter(nic.samples, metric::k_pause_storm_error_events);
      // The NIC's own storm detector: any new event in the window is a current storm.
      double storm_events = (warn.is_rate() ? warn.delta : 0.0) + (err.is_rate() ? err.delta : 0.0);
      bool storm_error = err.is_rate() && err.delta > 0.0;
      if (!dev.outlier && share < k_storm_share && storm_events <= 0.0) {
        continue;
      }
      if (us.is_rate() && share < k_min_storm_share && storm_events <= 0.0) {
        result.checked.push_back(fmt::format(
            "{} sends {} pause frames{} on priority {} ({}x the fleet) but held its link "
            "paused only {} of the window: not a storm",
            nic_label(nic), human(value.reading.value), per(tx), prio, human(dev.ratio),
            percent(share)));
        not_storms.insert(&nic);
        continue;
      }
      Origin origin;
      origin.entities = nic_entities(nic);
      if (const model::SwitchPort* port = cabled_port(fabric, nic)) {
        append_unique(origin.entities, link_entity(nic.netdev_entity(), nic.port_entity()));
        (void)port;
      }
      origin.value = value.reading.value;
      origin.normal = tx.stats.median;
      origin.switch_name = nic.switch_name;
      double rate_strength =
          us.is_rate() ? dev.strength * saturating(share, k_costly_share) : dev.strength;
      origin.strength = std::max({rate_strength, saturating(share, k_storm_share / 2.0),
                                  storm_error ? 0.95 : (storm_events > 0.0 ? 0.8 : 0.0)});
      std::string text =
          fmt::format("{} sends {} pause frames{} on priority {}, {}x the fleet median of {}{}",
                      nic_label(nic), human(value.reading.value), per(tx), prio, human(dev.ratio),
                      human(tx.stats.median), per(tx));
      if (us.is_rate()) {
        text += fmt::format("; it held its link paused {} of the window", percent(share));
      }
      if (storm_events > 0.0) {
        text += fmt::format("; {} pause-storm {} events in the window", human(storm_events),
                            storm_error ? "error" : "warning");
      }
      origin.summary = text;
      origin.rate_only = storm_events <= 0.0 && share < k_storm_share;
      origins.push_back(std::move(origin));
      origin_nics.insert(&nic);
    }
    const std::size_t rate_only_count = static_cast<std::size_t>(
        std::count_if(origins.begin(), origins.end(), [](const Origin& o) { return o.rate_only; }));
    std::vector<Origin> congested;  // NICs pausing together: evidence of congestion
    std::set<std::string> congested_switches;
    if (rate_only_count >= k_congestion_group) {
      auto split = std::stable_partition(origins.begin(), origins.end(),
                                         [](const Origin& o) { return !o.rate_only; });
      congested.assign(std::make_move_iterator(split), std::make_move_iterator(origins.end()));
      origins.erase(split, origins.end());
      origin_nics.clear();
      for (const auto& value : tx.values) {
        const std::string entity = value.nic->nic_entity();
        const auto named = [&entity](const Origin& o) { return o.entities.front() == entity; };
        if (std::any_of(origins.begin(), origins.end(), named)) {
          origin_nics.insert(value.nic);
        } else if (std::any_of(congested.begin(), congested.end(), named)) {
          not_storms.insert(value.nic);  // its switch port's view is the same congestion
          congested_switches.insert(value.nic->switch_name);
        }
      }
    }

    // Switch side: a port receiving far more pause than other ports names its peer.
    std::vector<double> port_rx_values;
    bool port_rates = false;
    for (const auto& p : ports) {
      port_rates = port_rates || p.rx.is_rate();
    }
    for (const auto& p : ports) {
      if (p.rx.present() && p.rx.is_rate() == port_rates) {
        port_rx_values.push_back(p.rx.value);
      }
    }
    FleetStats port_stats = fleet_stats(port_rx_values);
    OutlierRule port_rule;
    port_rule.abs_floor = port_rates ? k_min_pause_rate : k_min_pause_count;
    const std::string port_per = port_rates ? "/s" : " (cumulative)";
    std::vector<const PortPause*> between_switches;
    for (const auto& p : ports) {
      if (!p.rx.present() || p.rx.is_rate() != port_rates) {
        continue;
      }
      Deviation dev = assess_high(p.rx.value, port_stats, port_rule);
      if (!dev.outlier) {
        continue;
      }
      const model::Nic* nic = nic_behind(fabric, *p.sw, *p.port);
      std::string here = port_entity(p.sw->name, p.port->name);
      if (nic != nullptr && not_storms.count(nic) > 0) {
        continue;  // the NIC's own duration counter already judged this pause cheap
      }
      if (nic != nullptr && origin_nics.count(nic) > 0) {
        for (auto& origin : origins) {
          if (std::find(origin.entities.begin(), origin.entities.end(), nic->nic_entity()) !=
              origin.entities.end()) {
            origin.summary += fmt::format("; {} receives {} pause frames{} from it", here,
                                          human(p.rx.value), port_per);
            append_unique(origin.entities, here);
          }
        }
        continue;
      }
      if (nic == nullptr && is_switch_name(fabric, p.port->peer_device)) {
        // A switch pauses its neighbour switch when its own queues fill: that is pause
        // propagating from congestion or from a storm further down, never where one starts.
        between_switches.push_back(&p);
        continue;
      }
      Origin origin;
      if (nic != nullptr) {
        origin.entities = nic_entities(*nic);
        append_unique(origin.entities, here);
        origin_nics.insert(nic);
      } else {
        origin.entities.push_back(here);
      }
      origin.value = p.rx.value;
      origin.normal = port_stats.median;
      origin.switch_name = p.sw->name;
      origin.strength = dev.strength;
      std::string peer = p.port->peer_device.empty()
                             ? std::string("its peer")
                             : p.port->peer_device + "/" + p.port->peer_port;
      origin.summary = fmt::format(
          "{} receives {} pause frames{} on priority {} from {}, {}x the median switch port "
          "({}{})",
          here.substr(5), human(p.rx.value), port_per, prio, peer, human(dev.ratio),
          human(port_stats.median), port_per);
      origins.push_back(std::move(origin));
    }

    for (const auto& origin : origins) {
      result.findings.push_back(make_finding("pfc-storm-origin", origin.entities, origin.strength,
                                             origin.summary, origin.value, origin.normal, unit));
    }

    // Receivers of pause: NICs paused at or above the floor.
    std::vector<const NicValue*> paused;
    for (const auto& value : rx.values) {
      if (value.reading.value >= floor) {
        paused.push_back(&value);
      }
    }
    std::size_t paused_ports = 0;
    for (const auto& p : ports) {
      if (p.tx.present() && p.tx.value >= (p.tx.is_rate() ? k_min_pause_rate : k_min_pause_count)) {
        ++paused_ports;
      }
    }
    std::sort(paused.begin(), paused.end(), [](const NicValue* a, const NicValue* b) {
      return a->reading.value > b->reading.value;
    });

    if (!origins.empty()) {
      std::set<std::string> origin_switches;
      for (const auto& origin : origins) {
        origin_switches.insert(origin.switch_name);
      }
      std::vector<std::string> entities;
      std::size_t count = 0;
      double max_rate = 0.0;
      for (const NicValue* value : paused) {
        if (origin_nics.count(value->nic) > 0) {
          continue;
        }
        ++count;
        max_rate = std::max(max_rate, value->reading.value);
        if (entities.size() < k_max_listed) {
          append_unique(entities, value->nic->nic_entity());
        }
      }
      if (count > 0) {
        result.findings.push_back(make_finding(
            "pfc-pause-victim", entities, saturating(static_cast<double>(count), 2.0),
            fmt::format("{} NICs receive at least {} pause frames{} on priority {} (up to {}{}; "
                        "fleet median {}{}), held back by the origin",
                        count, human(floor), per(rx), prio, human(max_rate), per(rx),
                        human(rx.stats.median), per(rx)),
            max_rate, rx.stats.median, unit));
      }
      return;
    }

    // Judge hosts and switch ports each on their own: a fabric has many more switch ports
    // than NICs (uplinks, spines), which would dilute a host-side picture and vice versa.
    std::size_t observed = rx.values.size() + ports.size();
    std::size_t pausing = paused.size() + paused_ports;
    auto share = [](std::size_t part, std::size_t whole) {
      return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
    };
    double fraction =
        std::max(share(paused.size(), rx.values.size()), share(paused_ports, ports.size()));
    if (pausing >= k_widespread_min_count && fraction >= k_widespread_fraction) {
      std::map<std::string, std::size_t> by_switch;
      for (const NicValue* value : paused) {
        if (!value->nic->switch_name.empty()) {
          ++by_switch[value->nic->switch_name];
        }
      }
      std::vector<std::pair<std::size_t, std::string>> ranked;
      for (const auto& [name, n] : by_switch) {
        ranked.emplace_back(n, name);
      }
      std::sort(ranked.rbegin(), ranked.rend());
      std::vector<std::string> entities;
      for (const auto& [n, name] : ranked) {
        entities.push_back("switch:" + name);
      }
      result.findings.push_back(make_finding(
          "pfc-pause-widespread", entities, saturating(fraction, k_widespread_fraction),
          fmt::format("{} of {} NICs and switch ports receive or send at least {} pause "
                      "frames{} on priority {} (NIC median {}{}), with no single origin: "
                      "congestion",
                      pausing, observed, human(floor), per(rx), prio, human(rx.stats.median),
                      per(rx)),
          fraction * 100.0, k_widespread_fraction * 100.0, "% of entities"));
      return;
    }

    if (!congested.empty()) {
      std::vector<std::string> entities;
      double max_nic = 0.0;
      for (const std::string& name : congested_switches) {
        if (!name.empty()) {
          entities.push_back("switch:" + name);
        }
      }
      for (const Origin& origin : congested) {
        max_nic = std::max(max_nic, origin.value);
      }
      result.findings.push_back(make_finding(
          "pfc-pause-widespread", entities,
          saturating(static_cast<double>(congested.size()),
                     static_cast<double>(k_congestion_group)),
          fmt::format("{} NICs send pause on priority {} far above the fleet at once (up to "
                      "{}{}, fleet median {}{}), none holding its link paused half the window "
                      "and none tripping its storm detector: congestion behind {}, not a storm",
                      congested.size(), prio, human(max_nic), per(tx), human(tx.stats.median),
                      per(tx),
                      entities.empty() ? std::string("unknown switches") : join(entities, ", ")),
          max_nic, tx.stats.median, unit));
      return;
    }

    if (!between_switches.empty()) {
      // Switches pausing each other with no end device behind it: queues fill inside the
      // fabric (saturated uplinks, late ECN), the congestion picture, named by its switches.
      std::vector<std::string> entities;
      double max_port = 0.0;
      for (const PortPause* p : between_switches) {
        append_unique(entities, p->sw->entity());
        append_unique(entities, "switch:" + p->port->peer_device);
        max_port = std::max(max_port, p->rx.value);
      }
      result.findings.push_back(make_finding(
          "pfc-pause-widespread", entities,
          saturating(static_cast<double>(between_switches.size()), 2.0),
          fmt::format("{} switch-to-switch ports receive pause on priority {} far above the "
                      "median switch port (up to {}{}; median {}{}) with no NIC or host behind "
                      "it sending pause: congestion inside the fabric, not a storm",
                      between_switches.size(), prio, human(max_port), port_per,
                      human(port_stats.median), port_per),
          max_port, port_stats.median, unit));
      return;
    }

    double max_tx = 0.0;
    for (const auto& value : tx.values) {
      max_tx = std::max(max_tx, value.reading.value);
    }
    std::string quiet = fmt::format(
        "{} NICs send pause on priority {} at median {}{} (max {}{}); {} of {} entities "
        "paused at {} frames{} or more",
        tx.values.size(), prio, human(tx.stats.median), per(tx), human(max_tx), per(tx), pausing,
        observed, human(floor), per(rx));
    result.checked.push_back(quiet);
    result.findings.push_back(make_finding("pfc-quiet", {}, tx.with_data == tx.total ? 0.9 : 0.6,
                                           quiet, max_tx, tx.stats.median, unit));
  }
};

}  // namespace

std::unique_ptr<Probe> make_pfc_pause_probe() {
  return std::make_unique<PfcPauseProbe>();
}

}  // namespace netdoctor::probes
