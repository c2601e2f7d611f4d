// Switch roles from LLDP: which ports of a switch face hosts (downlinks) and which face other
// switches (uplinks), and how busy a port is. Shared by utilization-ecmp and
// oversubscription.
#pragma once

#include <optional>
#include <vector>

#include "model/fabric.h"

namespace netdoctor::probes {

struct PortRoles {
  const model::Switch* sw = nullptr;
  std::vector<const model::SwitchPort*> downlinks;  // peer is a host
  std::vector<const model::SwitchPort*> uplinks;    // peer is a switch
};

// Every switch that has at least one host-facing port (a leaf), with its ports split by role.
std::vector<PortRoles> leaf_roles(const model::Fabric& fabric);

// Transmit utilisation of a port in 0..1: SONiC's TX_UTIL, else TX_BPS against the port
// speed, else queue byte counters over the window against the speed.
std::optional<double> tx_utilisation(const model::SwitchPort& port);
std::optional<double> rx_utilisation(const model::SwitchPort& port);

}  // namespace netdoctor::probes
