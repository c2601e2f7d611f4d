// PMA counters of one fabric sample onto the ports of the model (model/ib_fabric.h): each
// perfquery (LID, port) reading goes to the port that LID leads to (a switch's port-0 LID and
// the port number, or an HCA port's own LID), mapped to canonical ib_* metrics by the
// `perfquery` rows of model/counters.tsv. ibqueryerrors' counters stand in for ports no
// perfquery file read in that sample. A counter stuck at the maximum of a field narrower than
// 64 bits is left out of the sample and recorded in IbPort::saturated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "model/counter_table.h"
#include "model/ib_fabric.h"
#include "model/ib_topology.h"
#include "model/ib_views.h"

namespace netdoctor::model {

// What the readings are matched against: LIDs and port GUIDs of the nodes, and the sample times
// (a port only a counter reading names is added with a sample at each).
struct IbIndexes {
  std::map<std::uint32_t, IbLidTarget> by_lid;
  std::map<std::uint64_t, IbLidTarget> by_port_guid;
  std::vector<double> times;
};

// REQUIRES: every port of `nodes` holds a CounterSample at `sample`.
void apply_ib_counters(const IbSampleViews& views, std::size_t sample, const CounterMap& map,
                       const IbIndexes& index, std::vector<IbNode>& nodes);

}  // namespace netdoctor::model
