#include "remote/prometheus_switch_bundle.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor::remote {
namespace {

// snmp_exporter's if_mib module names its metrics after the IF-MIB objects (generator.yml,
// lookups ifAlias, ifDescr, ifName on ifIndex).
constexpr std::array<std::pair<std::string_view, IfField>, 16> k_if_mib = {{
    {"ifHCInOctets", IfField::InOctets},
    {"ifHCOutOctets", IfField::OutOctets},
    {"ifHCInUcastPkts", IfField::InUcast},
    {"ifHCInMulticastPkts", IfField::InMulticast},
    {"ifHCInBroadcastPkts", IfField::InBroadcast},
    {"ifHCOutUcastPkts", IfField::OutUcast},
    {"ifHCOutMulticastPkts", IfField::OutMulticast},
    {"ifHCOutBroadcastPkts", IfField::OutBroadcast},
    {"ifInErrors", IfField::InErrors},
    {"ifOutErrors", IfField::OutErrors},
    {"ifInDiscards", IfField::InDiscards},
    {"ifOutDiscards", IfField::OutDiscards},
    {"ifHighSpeed", IfField::HighSpeed},  // Mb/s
    {"ifMtu", IfField::Mtu},
    {"ifOperStatus", IfField::OperStatus},    // 1 up, 2 down, ...
    {"ifAdminStatus", IfField::AdminStatus},  // 1 up, 2 down, 3 testing
}};

// The model metric each IF-MIB counter becomes once `show interfaces counters` is read
// (model/switch_counters.cc): the octets become rates, the packet counters RX_OK and TX_OK.
// Empty for the port's configuration and state, which the loader reads from the status table.
constexpr std::array<std::string_view, at(IfField::Count)> k_if_mib_metrics = {
    "rx_bps",     "tx_bps",    "rx_packets", "rx_packets", "rx_packets", "tx_packets", "tx_packets",
    "tx_packets", "rx_errors", "tx_errors",  "rx_drops",   "tx_drops",   "",           "",
    "",           ""};

// vinted/sonic-exporter's queue collector (labels device, queue: the index in SONiC's
// COUNTERS_QUEUE_NAME_MAP).
constexpr std::array<std::pair<std::string_view, QueueField>, 4> k_queues = {{
    {"sonic_queue_packets_total", QueueField::Packets},
    {"sonic_queue_bytes_total", QueueField::Bytes},
    {"sonic_queue_dropped_packets_total", QueueField::DroppedPackets},
    {"sonic_queue_dropped_bytes_total", QueueField::DroppedBytes},
}};

// The model metric each queue field becomes once `show queue counters` is read
// (model/switch_counters.cc).
constexpr std::array<std::string_view, at(QueueField::Count)> k_queue_metrics = {
    "queue_tx_packets", "queue_tx_bytes", "queue_drop_packets", "queue_drop_bytes"};

// No exporter found exports PFC per priority; these are netdoctor's own (docs/prometheus.md).
constexpr std::string_view k_pfc_rx = "netdoctor_switch_pfc_rx_frames_total";
constexpr std::string_view k_pfc_tx = "netdoctor_switch_pfc_tx_frames_total";
constexpr std::string_view k_sonic_lldp = "sonic_lldp_neighbor_info";
// A queue label beyond any ASIC's queue count is not a queue.
constexpr std::uint64_t k_max_queue = 1023;

template <typename Table>
auto find_field(const Table& table, std::string_view name) {
  return std::find_if(table.begin(), table.end(),
                      [&](const auto& row) { return row.first == name; });
}

// The families a switch's series may lack, each named in a problem with the series that give it.
struct Family {
  std::string_view what;
  std::string_view command;  // the SONiC command it fills
};
constexpr std::array<Family, 4> k_families = {{
    {"interface counters (snmp_exporter if_mib: ifHCInOctets, ifHCOutOctets, ...)",
     "show interfaces counters"},
    {"PFC counters (netdoctor_switch_pfc_rx_frames_total, netdoctor_switch_pfc_tx_frames_total)",
     "show pfc counters"},
    {"queue counters (sonic-exporter: sonic_queue_dropped_packets_total, ...)",
     "show queue counters"},
    {"LLDP neighbours (netdoctor_lldp_neighbor_info or sonic_lldp_neighbor_info), so its "
     "uplinks and host ports are unknown",
     "show lldp table"},
}};

}  // namespace

bool is_switch_metric(std::string_view name) {
  return find_field(k_if_mib, name) != k_if_mib.end() ||
         find_field(k_queues, name) != k_queues.end() || name == k_pfc_rx || name == k_pfc_tx ||
         name == k_sonic_lldp;
}

