// What one InfiniBand fabric sample runs (spec/bundle.md "InfiniBand fabric views"): the
// subnet-wide views of infiniband-diags, then a perfquery sweep over every node that the
// sample's own ibnetdiscover found. Pure planning: nothing here runs a program.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/ibnetdiscover.h"

namespace netdoctor::collect {

// The sos_commands group fabric views are filed under (fabric/<sample>/sos_commands/<group>/).
inline constexpr const char* k_fabric_group = "infiniband";

// The subnet-wide views, ibnetdiscover first (the sweep is planned from it): ibnetdiscover,
// ibnetdiscover -p, iblinkinfo, sminfo, ibswitches, ibhosts, ibqueryerrors.
std::vector<std::vector<std::string>> fabric_view_commands();

// One perfquery target: a switch (every port through its port-0 LID) or one HCA/router port
// (its own LID).
struct PerfTarget {
  std::string description;  // the node description, for notes
  bool is_switch = false;
  std::uint32_t lid = 0;
  std::uint32_t port = 0;  // HCA/router port; 0 for a switch (all ports)
};

struct SweepPlan {
  std::vector<PerfTarget> targets;  // switches first, then HCA ports, in topology order
  std::size_t nodes = 0;            // nodes of the topology
  std::size_t nodes_without_lid = 0;
};

// Every switch (LID of port 0) and every connected HCA/router port (its LID). A node or port
// without a LID (no subnet manager has run) cannot be addressed by LID and is counted in
// nodes_without_lid instead.
SweepPlan plan_perfquery_sweep(const parsers::IbNetDiscover& topology);

// `perfquery -x -l <lid> 255` for a switch (every port, one file), `perfquery -x <lid> <port>`
// for an HCA port (HCAs lack AllPortSelect, so -l fails there).
std::vector<std::string> extended_perfquery(const PerfTarget& target);
// The same without -x: PortCounters, which carries the error counters and PortXmitWait.
std::vector<std::string> plain_perfquery(const PerfTarget& target);

// True when an extended (-x) capture lacks what only plain PortCounters gives: a block whose
// CapMask2 is 0 (no error counters, no PortXmitWait in PortCountersExtended) or that has no
// SymbolErrorCounter or PortXmitWait line. Text that does not parse needs nothing more.
bool needs_plain_counters(std::string_view extended_output);

}  // namespace netdoctor::collect
