// ib-congestion's survey and its congestion tree, shared by its two files: ib_congestion.cc (the
// paragraph: what it reads, the order of judgement, what quiet looks like) and
// ib_congestion_tree.cc (which waiting ports are roots and which are victims behind them).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "probes/ib_traffic.h"
#include "probes/judgement.h"

namespace netdoctor::probes::ib_congestion {

// How long one port waited for credits over the window.
struct PortWait {
  const ib::LinkEnd* end = nullptr;
  double tick_s = 0.0;  // the XmitWait tick this port is read with
  double ticks_per_s = 0.0;
  double share = 0.0;        // of the window the port had data but no credits
  bool lower_bound = false;  // XmitWait saturated inside the window: at least this share
};

struct Survey {
  std::vector<ib::LinkEnd> ends;  // every cabled up port (PortWait::end points into it)
  std::vector<PortWait> ports;    // those with a wait share over the window
  std::size_t total = 0;
  std::vector<std::string> history;  // XmitWait saturated before the window: no rate
  std::vector<std::string> resets;   // XmitWait went down in the window
};

// The congestion tree of the ports waiting at least wait_share: a waiting port whose
// downstream node also waits to send onward is a victim; one facing an HCA, or whose
// downstream node's other ports do not wait, is a root.
struct Tree {
  std::vector<const PortWait*> roots;
  std::map<const PortWait*, std::vector<const PortWait*>> victims;  // by the root they wait on
  std::vector<const PortWait*> looped;  // waiting in a cycle that reaches no root
};

// ib_congestion_tree.cc
Tree build_tree(const Survey& fleet, double wait_share);

}  // namespace netdoctor::probes::ib_congestion
