// A switch's port counters at one time, as remote sources give them (IF-MIB objects, PFC frames
// per priority, queue counters, LLDP neighbours), and the SONiC `show` outputs they render as with
// base/sonic_table, so that the SONiC parsers and the switch loader read them unchanged.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "remote/prometheus_layout.h"
#include "remote/sonic_cells.h"

namespace netdoctor::remote {

// The IF-MIB objects a port's sample holds.
enum class IfField : std::size_t {
  InOctets,
  OutOctets,
  InUcast,
  InMulticast,
  InBroadcast,
  OutUcast,
  OutMulticast,
  OutBroadcast,
  InErrors,
  OutErrors,
  InDiscards,
  OutDiscards,
  HighSpeed,  // Mb/s
  Mtu,
  OperStatus,   // 1 up, 2 down, ...
  AdminStatus,  // 1 up, 2 down, 3 testing
  Count,
};
enum class QueueField : std::size_t { Packets, Bytes, DroppedPackets, DroppedBytes, Count };

constexpr std::size_t at(IfField field) {
  return static_cast<std::size_t>(field);
}
constexpr std::size_t at(QueueField field) {
  return static_cast<std::size_t>(field);
}

// IF-MIB's ifOperStatus / ifAdminStatus values.
inline constexpr double k_if_status_up = 1.0;
inline constexpr double k_if_status_down = 2.0;

struct SwitchPortSample {
  std::array<std::optional<double>, at(IfField::Count)> if_mib;
  std::array<std::optional<double>, 8> pfc_rx;  // PFC frames received, by priority
  std::array<std::optional<double>, 8> pfc_tx;
  std::string alias;
};

struct QueueKeyLess {
  bool operator()(const std::pair<std::string, unsigned>& a,
                  const std::pair<std::string, unsigned>& b) const;
};

struct SwitchSample {
  std::map<std::string, SwitchPortSample, NaturalLess> ports;
  // (port, queue index: SONiC's UC0-7, then MC8 and up) -> counters
  std::map<std::pair<std::string, unsigned>,
           std::array<std::optional<double>, at(QueueField::Count)>, QueueKeyLess>
      queues;
  std::map<std::string, LldpNeighborLabels, NaturalLess> lldp;  // local port -> neighbour
};

// Bytes per second between two readings of an octet counter `seconds` apart; none across a
// counter reset.
std::optional<double> octet_rate(const std::optional<double>& now,
                                 const std::optional<double>& before, double seconds);

// The SONiC outputs of `now`, command line ("show pfc counters") -> text; a table with no rows is
// left out. RX_BPS / TX_BPS and utilisation are the octet counters' rate since `before` (none
// without one, none across a counter reset), `seconds` earlier.
std::map<std::string, std::string> render_sonic_outputs(const SwitchSample& now,
                                                        const SwitchSample* before, double seconds);

}  // namespace netdoctor::remote
