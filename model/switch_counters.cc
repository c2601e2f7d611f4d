#include "model/switch_counters.h"

#include <optional>
#include <vector>

#include "model/source_names.h"
#include "model/switch_pfcwd.h"
#include "parsers/sonic_interfaces_counters.h"
#include "parsers/sonic_pfc_counters.h"
#include "parsers/sonic_queue_counters.h"

namespace netdoctor::model {
namespace {

constexpr int k_multicast_queue_offset = 100;  // MC queues as q + 100 (model/fabric.h)

// Of two readings of one metric the first is kept.
void put(MetricValues::Builder& sample, const char* metric, int index,
         std::optional<std::uint64_t> v) {
  if (v) {
    sample.add(metric, index, static_cast<double>(*v));
  }
}

void put(MetricValues::Builder& sample, const char* metric, std::optional<double> v) {
  if (v) {
    sample.add(metric, -1, *v);
  }
}

// This sample's values of each port, by its position in sw.ports.
class SampleValues {
 public:
  SampleValues(PortIndex& ports, std::size_t port_count) : m_ports(ports), m_values(port_count) {}
  MetricValues::Builder& of(const std::string& port_name) {
    const auto index = m_ports.position(port_name);
    if (m_values.size() <= index) {
      m_values.resize(index + 1);
    }
    return m_values[index];
  }
  std::vector<MetricValues::Builder>& all() { return m_values; }

 private:
  PortIndex& m_ports;
  std::vector<MetricValues::Builder> m_values;
};

void read_interface_counters(SourceLog& log, const SampleSource& sample, Switch& sw,
                             SampleValues& values) {
  auto counters = parse_command<parsers::SonicInterfacesCounters>(
      log, sample, {"show", "interfaces", "counters"}, source::k_show_interfaces_counters,
      sw.sources, parsers::parse_sonic_interfaces_counters);
  if (!counters) {
    return;
  }
  for (const auto& row : counters->interfaces) {
    auto& s = values.of(row.iface);
    put(s, "rx_packets", -1, row.rx_ok);
    put(s, "tx_packets", -1, row.tx_ok);
    put(s, "rx_errors", -1, row.rx_err);
    put(s, "rx_drops", -1, row.rx_drp);
    put(s, "rx_overruns", -1, row.rx_ovr);
    put(s, "tx_errors", -1, row.tx_err);
    put(s, "tx_drops", -1, row.tx_drp);
    put(s, "tx_overruns", -1, row.tx_ovr);
    put(s, "rx_bps", row.rx_bytes_per_s);
    put(s, "tx_bps", row.tx_bytes_per_s);
    put(s, "rx_util_pct", row.rx_util_percent);
    put(s, "tx_util_pct", row.tx_util_percent);
  }
}

void read_pfc_counters(SourceLog& log, const SampleSource& sample, Switch& sw,
                       SampleValues& values) {
  auto pfc = parse_command<parsers::SonicPfcCounters>(log, sample, {"show", "pfc", "counters"},
                                                      source::k_show_pfc_counters, sw.sources,
                                                      parsers::parse_sonic_pfc_counters);
  if (!pfc) {
    return;
  }
  for (const auto& row : pfc->rx) {
    auto& s = values.of(row.port);
    for (int p = 0; p < 8; ++p) {
      put(s, "pfc_rx_pause_frames", p, row.frames[static_cast<std::size_t>(p)]);
    }
  }
  for (const auto& row : pfc->tx) {
    auto& s = values.of(row.port);
    for (int p = 0; p < 8; ++p) {
      put(s, "pfc_tx_pause_frames", p, row.frames[static_cast<std::size_t>(p)]);
    }
  }
}

void read_queue_counters(SourceLog& log, const SampleSource& sample, Switch& sw,
                         SampleValues& values) {
  auto queues = parse_command<parsers::SonicQueueCounters>(
      log, sample, {"show", "queue", "counters"}, source::k_show_queue_counters, sw.sources,
      parsers::parse_sonic_queue_counters);
  if (!queues) {
    return;
  }
  for (const auto& row : queues->queues) {
    if (!row.queue_index || (row.queue_type != "UC" && row.queue_type != "MC")) {
      continue;
    }
    const int q = static_cast<int>(*row.queue_index) +
                  (row.queue_type == "MC" ? k_multicast_queue_offset : 0);
    auto& s = values.of(row.port);
    put(s, "queue_tx_packets", q, row.packets);
    put(s, "queue_tx_bytes", q, row.bytes);
    put(s, "queue_drop_packets", q, row.drop_packets);
    put(s, "queue_drop_bytes", q, row.drop_bytes);
  }
}

}  // namespace

void read_switch_counters(SourceLog& log, const SampleSource& sample, double at, PortIndex& ports,
                          Switch& sw) {
  SampleValues values(ports, sw.ports.size());
  read_interface_counters(log, sample, sw, values);
  read_pfc_counters(log, sample, sw, values);
  read_queue_counters(log, sample, sw, values);
  read_pfcwd_stats(
      log, sample, ports, sw,
      [&values](const std::string& port) -> MetricValues::Builder& { return values.of(port); });
  auto& all = values.all();
  all.resize(sw.ports.size());
  for (std::size_t p = 0; p < sw.ports.size(); ++p) {
    auto& port_samples = sw.ports[p].samples;
    // A port first seen now gets empty (absent) readings for the samples before.
    const auto before = port_samples.size();
    port_samples.resize(sw.captured_at.size() - 1);
    for (std::size_t k = before; k < port_samples.size(); ++k) {
      port_samples[k].captured_at = sw.captured_at[k];
    }
    port_samples.push_back(CounterSample{at, std::move(all[p]).finish()});
  }
}

}  // namespace netdoctor::model
