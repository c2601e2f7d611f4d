// What InfiniBand adds to the traffic model (sim/traffic.h): credit waits and error history.
// A healthy subnet shows a little PortXmitWait on busy ports (a fraction of a percent of the
// time at 1 tick per ns), error counters that hold still at small values from long ago, and on
// switches whose 32-bit PortCounters were never cleared, saturated wait history.
#pragma once

#include "sim/rng.h"
#include "sim/topology.h"

namespace netdoctor::sim {

// After seed_base_rates: nothing on a healthy IB link grows errors in the window.
void seed_ib_rates(Fabric& fabric);

// After snapshot_history: the errors ports collected before the window (a few symbol errors
// and link recoveries here and there; a port of a long-running switch at the 16-bit maximum).
void seed_ib_history(Fabric& fabric, Rng& rng);

// After the last derive_links: PortXmitWait of every port from how busy it is, plus what a
// fault added (ib_wait_extra); the history of the traffic's own share.
void derive_ib_waits(Fabric& fabric);

// Ticks per second of PortXmitWait: the probes assume 1 tick per ns.
inline constexpr double k_xmit_wait_ticks_per_s = 1e9;

}  // namespace netdoctor::sim
