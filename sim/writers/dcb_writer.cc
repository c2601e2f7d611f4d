#include <fmt/format.h>

#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

// "prio-pfc 0:off 1:off 2:off 3:on ..." as dcb prints an eight-slot array.
std::string slots(std::string_view key, const auto& value_of) {
  std::string out(key);
  for (int slot = 0; slot < 8; ++slot) {
    out += fmt::format(" {}:{}", slot, value_of(slot));
  }
  return out + " \n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> dcb_show(const Nic& nic, int roce_priority) {
  const auto pfc = [&nic](int prio) { return ((nic.pfc_mask >> prio) & 1) != 0 ? "on" : "off"; };
  // RoCE on its own traffic class, everything else on TC 0 (the common RoCE profile).
  const auto tc = [roce_priority](int prio) { return prio == roce_priority ? prio : 0; };
  const auto tsa = [roce_priority](int cls) {
    return cls == 0 || cls == roce_priority ? "ets" : "strict";
  };
  const auto bw = [roce_priority](int cls) { return cls == 0 || cls == roce_priority ? 50 : 0; };
  return {
      {"pfc", "pfc-cap 8 macsec-bypass off delay 0 \n" + slots("prio-pfc", pfc)},
      {"apptrust", nic.trust_dscp ? "order dscp pcp \n" : "order pcp \n"},
      // RoCE marked AF31 (DSCP 26) on the RoCE priority, CNPs CS6 (48) on 6.
      {"app", fmt::format("dscp-prio AF31:{} CS6:6 \n", roce_priority)},
      {"ets", "willing off ets-cap 8 cbs off \n" + slots("tc-bw", bw) + slots("tc-tsa", tsa) +
                  slots("prio-tc", tc)},
  };
}

}  // namespace netdoctor::sim
