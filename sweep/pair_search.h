// The perftest half of the sweep (docs/sweep.md, rounds 1 and 2): every NIC measured once with
// a partner on another leaf, then each end of a slow pair re-measured with two partners known
// good, so one slow NIC is named in two rounds whatever the fleet's size.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "sweep/inventory.h"
#include "sweep/sweep_state.h"

namespace netdoctor::sweep {

struct PairFindings {
  std::vector<std::size_t> slow_nics;  // indexes into the NIC list, each with its evidence
  std::vector<std::vector<std::string>> evidence;
  std::vector<double> measured_gbps;  // the NIC's best run with a good partner
  std::vector<double> expected_gbps;
  std::set<std::size_t> tested;             // NICs in at least one completed test
  std::set<std::size_t> good;               // NICs in at least one run at the expected rate
  std::set<std::string> unreachable_hosts;  // hosts whose tests timed out
  bool unresolved = false;                  // a slow pair the split could not place
};

PairFindings pair_search(SweepState& state, const std::vector<Nic>& nics);

}  // namespace netdoctor::sweep
