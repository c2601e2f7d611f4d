// The port counters the sweep reads on each host with one `grep -s -H ^ FILE...` (argv only,
// no remote glob): data counters for the idle check, error counters to tell a bad cable from a
// slow NIC. Values are as sysfs keeps them (port_xmit_data / port_rcv_data in 4-byte words).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/inventory.h"

namespace netdoctor::sweep {

// NIC key ("host/dev") -> counter name -> value.
using CounterReadings = std::map<std::string, std::map<std::string, std::uint64_t>>;

// The counter names read for every NIC.
const std::vector<std::string>& counter_names();
// Those that count link errors (symbol errors, receive errors, link downs and retrains).
const std::vector<std::string>& link_error_counters();

// The remote argv reading every counter of `nics` (all on one host).
std::vector<std::string> counter_argv(const std::vector<Nic>& nics);

// Reads "PATH:VALUE" lines back into `out` for the NICs of `host`; lines that are not such a
// path are ignored (a garbled answer is no reading, never a zero).
void parse_counter_output(std::string_view text, const std::string& host, CounterReadings& out);

// Data moved per second by a NIC between two readings `seconds` apart, in Gb/s (both
// directions); 0 when either reading lacks the counters.
double data_gbps(const CounterReadings& before, const CounterReadings& after,
                 const std::string& nic_key, double seconds);

// The link error counters of a NIC that grew between the readings, "symbol_error +12".
std::vector<std::string> grown_link_errors(const CounterReadings& before,
                                           const CounterReadings& after,
                                           const std::string& nic_key);

}  // namespace netdoctor::sweep
