#include <fmt/format.h>

#include "sim/writers/host_writers.h"

namespace netdoctor::sim {

std::string mlnx_qos(const Nic& nic) {
  fmt::memory_buffer out;
  auto o = std::back_inserter(out);
  fmt::format_to(o, "DCBX mode: OS controlled\n");
  fmt::format_to(o, "Priority trust state: {}\n", nic.trust_dscp ? "dscp" : "pcp");
  fmt::format_to(o, "dscp2prio mapping:\n");
  for (int prio = 0; prio < 8; ++prio) {
    fmt::format_to(o, "\tprio:{} dscp:", prio);
    for (int dscp = prio * 8 + 7; dscp >= prio * 8; --dscp) {
      fmt::format_to(o, "{:02},", dscp);
    }
    fmt::format_to(o, "\n");
  }
  fmt::format_to(o, "default priority:\n");
  const bool lossless = nic.pfc_mask != 0;
  fmt::format_to(o, "Receive buffer size (bytes): 130944,{},0,0,0,0,0,0,\n",
                 lossless ? "130944" : "0");
  fmt::format_to(o, "Cable len: 7\n");
  fmt::format_to(o, "PFC configuration:\n");
  fmt::format_to(o, "\tpriority    0   1   2   3   4   5   6   7\n");
  fmt::format_to(o, "\tenabled     ");
  for (int prio = 0; prio < 8; ++prio) {
    fmt::format_to(o, "{}   ", (nic.pfc_mask >> prio) & 1);
  }
  fmt::format_to(o, "\n\tbuffer      ");
  for (int prio = 0; prio < 8; ++prio) {
    fmt::format_to(o, "{}   ", (nic.pfc_mask >> prio) & 1);
  }
  fmt::format_to(o, "\n");
  // mlx5 default: priority 0 on tc1 and priority 1 on tc0, the rest one to one.
  for (int tc = 0; tc < 8; ++tc) {
    const int prio = tc == 0 ? 1 : (tc == 1 ? 0 : tc);
    fmt::format_to(o, "tc: {} ratelimit: unlimited, tsa: vendor\n\t priority:  {}\n", tc, prio);
  }
  return fmt::to_string(out);
}

}  // namespace netdoctor::sim
