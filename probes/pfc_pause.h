// pfc-pause's survey and its judgements, shared by its three files: pfc_pause.cc (the
// paragraph: what it reads, the order of judgement, what quiet looks like),
// pfc_pause_origin.cc (who originates pause) and pfc_pause_spread.cc (who suffers it, and
// whether it is merely widespread).
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
};

// pfc_pause_origin.cc: who sends pause far above the fleet, on the NIC side and seen from the
// switch port that receives it.
Origins find_origins(const Survey& fleet, Judgement& judgement);

// pfc_pause_spread.cc: the neighbours held back by the origins.
void judge_victims(const Survey& fleet, const Origins& origins, Judgement& judgement);
// With no origin: a quarter of the fleet pausing, NICs pausing hard together, or switches
// pausing each other are congestion. True when one of them was found.
bool judge_widespread(const Survey& fleet, const Origins& origins, Judgement& judgement);

}  // namespace netdoctor::probes::pfc_pause