std::string switch_query_pattern_without_pfc(
    const std::function<bool(std::string_view)>& queue_wanted,
    const std::function<bool(std::string_view)>& counter_wanted) {
  std::vector<std::string_view> names;
  for (const auto& [name, field] : k_if_mib) {
    const std::string_view metric = k_if_mib_metrics[at(field)];
    if (!counter_wanted || metric.empty() || counter_wanted(metric)) {
      names.push_back(name);
    }
  }
  for (const auto& [name, field] : k_queues) {
    if (!queue_wanted || queue_wanted(k_queue_metrics[at(field)])) {
      names.push_back(name);
    }
  }
  names.push_back(k_sonic_lldp);
  return fmt::format("{}", fmt::join(names, "|"));
}

std::string switch_queue_pattern(const std::function<bool(std::string_view)>& wanted) {
  std::vector<std::string_view> names;
  for (const auto& [name, field] : k_queues) {
    if (wanted(k_queue_metrics[at(field)])) {
      names.push_back(name);
    }
  }
  return fmt::format("{}", fmt::join(names, "|"));
}

bool is_queue_traffic_metric(std::string_view name) {
  return name == k_queue_metrics[at(QueueField::Packets)] ||
         name == k_queue_metrics[at(QueueField::Bytes)];
}

std::string queue_traffic_pattern(const QueueTrafficWanted& wanted) {
  return switch_queue_pattern([&wanted](std::string_view name) {
    return (wanted.packets && name == k_queue_metrics[at(QueueField::Packets)]) ||
           (wanted.bytes && name == k_queue_metrics[at(QueueField::Bytes)]);
  });
}

std::string switch_pfc_pattern() {
  return fmt::format("{}|{}", k_pfc_rx, k_pfc_tx);
}

std::string switch_query_pattern() {
  return switch_query_pattern_without_pfc() + "|" + switch_pfc_pattern();
}

SwitchBundle::SwitchBundle(LeftOut& left_out) : m_left_out(left_out) {}

std::optional<std::string> SwitchBundle::port_name(const PromSeries& series) {
  for (const char* label : {"ifName", "ifDescr", "device"}) {
    const std::string& name = series.label(label);
    if (!name.empty()) {
      if (is_one_word(name)) {
        return name;
      }
      break;
    }
  }
  ++m_left_out.unsafe;
  return std::nullopt;
}

void SwitchBundle::add(const std::string& sw, const PromSeries& series) {
  const std::string& name = series.name();
  if (is_lldp_neighbor_metric(name)) {
    const std::string& local = series.label("local_interface");
    const auto neighbor = lldp_neighbor_labels(series);
    if (!is_one_word(local) || !neighbor) {
      ++m_left_out.unsafe;
      return;
    }
    auto& samples = m_switches[sw];
    for_each_point(series, [&](double time, double) { samples[time].lldp[local] = *neighbor; });
    return;
  }
  if (auto row = find_field(k_if_mib, name); row != k_if_mib.end()) {
    const auto port = port_name(series);
    if (!port) {
      return;
    }
    const IfField field = row->second;
    // An enum exported as info or state set (`type: EnumAsInfo`/`EnumAsStateSet` overrides) names
    // the state in a label of the metric's own name; value 1 marks the current one.
    const std::string& state = series.label(std::string(name));
    const std::string alias = series.label("ifAlias");
    auto& samples = m_switches[sw];
    for_each_point(series, [&](double time, double value) {
      SwitchPortSample& p = samples[time].ports[*port];
      if (!alias.empty()) {
        p.alias = alias;
      }
      if (state.empty()) {
        p.if_mib[at(field)] = value;
      } else if (value == 1.0) {
        p.if_mib[at(field)] = state == "up" ? k_if_status_up : k_if_status_down;
      }
    });
  } else if (name == k_pfc_rx || name == k_pfc_tx) {
    const auto port = port_name(series);
    const auto priority = parse_u64(series.label("priority"));
    if (!port) {
      return;
    }
    if (!priority || *priority >= 8) {
      ++m_left_out.unsafe;
      return;
    }
    auto& samples = m_switches[sw];
    for_each_point(series, [&](double time, double value) {
      SwitchPortSample& p = samples[time].ports[*port];
      (name == k_pfc_rx ? p.pfc_rx : p.pfc_tx)[*priority] = value;
    });
  } else if (auto queue_row = find_field(k_queues, name); queue_row != k_queues.end()) {
    const auto port = port_name(series);
    const auto queue = parse_u64(series.label("queue"));
    if (!port) {
      return;
    }
    if (!queue || *queue > k_max_queue) {
      ++m_left_out.unsafe;
      return;
    }
    const auto key = std::make_pair(*port, static_cast<unsigned>(*queue));
    auto& samples = m_switches[sw];
    for_each_point(series, [&](double time, double value) {
      samples[time].queues[key][at(queue_row->second)] = value;
    });
  }
}

