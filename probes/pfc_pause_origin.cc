// pfc-pause, who originates pause: a NIC sending far more than the fleet, tripping its own
// storm detector or holding its peer paused for much of the window; or, seen from the switch,
// a port receiving far more pause than the other ports, or whose PFC watchdog detected storms
// (pfc_pause_watchdog.cc), which names the device behind it.
#include <fmt/format.h>

#include <algorithm>

#include "probes/metric_names.h"
#include "probes/pfc_pause.h"

namespace netdoctor::probes::pfc_pause {
namespace {

// How the NIC's own counters describe the pause it sends.
struct SentPause {
  Deviation deviation;  // its rate against the fleet
  Reading duration;     // microseconds its peer was held, per second
  double share = 0.0;   // of the window the peer was held paused
  double storm_events = 0.0;
  bool storm_error = false;
};

SentPause sent_pause(const Survey& fleet, const NicValue& value, const OutlierRule& rule) {
  const model::Nic& nic = *value.nic;
  SentPause sent;
  sent.deviation = assess_high(value.reading.value, fleet.sent.stats, rule);
  sent.duration = read_counter(nic.samples, metric::k_pfc_tx_pause_us, fleet.prio);
  if (sent.duration.is_rate()) {
    sent.share = sent.duration.value / 1e6;
  }
  const Reading warn = read_counter(nic.samples, metric::k_pause_storm_warning_events);
  const Reading err = read_counter(nic.samples, metric::k_pause_storm_error_events);
  // The NIC's own storm detector: any new event in the window is a current storm.
  sent.storm_events = (warn.is_rate() ? warn.delta : 0.0) + (err.is_rate() ? err.delta : 0.0);
  sent.storm_error = err.is_rate() && err.delta > 0.0;
  return sent;
}

Origin nic_origin(const Survey& fleet, const NicValue& value, const SentPause& sent,
                  const Judgement& judgement) {
  const model::Nic& nic = *value.nic;
  const double storm_share = judgement.limit("storm_share");
  Origin origin;
  origin.entities = nic_entities(nic);
  if (cabled_port(judgement.fabric(), nic) != nullptr) {
    append_unique(origin.entities, link_entity(nic.netdev_entity(), nic.port_entity()));
  }
  origin.value = value.reading.value;
  origin.normal = fleet.sent.stats.median;
  origin.switch_name = nic.switch_name;
  // Where durations are counted, what pause costs is the share of time the peer is held.
  const double rate_strength =
      sent.duration.is_rate()
          ? sent.deviation.strength * saturating(sent.share, judgement.limit("costly_share"))
          : sent.deviation.strength;
  const double detector_strength =
      sent.storm_error
          ? judgement.limit("storm_error_strength")
          : (sent.storm_events > 0.0 ? judgement.limit("storm_warning_strength") : 0.0);
  origin.strength =
      std::max({rate_strength, saturating(sent.share, storm_share / 2.0), detector_strength});
  origin.summary =
      fmt::format("{} sends {} pause frames{} on priority {}, {}x the fleet median of {}{}",
                  nic_label(nic), human(value.reading.value), per(fleet.sent), fleet.prio,
                  human(sent.deviation.ratio), human(fleet.sent.stats.median), per(fleet.sent));
  if (sent.duration.is_rate()) {
    origin.summary +=
        fmt::format("; it held its link paused {} of the window", percent(sent.share));
  }
  if (sent.storm_events > 0.0) {
    origin.summary += fmt::format("; {} pause-storm {} events in the window",
                                  human(sent.storm_events), sent.storm_error ? "error" : "warning");
  }
  origin.rate_only = sent.storm_events <= 0.0 && sent.share < storm_share;
  return origin;
}

// NICs sending pause above the fleet. Those whose duration counter shows the pause costs
// almost nothing are ruled out by name (`cheap`).
void nic_origins(const Survey& fleet, Judgement& judgement, Origins& out,
                 std::set<const model::Nic*>& cheap) {
  const OutlierRule rule = judgement.outlier_rule(fleet.floor);
  for (const auto& value : fleet.sent.values) {
    const SentPause sent = sent_pause(fleet, value, rule);
    if (!sent.deviation.outlier && sent.share < judgement.limit("storm_share") &&
        sent.storm_events <= 0.0) {
      continue;
    }
    if (sent.duration.is_rate() && sent.share < judgement.limit("min_storm_share") &&
        sent.storm_events <= 0.0) {
      judgement.rule_out(
          fmt::format("{} sends {} pause frames{} on priority {} ({}x the fleet) but held its link "
                      "paused only {} of the window: not a storm",
                      nic_label(*value.nic), human(value.reading.value), per(fleet.sent),
                      fleet.prio, human(sent.deviation.ratio), percent(sent.share)));
      cheap.insert(value.nic);
      continue;
    }
    out.storms.push_back(nic_origin(fleet, value, sent, judgement));
    out.storm_nics.insert(value.nic);
  }
}

// A storm is one NIC or a few going wrong; this many pausing hard at once, none of them
// tripping a detector or holding its link, is a fabric that cannot drain (congestion, late
// ECN), whatever each one's rate looks like against the fleet.
void set_congested_apart(const Survey& fleet, const Judgement& judgement, Origins& out,
                         std::set<const model::Nic*>& cheap) {
  const auto rate_only = static_cast<std::size_t>(std::count_if(
      out.storms.begin(), out.storms.end(), [](const Origin& o) { return o.rate_only; }));
  if (rate_only < judgement.limit_count("congestion_group")) {
    return;
  }
  auto split = std::stable_partition(out.storms.begin(), out.storms.end(),
                                     [](const Origin& o) { return !o.rate_only; });
  out.congested.assign(std::make_move_iterator(split), std::make_move_iterator(out.storms.end()));
  out.storms.erase(split, out.storms.end());
  out.storm_nics.clear();
  for (const auto& value : fleet.sent.values) {
    const std::string entity = value.nic->nic_entity();
    const auto named = [&entity](const Origin& o) { return o.entities.front() == entity; };
    if (std::any_of(out.storms.begin(), out.storms.end(), named)) {
      out.storm_nics.insert(value.nic);
    } else if (std::any_of(out.congested.begin(), out.congested.end(), named)) {
      cheap.insert(value.nic);  // its switch port's view is the same congestion
      out.congested_switches.insert(value.nic->switch_name);
    }
  }
}

// The port's own view of a storm already found at the NIC behind it joins that origin.
void confirm_at_port(const PortPause& p, const model::Nic& nic, Origins& out) {
  const std::string here = port_entity(p.sw->name, p.port->name);
  for (auto& origin : out.storms) {
    if (std::find(origin.entities.begin(), origin.entities.end(), nic.nic_entity()) !=
        origin.entities.end()) {
      origin.summary += fmt::format("; {} receives {} pause frames{} from it", here,
                                    human(p.rx.value), out.port_per);
      append_unique(origin.entities, here);
    }
  }
}

// A port receiving pause far above the others, with no NIC-side view of it: its peer (the NIC
// behind it when the model knows it) is the origin.
Origin origin_at_port(const Survey& fleet, const PortPause& p, const model::Nic* nic,
                      const Deviation& dev, const Origins& out) {
  const std::string here = port_entity(p.sw->name, p.port->name);
  Origin origin;
  if (nic != nullptr) {
    origin.entities = nic_entities(*nic);
    append_unique(origin.entities, here);
  } else {
    origin.entities.push_back(here);
  }
  origin.value = p.rx.value;
  origin.normal = out.port_stats.median;
  origin.switch_name = p.sw->name;
  origin.strength = dev.strength;
  const std::string peer = p.port->peer_device.empty()
                               ? std::string("its peer")
                               : p.port->peer_device + "/" + p.port->peer_port;
  origin.summary = fmt::format(
      "{} receives {} pause frames{} on priority {} from {}, {}x the median switch port "
      "({}{})",
      here.substr(5), human(p.rx.value), out.port_per, fleet.prio, peer, human(dev.ratio),
      human(out.port_stats.median), out.port_per);
  return origin;
}

// Switch side: a port receiving far more pause than the other ports names its peer.
void port_origins(const Survey& fleet, const Judgement& judgement, Origins& out,
                  const std::set<const model::Nic*>& cheap) {
  const model::Fabric& fabric = judgement.fabric();
  const bool rates = std::any_of(fleet.ports.begin(), fleet.ports.end(),
                                 [](const PortPause& p) { return p.rx.is_rate(); });
  std::vector<double> received;
  for (const auto& p : fleet.ports) {
    if (p.rx.present() && p.rx.is_rate() == rates) {
      received.push_back(p.rx.value);
    }
  }
  out.port_stats = fleet_stats(received);
  const double min_rate = judgement.limit("min_pause_rate");
  const OutlierRule rule =
      judgement.outlier_rule(rates ? min_rate : judgement.cumulative_floor(min_rate));
  out.port_per = rates ? "/s" : " (cumulative)";
  const NicsBehindPorts behind(fabric);
  for (const auto& p : fleet.ports) {
    if (!p.rx.present() || p.rx.is_rate() != rates) {
      continue;
    }
    const Deviation dev = assess_high(p.rx.value, out.port_stats, rule);
    if (!dev.outlier) {
      continue;
    }
    const model::Nic* nic = behind.find(*p.sw, *p.port);
    if (nic != nullptr && cheap.count(nic) > 0) {
      continue;  // the NIC's own duration counter already judged this pause cheap
    }
    if (nic != nullptr && out.storm_nics.count(nic) > 0) {
      confirm_at_port(p, *nic, out);
    } else if (nic == nullptr && is_switch_name(fabric, p.port->peer_device)) {
      // A switch pauses its neighbour switch when its own queues fill: that is pause
      // propagating from congestion or from a storm further down, never where one starts.
      out.between_switches.push_back(&p);
    } else {
      out.storms.push_back(origin_at_port(fleet, p, nic, dev, out));
      if (nic != nullptr) {
        out.storm_nics.insert(nic);
      }
    }
  }
}

}  // namespace

Origins find_origins(const Survey& fleet, Judgement& judgement) {
  Origins out;
  std::set<const model::Nic*> cheap;  // pause that costs its link almost nothing
  nic_origins(fleet, judgement, out, cheap);
  set_congested_apart(fleet, judgement, out, cheap);
  port_origins(fleet, judgement, out, cheap);
  watchdog_origins(fleet, judgement, out);
  for (const auto& origin : out.storms) {
    judgement.find("pfc-storm-origin", origin.entities, origin.strength, origin.summary,
                   origin.value, origin.normal, fleet.unit);
  }
  for (const auto& origin : out.watchdog) {
    judgement.find("pfcwd-storm-detected", origin.entities, origin.strength, origin.summary,
                   origin.value, origin.normal, "storms");
  }
  for (const auto& text : out.watchdog_between_switches) {
    judgement.note(text + ": pause passed on from a storm or congestion further away");
  }
  return out;
}

}  // namespace netdoctor::probes::pfc_pause
