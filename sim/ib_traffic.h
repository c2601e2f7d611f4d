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
// fault added (ib_wait_share); the history of the traffic's own share.
void derive_ib_waits(Fabric& fabric);

// PortXmitWait ticks in a second of a port trained at `gbps` over `lanes`: NVIDIA devices set
// PortSamplesControl Tick to 7, a tick of 8 byte times on a lane (1.28 ns at HDR, 0.64 at NDR).
double xmit_wait_ticks_per_s(int gbps, int lanes);

}  // namespace netdoctor::sim
