// pfc-pause's survey and its judgements, shared by its four files: pfc_pause.cc (the
// paragraph: what it reads, the order of judgement, what quiet looks like),
// pfc_pause_origin.cc (who originates pause), pfc_pause_watchdog.cc (storms the switch's PFC
// watchdog detected) and pfc_pause_spread.cc (who suffers it, and whether it is merely
// widespread).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "probes/judgement.h"
#include "probes/probe_support.h"

namespace netdoctor::probes::pfc_pause {

struct PortPause {
  const model::Switch* sw = nullptr;
  const model::SwitchPort* port = nullptr;
  Reading rx;  // pause received from the peer
  Reading tx;  // pause sent towards the peer
};

// The switch's PFC watchdog on one port's RoCE queue (show pfcwd stats).
struct PortWatchdog {
  const model::Switch* sw = nullptr;
  const model::SwitchPort* port = nullptr;
  Reading detected;  // storms detected on the RoCE queue
  Reading restored;
  Reading tx_drops;  // packets it dropped while the queue was stormed
  Reading rx_drops;
  bool stormed = false;  // status "stormed" at the latest sample: acting now
};

// A switch whose watchdog runs (show pfcwd captured) but leaves the RoCE queue of some of its
// NIC-facing ports unwatched.
struct UnwatchedSwitch {
  std::string name;
  std::size_t unwatched = 0;
  std::size_t nic_ports = 0;
  std::string example;  // one such port
};

// PFC pause on the RoCE priority, over every NIC and switch port.
struct Survey {
  int prio = 3;
  NicSurvey sent;                // pause each NIC sends
  NicSurvey received;            // pause each NIC receives
  std::vector<PortPause> ports;  // switch ports with PFC counters
  std::size_t port_total = 0;
  bool rate_mode = false;  // rates over the window (else cumulative counts of one sample)
  double floor = 0.0;      // below this nobody counts as pausing, whatever the fleet does
  std::string unit;
  std::vector<const NicValue*> paused;  // NICs receiving pause at or above the floor, most first
  std::size_t paused_ports = 0;         // switch ports sending pause at or above the floor
  std::vector<PortWatchdog> watchdogs;  // ports whose watchdog watches the RoCE queue
  std::vector<UnwatchedSwitch> unwatched;
};

// A storm's origin, or a NIC that merely pauses far above the fleet.
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

struct Origins {
  std::vector<Origin> storms;     // reported as pfc-storm-origin
  std::vector<Origin> congested;  // NICs pausing hard together: congestion, not storms
  std::set<std::string> congested_switches;
  std::set<const model::Nic*> storm_nics;
  // Switch ports paused by their neighbour switch, with no end device behind them.
  std::vector<const PortPause*> between_switches;
  FleetStats port_stats;  // pause received per switch port
  std::string port_per;   // "/s" or " (cumulative)" for the switch-side figures
  // Ports whose PFC watchdog detected storms on the RoCE queue, each naming the device behind
  // it: reported as pfcwd-storm-detected. Their NICs are in storm_nics.
  std::vector<Origin> watchdog;
  // Watchdog storms on ports facing another switch: passed on from further away (noted).
  std::vector<std::string> watchdog_between_switches;
  bool found() const { return !storms.empty() || !watchdog.empty(); }
};

// pfc_pause_origin.cc: who sends pause far above the fleet, on the NIC side and seen from the
// switch port that receives it.
Origins find_origins(const Survey& fleet, Judgement& judgement);

// pfc_pause_watchdog.cc: the PFC watchdog of every switch port on the RoCE priority.
void survey_watchdogs(const model::Fabric& fabric, Survey& fleet);
// Notes switches whose watchdog leaves the RoCE queue of NIC-facing ports unwatched.
void note_unwatched(const Survey& fleet, Judgement& judgement);
// Ports whose watchdog detected storms (new ones in the window; with one sample, any) or is
// acting now: the NIC behind each is a storm origin, joined to an origin already found.
void watchdog_origins(const Survey& fleet, const Judgement& judgement, Origins& out);

// pfc_pause_spread.cc: the neighbours held back by the origins.
void judge_victims(const Survey& fleet, const Origins& origins, Judgement& judgement);
// With no origin: a quarter of the fleet pausing, NICs pausing hard together, or switches
// pausing each other are congestion. True when one of them was found.
bool judge_widespread(const Survey& fleet, const Origins& origins, Judgement& judgement);

}  // namespace netdoctor::probes::pfc_pause
