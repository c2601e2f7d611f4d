// When each machine takes its samples and how far each counter has moved by then. Samples of
// different machines are close together, not simultaneous; a host with a skewed clock writes
// its own time into captured_at. Traffic noise per interval is keyed by the cable, so the NIC
// and the switch port at its two ends count the same traffic.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/rates.h"
#include "sim/topology.h"

namespace netdoctor::sim {

// True times (seconds since the epoch) at which `machine` takes each sample.
std::vector<double> sample_times(const Fabric& fabric, std::string_view machine);

// Per sample, the traffic-weighted seconds elapsed since sample 0 on the cable `link`.
std::vector<double> traffic_elapsed(const Fabric& fabric, std::string_view link,
                                    const std::vector<double>& times);

// Multiplicative traffic noise of `link` over the interval ending at sample k (k >= 1;
// k = 0 uses the first interval): what a rate column shows at sample k.
double traffic_factor(const Fabric& fabric, std::string_view link, std::size_t k);

// Seconds after sample 0 at which the faults begin (Fabric::onset_interval): 80 % of the way
// into that interval, so the interval where they begin already shows most of their rate. 0 when
// the faults predate the capture.
double onset_seconds(const Fabric& fabric);

// The counters of one entity at one sample. With `before` (the rates before the faults began),
// counters move at `before` up to `onset_s` seconds after sample 0 and at `now` after it.
template <typename Index>
class CounterSnapshot {
 public:
  CounterSnapshot(const Rates<Index>& now, const Rates<Index>& history, double uptime_s,
                  double elapsed_s, double traffic_elapsed_s, const Rates<Index>* before = nullptr,
                  double onset_s = 0.0)
      : m_now(now),
        m_history(history),
        m_before(before),
        m_uptime(uptime_s),
        m_elapsed(elapsed_s),
        m_traffic_elapsed(traffic_elapsed_s),
        m_onset(onset_s) {}

  std::uint64_t operator[](Index index) const {
    const double elapsed = is_traffic(index) ? m_traffic_elapsed : m_elapsed;
    double value = m_history[index] * m_uptime;
    if (m_before != nullptr && m_onset > 0.0) {
      value += (*m_before)[index] * std::min(elapsed, m_onset) +
               m_now[index] * std::max(0.0, elapsed - m_onset);
    } else {
      value += m_now[index] * elapsed;
    }
    return value <= 0 ? 0 : static_cast<std::uint64_t>(std::floor(value));
  }
  double elapsed() const { return m_elapsed; }

 private:
  const Rates<Index>& m_now;
  const Rates<Index>& m_history;
  const Rates<Index>* m_before;
  double m_uptime;
  double m_elapsed;
  double m_traffic_elapsed;
  double m_onset;
};

using NicSnapshot = CounterSnapshot<NicRate>;
using PortSnapshot = CounterSnapshot<PortRate>;

// The cable key of a host NIC, and of a leaf uplink (the spine end uses its leaf's key).
std::string nic_link_key(const Host& host, const Nic& nic);
std::string uplink_key(const Fabric& fabric, const Switch& sw, const Port& port);

}  // namespace netdoctor::sim
