// load_switch: a SONiC switch's ports (status, LLDP peers from the latest sample) and their
// counters in every sample.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "model/loader.h"
#include "model/source_reading.h"
#include "parsers/sonic_interfaces_counters.h"
#include "parsers/sonic_interfaces_status.h"
#include "parsers/sonic_lldp_table.h"
#include "parsers/sonic_pfc_counters.h"
#include "parsers/sonic_queue_counters.h"

namespace netdoctor::model {
namespace {

const std::string k_src_counters = "show interfaces counters";
const std::string k_src_status = "show interfaces status";
const std::string k_src_pfc = "show pfc counters";
const std::string k_src_queue = "show queue counters";
const std::string k_src_lldp = "show lldp table";
const std::string k_src_captured_at = "captured_at";
constexpr int k_multicast_queue_offset = 100;  // MC queues as q + 100 (model/fabric.h)

template <typename T, typename Parse>
std::optional<T> parse_command(SourceLog& log, const SampleSource& sample,
                               const std::vector<std::string>& argv, const std::string& source,
                               SourceMap& map, Parse parse) {
  auto text = log.command(sample, argv, source, map);
  if (!text) {
    return std::nullopt;
  }
  auto parsed = parse(*text);
  if (!parsed.ok()) {
    log.malformed(source, sample.display_command(argv), parsed.error(), map);
    return std::nullopt;
  }
  return std::move(parsed).value();
}

class PortIndex {
 public:
  explicit PortIndex(Switch& sw) : m_switch(sw) {
    for (std::size_t i = 0; i < sw.ports.size(); ++i) {
      m_index.emplace(sw.ports[i].name, i);
    }
  }
  SwitchPort& get(const std::string& name) {
    auto [it, inserted] = m_index.try_emplace(name, m_switch.ports.size());
    if (inserted) {
      SwitchPort port;
      port.name = name;
      m_switch.ports.push_back(std::move(port));
    }
    return m_switch.ports[it->second];
  }

 private:
  Switch& m_switch;
  std::unordered_map<std::string, std::size_t> m_index;
};

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

}  // namespace

Switch load_switch(const std::string& name, const std::vector<MachineSample>& samples,
                   std::vector<Problem>& problems) {
  Switch sw;
  sw.name = name;
  SourceLog log(sw.entity(), problems);
  if (samples.empty()) {
    return sw;
  }
  const SampleSource& latest = *samples.back().source;
  PortIndex ports(sw);
  if (auto status = parse_command<parsers::SonicInterfacesStatus>(
          log, latest, {"show", "interfaces", "status"}, k_src_status, sw.sources,
          parsers::parse_sonic_interfaces_status)) {
    for (const auto& row : status->interfaces) {
      auto& port = ports.get(row.interface);
      port.alias = row.alias;
      if (row.speed_mbps) {
        port.speed_gbps = static_cast<double>(*row.speed_mbps) / 1000.0;
      }
      if (row.mtu) {
        port.mtu = static_cast<int>(*row.mtu);
      }
      port.oper = row.oper;
      port.admin = row.admin;
    }
  }
  if (auto lldp =
          parse_command<parsers::SonicLldpTable>(log, latest, {"show", "lldp", "table"}, k_src_lldp,
                                                 sw.sources, parsers::parse_sonic_lldp_table)) {
    for (const auto& entry : lldp->entries) {
      auto& port = ports.get(entry.local_port);
      port.peer_device = entry.remote_device;
      port.peer_port =
          entry.remote_port_id.empty() ? entry.remote_port_descr : entry.remote_port_id;
    }
  }

  std::vector<std::optional<double>> times;
  for (const auto& sample : samples) {
    auto at = sample.source->captured_at();
    if (at.ok()) {
      times.emplace_back(*at);
      record_source(sw.sources, k_src_captured_at, Availability::Observed);
      continue;
    }
    times.emplace_back(std::nullopt);
    Error error = at.error();
    if (error.context.empty()) {
      error.context = sample.source->display_path("/captured_at");
    }
    error.message = "captured_at missing or unusable (" + error.message +
                    "); sample left out of the counter series";
    record_source(sw.sources, k_src_captured_at, Availability::Malformed, error.describe());
    log.problem(k_src_captured_at, std::move(error));
  }
  const bool any_time =
      std::any_of(times.begin(), times.end(), [](const auto& t) { return t.has_value(); });

  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (any_time && !times[i]) {
      continue;
    }
    const double at = times[i].value_or(0.0);
    const SampleSource& sample = *samples[i].source;
    sw.captured_at.push_back(at);
    // Ports first seen in this sample's tables are added; earlier samples stay absent there.
    std::vector<MetricValues::Builder> values(sw.ports.size());
    auto slot = [&](const std::string& port_name) -> MetricValues::Builder& {
      auto& port = ports.get(port_name);
      const auto index = static_cast<std::size_t>(&port - sw.ports.data());
      if (values.size() <= index) {
        values.resize(index + 1);
      }
      return values[index];
    };
    if (auto counters = parse_command<parsers::SonicInterfacesCounters>(
            log, sample, {"show", "interfaces", "counters"}, k_src_counters, sw.sources,
            parsers::parse_sonic_interfaces_counters)) {
      for (const auto& row : counters->interfaces) {
        auto& s = slot(row.iface);
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
    if (auto pfc = parse_command<parsers::SonicPfcCounters>(
            log, sample, {"show", "pfc", "counters"}, k_src_pfc, sw.sources,
            parsers::parse_sonic_pfc_counters)) {
      for (const auto& row : pfc->rx) {
        auto& s = slot(row.port);
        for (int p = 0; p < 8; ++p) {
          put(s, "pfc_rx_pause_frames", p, row.frames[static_cast<std::size_t>(p)]);
        }
      }
      for (const auto& row : pfc->tx) {
        auto& s = slot(row.port);
        for (int p = 0; p < 8; ++p) {
          put(s, "pfc_tx_pause_frames", p, row.frames[static_cast<std::size_t>(p)]);
        }
      }
    }
    if (auto queues = parse_command<parsers::SonicQueueCounters>(
            log, sample, {"show", "queue", "counters"}, k_src_queue, sw.sources,
            parsers::parse_sonic_queue_counters)) {
      for (const auto& row : queues->queues) {
        if (!row.queue_index || (row.queue_type != "UC" && row.queue_type != "MC")) {
          continue;
        }
        const int q = static_cast<int>(*row.queue_index) +
                      (row.queue_type == "MC" ? k_multicast_queue_offset : 0);
        auto& s = slot(row.port);
        put(s, "queue_tx_packets", q, row.packets);
        put(s, "queue_tx_bytes", q, row.bytes);
        put(s, "queue_drop_packets", q, row.drop_packets);
        put(s, "queue_drop_bytes", q, row.drop_bytes);
      }
    }
    values.resize(sw.ports.size());
    for (std::size_t p = 0; p < sw.ports.size(); ++p) {
      auto& port_samples = sw.ports[p].samples;
      // A port first seen now gets empty (absent) readings for the samples before.
      const auto before = port_samples.size();
      port_samples.resize(sw.captured_at.size() - 1);
      for (std::size_t k = before; k < port_samples.size(); ++k) {
        port_samples[k].captured_at = sw.captured_at[k];
      }
      port_samples.push_back(CounterSample{at, std::move(values[p]).finish()});
    }
  }
  return sw;
}

}  // namespace netdoctor::model
