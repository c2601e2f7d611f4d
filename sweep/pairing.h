// Who tests with whom, and which tests may run at once. Round 1 gives every NIC one partner on
// another leaf; the waves keep one test per NIC at a time and at most `per_leaf` tests
// touching a leaf, so the sweep does not congest (and then mis-measure) the fabric it tests.
#pragma once

#include <cstddef>
#include <vector>

#include "sweep/inventory.h"
#include "sweep/sweep.h"

namespace netdoctor::sweep {

struct PairIndex {
  std::size_t client = 0;  // indexes into the NIC list
  std::size_t server = 0;
};

// The NICs in leaf-interleaved order: the first NIC of each leaf, then the second of each...
// (within a leaf ordered by device, then host), so neighbours in the order sit on other leaves
// and, in a rail-aligned fabric, on the same rail.
std::vector<std::size_t> interleaved_order(const std::vector<Nic>& nics);

// Matching: consecutive NICs of the interleaved order (an odd one out joins the first pair as a
// third test of its server). Ring: each NIC with the next, the last with the first.
std::vector<PairIndex> round_one_pairs(const std::vector<Nic>& nics, Pairing pairing);

// The pairs grouped into waves that may run at once, as indexes into `pairs`: no NIC twice in a
// wave, at most `per_leaf` pairs touching one leaf group, at most `max_wave` pairs. Every pair is
// placed; the order within and across waves follows the input.
std::vector<std::vector<std::size_t>> schedule_waves(const std::vector<PairIndex>& pairs,
                                                     const std::vector<Nic>& nics, int per_leaf,
                                                     std::size_t max_wave);

}  // namespace netdoctor::sweep