std::map<std::string, QueueTrafficWanted> SwitchBundle::queue_traffic_wanted(
    const QueueTrafficRule& rule) const {
  std::map<std::string, QueueTrafficWanted> out;
  for (const auto& [sw, samples] : m_switches) {
    // Each port's queue drop counters over time, and whether its octets give a sending rate.
    std::map<std::string, std::map<unsigned, std::vector<double>>> drops;
    std::set<std::string> rated;
    const SwitchSample* before = nullptr;
    double before_time = 0.0;
    for (const auto& [time, sample] : samples) {
      for (const auto& [key, values] : sample.queues) {
        auto& counters = drops[key.first];
        if (const auto& dropped = values[at(QueueField::DroppedPackets)]) {
          counters[key.second].push_back(*dropped);
        }
      }
      for (const auto& [port, now] : sample.ports) {
        drops[port];  // a port without queue series may still want their bytes
        if (before == nullptr) {
          continue;
        }
        const auto then = before->ports.find(port);
        if (then != before->ports.end() &&
            octet_rate(now.if_mib[at(IfField::OutOctets)],
                       then->second.if_mib[at(IfField::OutOctets)], time - before_time)) {
          rated.insert(port);
        }
      }
      before = &sample;
      before_time = time;
    }
    QueueTrafficWanted wanted;
    for (const auto& [port, queues] : drops) {
      std::vector<std::vector<double>> counters;
      for (const auto& [queue, values] : queues) {
        counters.push_back(values);
      }
      const QueueTrafficWanted port_wants = rule(counters, rated.count(port) != 0);
      wanted.packets = wanted.packets || port_wants.packets;
      wanted.bytes = wanted.bytes || port_wants.bytes;
    }
    if (wanted.packets || wanted.bytes) {
      out.emplace(sw, wanted);
    }
  }
  return out;
}

MachineFiles SwitchBundle::finish(std::vector<Error>& problems, const std::string& source) {
  RenderedSwitches all = render_switches(std::move(m_switches));
  m_switches.clear();
  add_lacking_problems(all.lacking, problems, source);
  return std::move(all.files);
}

std::vector<SwitchLayouts> SwitchBundle::take_groups(std::size_t group_size) {
  std::vector<SwitchLayouts> groups;
  while (!m_switches.empty()) {
    SwitchLayouts group;
    while (!m_switches.empty() && group.size() < std::max<std::size_t>(group_size, 1)) {
      group.insert(m_switches.extract(m_switches.begin()));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

RenderedSwitches render_switches(SwitchLayouts switches) {
  RenderedSwitches out;
  out.lacking.resize(k_families.size());
  while (!switches.empty()) {
    // Each switch's layout goes as its files are written: the two are never all held at once.
    auto node = switches.extract(switches.begin());
    const std::string& sw = node.key();
    std::array<bool, k_families.size()> seen{};
    const SwitchSample* before = nullptr;
    double before_time = 0.0;
    for (const auto& [time, sample] : node.mapped()) {
      auto& files = out.files[sw][time];
      for (auto& [command, text] : render_sonic_outputs(sample, before, time - before_time)) {
        for (std::size_t f = 0; f < k_families.size(); ++f) {
          seen[f] = seen[f] || command == k_families[f].command;
        }
        files["sos_commands/sonic/" + mangle_command_line(command)] = std::move(text);
      }
      before = &sample;
      before_time = time;
    }
    for (std::size_t f = 0; f < k_families.size(); ++f) {
      if (!seen[f]) {
        out.lacking[f].push_back(sw);
      }
    }
  }
  return out;
}

void gather_lacking(const RenderedSwitches& group, std::vector<std::vector<std::string>>& into) {
  into.resize(std::max(into.size(), group.lacking.size()));
  for (std::size_t f = 0; f < group.lacking.size(); ++f) {
    into[f].insert(into[f].end(), group.lacking[f].begin(), group.lacking[f].end());
  }
}

void add_lacking_problems(const std::vector<std::vector<std::string>>& lacking,
                          std::vector<Error>& problems, const std::string& source) {
  for (std::size_t f = 0; f < std::min(lacking.size(), k_families.size()); ++f) {
    if (!lacking[f].empty()) {
      problems.push_back(make_error(ErrorCode::NotFound,
                                    fmt::format("switch(es) {} have no {} in the window",
                                                fmt::join(lacking[f], ", "), k_families[f].what),
                                    source));
    }
  }
}

}  // namespace netdoctor::remote
