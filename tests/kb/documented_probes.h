// The probe vocabulary of docs/signals.md, as the kb tests' stand-in for the registry (kb
// tests must not link the probes library; tests/engine checks the real registry).
#pragma once

#include "kb/known_probes.h"

namespace netdoctor::kb::testing {

inline KnownProbes documented_probes() {
  return {
      {"pfc-pause",
       "passive",
       {"pfc-storm-origin", "pfc-pause-victim", "pfc-pause-widespread", "pfc-quiet"}},
      {"drops-buffers",
       "passive",
       {"lossless-queue-drops", "nic-discards", "lossy-queue-drops", "drops-at-lossy-nic",
        "drops-clear"}},
      {"ecn-cnp", "passive", {"ecn-inactive", "cnp-ignored", "ecn-active"}},
      {"retransmits", "passive", {"rdma-retransmits", "retransmits-clear"}},
      {"link-errors", "passive", {"link-errors", "link-flap", "link-clean"}},
      {"link-speed", "config", {"link-degraded", "link-down", "link-speed-ok"}},
      {"utilization-ecmp", "passive", {"ecmp-imbalance", "ecmp-balanced"}},
      {"oversubscription", "config", {"oversubscribed-leaf", "capacity-balanced"}},
      {"mtu", "config", {"mtu-mismatch", "mtu-consistent"}},
      {"firmware", "config", {"firmware-mismatch", "firmware-consistent"}},
      {"qos-config",
       "config",
       {"pfc-disabled-on-roce-priority", "trust-mismatch", "qos-consistent"}},
      {"traffic-isolation", "passive", {"non-rdma-on-lossless", "isolation-ok"}},
      {"clock", "passive", {"clock-offset", "clock-unsynchronised", "clock-ok"}},
      {"addressing", "config", {"duplicate-ip", "shared-subnet", "addressing-ok"}},
      {"packet-size", "passive", {"small-packets", "packet-size-normal"}},
      {"perftest-baseline", "passive", {"perftest-regression", "perftest-failed", "perftest-ok"}},
  };
}

}  // namespace netdoctor::kb::testing
