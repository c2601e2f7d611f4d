// What the host and switch halves of prometheus_to_bundle share: a machine's files per point
// time, the points of a series worth reading, counters as their files show them, the LLDP
// neighbour series (a host's or a switch's, by the machine it names) and the count of series
// left out for a label that is not a plain name.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "remote/prometheus_api.h"

namespace netdoctor::remote {

// One machine's files: point time -> path relative to the sample directory -> content.
using SampleFiles = std::map<double, std::map<std::string, std::string>>;
// Machine name -> its samples.
using MachineFiles = std::map<std::string, SampleFiles>;

// Calls fn(time, value) for every point that says something: NaN marks a stale series, and a
// counter or gauge netdoctor reads is never negative.
template <typename Fn>
void for_each_point(const PromSeries& series, Fn&& fn) {
  for (const auto& [time, value] : series.points) {
    if (std::isfinite(time) && std::isfinite(value) && value >= 0.0) {
      fn(time, value);
    }
  }
}

// A counter read as a double (finite, not negative: for_each_point), back to the whole number a
// switch or NIC counted; a value past 2^64 saturates.
std::uint64_t saturated_count(double value);
// ... as sysfs and ethtool print it.
std::string integer_text(double value);

// netdoctor_lldp_neighbor_info and sonic_lldp_neighbor_info (docs/prometheus.md): one series
// per neighbour, labels local_interface, remote_system_name, remote_port_id, remote_port_desc
// and optionally remote_port_id_subtype, remote_port_display.
bool is_lldp_neighbor_metric(std::string_view name);

struct LldpNeighborLabels {
  std::string remote_system;
  std::string remote_port;  // remote_port_display, else id (description for a MAC id)
  std::string remote_port_descr;
};

// The neighbour a series names; nullopt when its system or port is not one word (a table cell).
std::optional<LldpNeighborLabels> lldp_neighbor_labels(const PromSeries& series);

// Series counted out because a label that names a device, port or directory is not a plain
// name; reported once for the whole read.
struct LeftOut {
  std::size_t unsafe = 0;
};

}  // namespace netdoctor::remote
