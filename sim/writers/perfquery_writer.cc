// perfquery's PortCounters and PortCountersExtended blocks (libibmad's field dump: the name, a
// colon, dots to column 33, the value), one per port as `perfquery -l` loops over them.
#include <fmt/format.h>

#include <algorithm>

#include "sim/writers/ib_writers.h"

namespace netdoctor::sim {
namespace {

void field(fmt::memory_buffer& out, std::string_view name, std::string_view value) {
  std::string label = std::string(name) + ":";
  label.resize(std::max<std::size_t>(label.size(), 33), '.');
  fmt::format_to(std::back_inserter(out), "{}{}\n", label, value);
}

void number(fmt::memory_buffer& out, std::string_view name, std::uint64_t value) {
  field(out, name, fmt::format("{}", value));
}

// A PortCounters field `bits` wide stops at its maximum (IBA 16.1.3.5).
std::uint64_t capped(std::uint64_t value, unsigned bits) {
  const std::uint64_t max = (std::uint64_t{1} << bits) - 1;
  return std::min(value, max);
}

}  // namespace

std::string perfquery_extended(std::uint32_t lid, const std::vector<PmaPort>& ports,
                               bool with_errors) {
  fmt::memory_buffer out;
  for (const PmaPort& p : ports) {
    fmt::format_to(std::back_inserter(out),
                   "# Port extended counters: Lid {} port {} (CapMask: 0x{} CapMask2: 0x{})\n", lid,
                   p.number, with_errors ? "5A00" : "1300", with_errors ? "0000002" : "0000000");
    number(out, "PortSelect", static_cast<std::uint64_t>(p.number));
    field(out, "CounterSelect", "0x0000");
    number(out, "PortXmitData", p.xmit_data);
    number(out, "PortRcvData", p.rcv_data);
    number(out, "PortXmitPkts", p.xmit_pkts);
    number(out, "PortRcvPkts", p.rcv_pkts);
    number(out, "PortUnicastXmitPkts", p.xmit_pkts - std::min(p.xmit_pkts, p.multicast_xmit));
    number(out, "PortUnicastRcvPkts", p.rcv_pkts - std::min(p.rcv_pkts, p.multicast_rcv));
    number(out, "PortMulticastXmitPkts", p.multicast_xmit);
    number(out, "PortMulticastRcvPkts", p.multicast_rcv);
    if (!with_errors) {
      continue;
    }
    field(out, "CounterSelect2", "0x00000000");
    number(out, "SymbolErrorCounter", p.symbol_errors);
    number(out, "LinkErrorRecoveryCounter", p.link_recovers);
    number(out, "LinkDownedCounter", p.link_downed);
    number(out, "PortRcvErrors", p.rcv_errors);
    number(out, "PortRcvRemotePhysicalErrors", 0);
    number(out, "PortRcvSwitchRelayErrors", 0);
    number(out, "PortXmitDiscards", p.xmit_discards);
    number(out, "PortXmitConstraintErrors", 0);
    number(out, "PortRcvConstraintErrors", 0);
    number(out, "LocalLinkIntegrityErrors", 0);
    number(out, "ExcessiveBufferOverrunErrors", 0);
    number(out, "VL15Dropped", 0);
    number(out, "PortXmitWait", p.xmit_wait);
    number(out, "QP1Dropped", 0);
  }
  return fmt::to_string(out);
}

std::string perfquery_plain(std::uint32_t lid, const std::vector<PmaPort>& ports) {
  fmt::memory_buffer out;
  for (const PmaPort& p : ports) {
    fmt::format_to(std::back_inserter(out), "# Port counters: Lid {} port {} (CapMask: 0x1300)\n",
                   lid, p.number);
    number(out, "PortSelect", static_cast<std::uint64_t>(p.number));
    field(out, "CounterSelect", "0x0000");
    number(out, "SymbolErrorCounter", capped(p.symbol_errors, 16));
    number(out, "LinkErrorRecoveryCounter", capped(p.link_recovers, 8));
    number(out, "LinkDownedCounter", capped(p.link_downed, 8));
    number(out, "PortRcvErrors", capped(p.rcv_errors, 16));
    number(out, "PortRcvRemotePhysicalErrors", 0);
    number(out, "PortRcvSwitchRelayErrors", 0);
    number(out, "PortXmitDiscards", capped(p.xmit_discards, 16));
    number(out, "PortXmitConstraintErrors", 0);
    number(out, "PortRcvConstraintErrors", 0);
    field(out, "CounterSelect2", "0x00");
    number(out, "LocalLinkIntegrityErrors", 0);
    number(out, "ExcessiveBufferOverrunErrors", 0);
    number(out, "QP1Dropped", 0);
    number(out, "VL15Dropped", 0);
    number(out, "PortXmitData", capped(p.xmit_data, 32));
    number(out, "PortRcvData", capped(p.rcv_data, 32));
    number(out, "PortXmitPkts", capped(p.xmit_pkts, 32));
    number(out, "PortRcvPkts", capped(p.rcv_pkts, 32));
    number(out, "PortXmitWait", capped(p.xmit_wait, 32));
  }
  return fmt::to_string(out);
}

}  // namespace netdoctor::sim
