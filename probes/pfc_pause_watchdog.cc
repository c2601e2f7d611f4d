// pfc-pause, what the switch's PFC watchdog saw: a port whose watchdog detected storms on the
// RoCE queue (or is acting on one now) is first-hand storm evidence from the switch side, and
// names the device behind the port. A watchdog that detected nothing says little (its
// detection time may be longer than the pauses), so it is never evidence against a storm; one
// that does not watch the RoCE queue at all is worth a note.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "probes/metric_names.h"
#include "probes/pfc_pause.h"

namespace netdoctor::probes::pfc_pause {
namespace {

bool has_pfcwd(const model::Switch& sw) {
  const auto it = sw.sources.find(source::k_show_pfcwd);
  return it != sw.sources.end() && it->second.availability == model::Availability::Observed;
}

// Storms detected: new ones in the window, or with one sample all since the counters started.
double storms_of(const Reading& detected) {
  if (detected.is_rate()) {
    return detected.delta;
  }
  return detected.present() ? detected.value : 0.0;
}

double dropped(const PortWatchdog& w) {
  double total = 0.0;
  for (const Reading* r : {&w.tx_drops, &w.rx_drops}) {
    total += r->is_rate() ? r->delta : (r->present() ? r->value : 0.0);
  }
  return total;
}

std::string watchdog_words(const PortWatchdog& w, int prio, double storms) {
  const bool window = w.detected.is_rate();
  std::string text = fmt::format("{}'s PFC watchdog detected {} storms on {} queue {}{}",
                                 w.sw->name, human(storms), w.port->name, prio,
                                 window ? " in the window" : " since its counters started");
  if (w.restored.present()) {
    text += fmt::format(" ({} restored)", human(storms_of(w.restored)));
  }
  if (const double drops = dropped(w); drops > 0.0) {
    text += fmt::format(", dropping {} packets", human(drops));
  }
  if (w.stormed) {
    text += ", and holds the queue stormed now";
  }
  return text;
}

// The port's watchdog evidence, naming the device behind it.
Origin watchdog_origin(const PortWatchdog& w, const model::Nic* nic, double storms,
                       const Judgement& judgement) {
  const int prio = judgement.roce_priority();
  const std::string here = port_entity(w.sw->name, w.port->name);
  Origin origin;
  if (nic != nullptr) {
    origin.entities = nic_entities(*nic);
  }
  append_unique(origin.entities, here);
  origin.value = storms;
  origin.normal = 0.0;
  origin.switch_name = w.sw->name;
  origin.strength = judgement.limit(
      w.detected.is_rate() || w.stormed ? "pfcwd_storm_strength" : "pfcwd_cumulative_strength");
  const std::string peer = nic != nullptr                 ? nic_label(*nic)
                           : !w.port->peer_device.empty() ? w.port->peer_device
                                                          : std::string("its peer");
  origin.summary =
      fmt::format("{}: the storm comes from {} behind it", watchdog_words(w, prio, storms), peer);
  return origin;
}

// A storm origin already found for this NIC gains the switch's view of it.
void confirm_origin(const model::Nic& nic, const std::string& words, const std::string& here,
                    Origins& out) {
  for (auto& origin : out.storms) {
    if (std::find(origin.entities.begin(), origin.entities.end(), nic.nic_entity()) !=
        origin.entities.end()) {
      origin.summary += "; " + words;
      append_unique(origin.entities, here);
    }
  }
}

}  // namespace

void survey_watchdogs(const model::Fabric& fabric, Survey& fleet) {
  const NicsBehindPorts behind(fabric);
  for (const auto& sw : fabric.switches) {
    if (!has_pfcwd(sw)) {
      continue;
    }
    UnwatchedSwitch unwatched;
    unwatched.name = sw.name;
    for (const auto& port : sw.ports) {
      if (port.pfcwd.watches(fleet.prio)) {
        fleet.watchdogs.push_back(
            {&sw, &port, read_counter(port.samples, metric::k_sw_pfcwd_storms_detected, fleet.prio),
             read_counter(port.samples, metric::k_sw_pfcwd_storms_restored, fleet.prio),
             read_counter(port.samples, metric::k_sw_pfcwd_tx_drops, fleet.prio),
             read_counter(port.samples, metric::k_sw_pfcwd_rx_drops, fleet.prio),
             std::find(port.pfcwd.stormed.begin(), port.pfcwd.stormed.end(), fleet.prio) !=
                 port.pfcwd.stormed.end()});
      }
      if (behind.find(sw, port) == nullptr) {
        continue;
      }
      ++unwatched.nic_ports;
      if (!port.pfcwd.watches(fleet.prio)) {
        ++unwatched.unwatched;
        if (unwatched.example.empty()) {
          unwatched.example = port.name;
        }
      }
    }
    if (unwatched.unwatched > 0) {
      fleet.unwatched.push_back(unwatched);
    }
  }
}

void note_unwatched(const Survey& fleet, Judgement& judgement) {
  for (const auto& sw : fleet.unwatched) {
    judgement.note(fmt::format(
        "{}'s PFC watchdog does not watch queue {} on {} of its {} NIC-facing ports (e.g. {}): "
        "a storm there is neither stopped nor counted by the switch",
        sw.name, fleet.prio, sw.unwatched, sw.nic_ports, sw.example));
  }
}

void watchdog_origins(const Survey& fleet, const Judgement& judgement, Origins& out) {
  const model::Fabric& fabric = judgement.fabric();
  const double min_storms = judgement.limit("pfcwd_min_storms");
  std::optional<NicsBehindPorts> behind;  // built for the first storm
  for (const auto& w : fleet.watchdogs) {
    const double storms = storms_of(w.detected);
    if (storms < min_storms && !w.stormed) {
      continue;  // nothing detected is no evidence either way
    }
    if (!behind) {
      behind.emplace(fabric);
    }
    const model::Nic* nic = behind->find(*w.sw, *w.port);
    if (nic == nullptr && is_switch_name(fabric, w.port->peer_device)) {
      // A neighbour switch pausing this port passes on a storm from further away.
      out.watchdog_between_switches.push_back(
          fmt::format("{}, facing {}", watchdog_words(w, fleet.prio, storms), w.port->peer_device));
      continue;
    }
    if (nic != nullptr) {
      confirm_origin(*nic, watchdog_words(w, fleet.prio, storms),
                     port_entity(w.sw->name, w.port->name), out);
      out.storm_nics.insert(nic);
    }
    out.watchdog.push_back(watchdog_origin(w, nic, storms, judgement));
  }
}

}  // namespace netdoctor::probes::pfc_pause
