// pfc-pause, how pause spreads: the neighbours an origin holds back (victims, not culprits),
// and, with no origin at all, pause that is a condition of the fabric: a quarter of the fleet
// pausing, NICs pausing hard together, or switches pausing each other. Those are congestion
// (late ECN, oversubscription, incast), not one bad actor.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/strings.h"
#include "probes/pfc_pause.h"

namespace netdoctor::probes::pfc_pause {
namespace {

// Findings list at most this many victims; the summary gives the full count.
constexpr std::size_t k_max_listed = 16;

double share_of(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

// A quarter of the NICs, or of the switch ports, pausing. Hosts and switch ports are judged
// each on their own: a fabric has many more switch ports than NICs (uplinks, spines), which
// would dilute a host-side picture and vice versa.
bool judge_fleet_pausing(const Survey& fleet, Judgement& judgement) {
  const std::size_t observed = fleet.received.values.size() + fleet.ports.size();
  const std::size_t pausing = fleet.paused.size() + fleet.paused_ports;
  const double fraction = std::max(share_of(fleet.paused.size(), fleet.received.values.size()),
                                   share_of(fleet.paused_ports, fleet.ports.size()));
  const double widespread = judgement.limit("widespread_fraction");
  if (pausing < judgement.limit_count("widespread_min_count") || fraction < widespread) {
    return false;
  }
  std::map<std::string, std::size_t> by_switch;
  for (const NicValue* value : fleet.paused) {
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
    entities.push_back(model::switch_entity(name));
  }
  judgement.find("pfc-pause-widespread", entities, saturating(fraction, widespread),
                 fmt::format("{} of {} NICs and switch ports receive or send at least {} pause "
                             "frames{} on priority {} (NIC median {}{}), with no single origin: "
                             "congestion",
                             pausing, observed, human(fleet.floor), per(fleet.received), fleet.prio,
                             human(fleet.received.stats.median), per(fleet.received)),
                 fraction * 100.0, widespread * 100.0, "% of entities");
  return true;
}

// Several NICs pausing far above the fleet at once, none a storm on its own.
bool judge_congested_nics(const Survey& fleet, const Origins& origins, Judgement& judgement) {
  if (origins.congested.empty()) {
    return false;
  }
  std::vector<std::string> entities;
  for (const std::string& name : origins.congested_switches) {
    if (!name.empty()) {
      entities.push_back(model::switch_entity(name));
    }
  }
  double max_nic = 0.0;
  for (const Origin& origin : origins.congested) {
    max_nic = std::max(max_nic, origin.value);
  }
  judgement.find(
      "pfc-pause-widespread", entities,
      saturating(static_cast<double>(origins.congested.size()),
                 judgement.limit("congestion_group")),
      fmt::format("{} NICs send pause on priority {} far above the fleet at once (up to "
                  "{}{}, fleet median {}{}), none holding its link paused half the window "
                  "and none tripping its storm detector: congestion behind {}, not a storm",
                  origins.congested.size(), fleet.prio, human(max_nic), per(fleet.sent),
                  human(fleet.sent.stats.median), per(fleet.sent),
                  entities.empty() ? std::string("unknown switches") : join(entities, ", ")),
      max_nic, fleet.sent.stats.median, fleet.unit);
  return true;
}

// Switches pausing each other with no end device behind it: queues fill inside the fabric
// (saturated uplinks, late ECN), the congestion picture, named by its switches.
bool judge_congested_switches(const Survey& fleet, const Origins& origins, Judgement& judgement) {
  if (origins.between_switches.empty()) {
    return false;
  }
  std::vector<std::string> entities;
  double max_port = 0.0;
  for (const PortPause* p : origins.between_switches) {
    append_unique(entities, p->sw->entity());
    append_unique(entities, model::switch_entity(p->port->peer_device));
    max_port = std::max(max_port, p->rx.value);
  }
  judgement.find(
      "pfc-pause-widespread", entities,
      saturating(static_cast<double>(origins.between_switches.size()),
                 judgement.limit("switch_pairs_half_strength")),
      fmt::format("{} switch-to-switch ports receive pause on priority {} far above the "
                  "median switch port (up to {}{}; median {}{}) with no NIC or host behind "
                  "it sending pause: congestion inside the fabric, not a storm",
                  origins.between_switches.size(), fleet.prio, human(max_port), origins.port_per,
                  human(origins.port_stats.median), origins.port_per),
      max_port, origins.port_stats.median, fleet.unit);
  return true;
}

}  // namespace

void judge_victims(const Survey& fleet, const Origins& origins, Judgement& judgement) {
  std::vector<std::string> entities;
  std::size_t count = 0;
  double max_rate = 0.0;
  for (const NicValue* value : fleet.paused) {
    if (origins.storm_nics.count(value->nic) > 0) {
      continue;
    }
    ++count;
    max_rate = std::max(max_rate, value->reading.value);
    if (entities.size() < k_max_listed) {
      append_unique(entities, value->nic->nic_entity());
    }
  }
  if (count == 0) {
    return;
  }
  judgement.find(
      "pfc-pause-victim", entities,
      saturating(static_cast<double>(count), judgement.limit("victims_half_strength")),
      fmt::format("{} NICs receive at least {} pause frames{} on priority {} (up to {}{}; "
                  "fleet median {}{}), held back by the origin",
                  count, human(fleet.floor), per(fleet.received), fleet.prio, human(max_rate),
                  per(fleet.received), human(fleet.received.stats.median), per(fleet.received)),
      max_rate, fleet.received.stats.median, fleet.unit);
}

bool judge_widespread(const Survey& fleet, const Origins& origins, Judgement& judgement) {
  return judge_fleet_pausing(fleet, judgement) || judge_congested_nics(fleet, origins, judgement) ||
         judge_congested_switches(fleet, origins, judgement);
}

}  // namespace netdoctor::probes::pfc_pause
