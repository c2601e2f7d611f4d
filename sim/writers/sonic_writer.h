// SONiC `show` command outputs of one switch at one sample.
#pragma once

#include <string>
#include <vector>

#include "sim/counter_clock.h"
#include "sim/topology.h"

namespace netdoctor::sim {

struct PortSample {
  PortSnapshot counters;
  double rate_factor;  // traffic noise of the interval ending here (for the BPS columns)
};

std::string show_interfaces_counters(const Switch& sw, const std::vector<PortSample>& ports);
std::string show_interfaces_status(const Switch& sw);
std::string show_pfc_counters(const Switch& sw, const std::vector<PortSample>& ports,
                              int roce_priority);
std::string show_queue_counters(const Switch& sw, const std::vector<PortSample>& ports,
                                int roce_priority);
std::string show_lldp_table(const Fabric& fabric, const Switch& sw);
// `show pfcwd stats`: the lossless queues of every port (the RoCE priority and SONiC's other
// default lossless queue); storms from PortRate::PfcwdStorms, a storming port "stormed" with
// one storm already detected before the first sample.
std::string show_pfcwd_stats(const Switch& sw, const std::vector<PortSample>& ports,
                             int roce_priority);
// `show pfcwd config`: every port watched, action drop, 200 ms timers.
std::string show_pfcwd_config(const Switch& sw);

}  // namespace netdoctor::sim
