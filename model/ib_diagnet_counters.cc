// apply_ibdiagnet: PMA counters of PM_INFO (db_csv) and ibdiagnet2.pm as canonical ib_* metrics.
#include <array>
#include <cctype>
#include <map>
#include <string>

#include "model/ib_diagnet_detail.h"
#include "parsers/ib_common.h"

namespace netdoctor::model::ibdiagnet_detail {
namespace {

// One canonical metric and the names ibdiagnet gives its counter, lower case without '_'
// (db_csv "PortXmitDataExtended" and .pm "port_xmit_data_extended" are one name): the 64-bit
// PortCountersExtended ones first, then the PortCounters one (IBA 16.1.3.5, `bits` wide, which
// saturates at all ones). The .pm file spells some differently (link_down_counter,
// port_xmit_discard, excessive_buffer_errors). Data counters count 4-octet words.
struct CounterNames {
  const char* metric;
  double scale;
  std::array<const char*, 2> wide;
  std::array<const char*, 2> narrow;
  const char* pma_field;  // the PortCounters field, for its width (parsers::ib)
};

constexpr std::array<CounterNames, 13> k_counters = {{
    {"ib_tx_bytes", 4.0, {"portxmitdataextended", ""}, {"portxmitdata", ""}, "PortXmitData"},
    {"ib_rx_bytes", 4.0, {"portrcvdataextended", ""}, {"portrcvdata", ""}, "PortRcvData"},
    {"ib_tx_packets", 1.0, {"portxmitpktsextended", ""}, {"portxmitpkts", ""}, "PortXmitPkts"},
    {"ib_rx_packets", 1.0, {"portrcvpktsextended", ""}, {"portrcvpkts", ""}, "PortRcvPkts"},
    {"ib_xmit_wait",
     1.0,
     {"portxmitwaitext", "portxmitwaitextended"},
     {"portxmitwait", ""},
     "PortXmitWait"},
    {"ib_symbol_errors",
     1.0,
     {"symbolerrorcounterext", "symbolerrorcounterextended"},
     {"symbolerrorcounter", ""},
     "SymbolErrorCounter"},
    {"ib_link_error_recovery",
     1.0,
     {"linkerrorrecoverycounterext", "linkerrorrecoverycounterextended"},
     {"linkerrorrecoverycounter", ""},
     "LinkErrorRecoveryCounter"},
    {"ib_link_downed",
     1.0,
     {"linkdownedcounterext", "linkdownedcounterextended"},
     {"linkdownedcounter", "linkdowncounter"},
     "LinkDownedCounter"},
    {"ib_rcv_errors",
     1.0,
     {"portrcverrorsext", "portrcverrorsextended"},
     {"portrcverrors", ""},
     "PortRcvErrors"},
    {"ib_rcv_remote_physical_errors",
     1.0,
     {"portrcvremotephysicalerrorsext", "portrcvremotephysicalerrorsextended"},
     {"portrcvremotephysicalerrors", ""},
     "PortRcvRemotePhysicalErrors"},
    {"ib_xmit_discards",
     1.0,
     {"portxmitdiscardsext", "portxmitdiscardsextended"},
     {"portxmitdiscards", "portxmitdiscard"},
     "PortXmitDiscards"},
    {"ib_local_link_integrity_errors",
     1.0,
     {"locallinkintegrityerrorsext", "locallinkintegrityerrorsextended"},
     {"locallinkintegrityerrors", ""},
     "LocalLinkIntegrityErrors"},
    {"ib_excessive_buffer_overrun",
     1.0,
     {"excessivebufferoverrunerrorsext", "excessivebufferoverrunerrorsextended"},
     {"excessivebufferoverrunerrors", "excessivebuffererrors"},
     "ExcessiveBufferOverrunErrors"},
}};

std::string normalized(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c != '_' && c != ' ') {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

using Values = std::map<std::string, std::uint64_t>;  // normalized name -> value

Values normalize(const std::map<std::string, std::uint64_t>& counters) {
  Values out;
  for (const auto& [name, value] : counters) {
    out.emplace(normalized(name), value);
  }
  return out;
}

std::optional<std::uint64_t> first(const Values& values, const std::array<const char*, 2>& names) {
  for (const char* name : names) {
    if (*name == '\0') {
      continue;
    }
    if (auto it = values.find(name); it != values.end()) {
      return it->second;
    }
  }
  return std::nullopt;
}

// The counters of one port into its sample; values already there (perfquery) are kept.
void put(IbPort& port, std::size_t sample, const Values& values) {
  CounterSample& into = port.samples[sample];
  for (const auto& c : k_counters) {
    MetricKey key{c.metric, -1};
    if (into.values.count(key) != 0) {
      continue;
    }
    auto wide = first(values, c.wide);
    auto narrow = first(values, c.narrow);
    // An unsupported extended error counter reads 0 beside a counting 32-bit one: the larger wins.
    if (wide && (!narrow || *wide >= *narrow)) {
      into.values[key] = static_cast<double>(*wide) * c.scale;
    } else if (narrow &&
               parsers::ib::saturated(*narrow, parsers::ib::port_counter_bits(c.pma_field))) {
      port.saturated.emplace(c.metric, sample);
    } else if (narrow) {
      into.values[key] = static_cast<double>(*narrow) * c.scale;
    }
  }
}

void size_samples(IbPort& port, const IbFabric& ib) {
  if (port.samples.size() < ib.samples.size()) {
    port.samples.resize(ib.samples.size());
  }
  for (std::size_t i = 0; i < ib.samples.size(); ++i) {
    port.samples[i].captured_at = ib.samples[i].captured_at;
  }
}

}  // namespace

void apply_counters(const IbDiagnetViews& views, std::size_t sample, NodeIndex& index) {
  IbFabric& ib = index.fabric();
  std::map<std::pair<std::size_t, std::uint32_t>, bool> done;  // (node, port) from PM_INFO
  if (views.db_csv) {
    for (const auto& row : views.db_csv->pm_info) {
      auto at = index.find(row.node_guid);
      if (!at || row.port == 0) {
        continue;
      }
      IbPort& port = port_of(index.node(*at), row.port);
      size_samples(port, ib);
      put(port, sample, normalize(row.counters));
      done[{*at, row.port}] = true;
    }
  }
  if (!views.pm) {
    return;
  }
  for (const auto& block : views.pm->ports) {
    auto at = index.find_port_guid(block.guid);
    if (!at || block.port == 0 || done.contains({*at, block.port})) {
      continue;
    }
    IbPort& port = port_of(index.node(*at), block.port);
    size_samples(port, ib);
    put(port, sample, normalize(block.counters));
  }
}

}  // namespace netdoctor::model::ibdiagnet_detail
