#include "remote/switch_sample.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/sonic_table.h"

namespace netdoctor::remote {
namespace {

// A queue index alone does not say unicast or multicast; SONiC numbers UC0-7, then MC8 and up.
constexpr unsigned k_first_multicast_queue = 8;

std::string count_cell(const std::optional<double>& value) {
  return value ? grouped_count(saturated_count(*value)) : std::string("N/A");
}

std::optional<double> sum(std::initializer_list<std::optional<double>> parts) {
  std::optional<double> total;
  for (const auto& part : parts) {
    if (part) {
      total = total.value_or(0.0) + *part;
    }
  }
  return total;
}

bool any(const std::array<std::optional<double>, at(IfField::Count)>& values,
         std::initializer_list<IfField> fields) {
  return std::any_of(fields.begin(), fields.end(),
                     [&](IfField f) { return values[at(f)].has_value(); });
}

template <typename Array>
bool any_value(const Array& values) {
  return std::any_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); });
}

std::string rate_cell(const std::optional<double>& bytes_per_s) {
  return bytes_per_s ? sonic_byte_rate(*bytes_per_s) : std::string("N/A");
}

std::string util_cell(const std::optional<double>& bytes_per_s,
                      const std::optional<double>& speed_mbps) {
  if (!bytes_per_s || !speed_mbps || !(*speed_mbps > 0.0)) {
    return "N/A";
  }
  return fmt::format("{:.2f}%", 100.0 * *bytes_per_s * 8.0 / (*speed_mbps * 1e6));
}

// What `show interfaces counters` has of a port now, with rates from the sample before.
std::vector<std::string> counters_row(const std::string& name, const SwitchPortSample& port,
                                      const SwitchPortSample* before, double seconds) {
  const auto& v = port.if_mib;
  std::string state = "N/A";
  if (v[at(IfField::AdminStatus)] && *v[at(IfField::AdminStatus)] == k_if_status_down) {
    state = "X";
  } else if (v[at(IfField::OperStatus)]) {
    state = *v[at(IfField::OperStatus)] == k_if_status_up ? "U" : "D";
  }
  const auto rate = [&](IfField octets) {
    return before == nullptr ? std::nullopt
                             : octet_rate(v[at(octets)], before->if_mib[at(octets)], seconds);
  };
  const auto rx = rate(IfField::InOctets);
  const auto tx = rate(IfField::OutOctets);
  const auto& speed = v[at(IfField::HighSpeed)];
  return {name,
          state,
          count_cell(sum(
              {v[at(IfField::InUcast)], v[at(IfField::InMulticast)], v[at(IfField::InBroadcast)]})),
          rate_cell(rx),
          util_cell(rx, speed),
          count_cell(v[at(IfField::InErrors)]),
          count_cell(v[at(IfField::InDiscards)]),
          "N/A",
          count_cell(sum({v[at(IfField::OutUcast)], v[at(IfField::OutMulticast)],
                          v[at(IfField::OutBroadcast)]})),
          rate_cell(tx),
          util_cell(tx, speed),
          count_cell(v[at(IfField::OutErrors)]),
          count_cell(v[at(IfField::OutDiscards)]),
          "N/A"};
}

std::string render_counters(const SwitchSample& now, const SwitchSample* before, double seconds) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, port] : now.ports) {
    if (!any(port.if_mib,
             {IfField::InOctets, IfField::OutOctets, IfField::InUcast, IfField::OutUcast,
              IfField::InErrors, IfField::OutErrors, IfField::InDiscards, IfField::OutDiscards})) {
      continue;
    }
    const SwitchPortSample* previous = nullptr;
    if (before != nullptr) {
      auto it = before->ports.find(name);
      previous = it == before->ports.end() ? nullptr : &it->second;
    }
    rows.push_back(counters_row(name, port, previous, seconds));
  }
  if (rows.empty()) {
    return {};
  }
  return render_sonic_table({"IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR", "RX_DRP",
                             "RX_OVR", "TX_OK", "TX_BPS", "TX_UTIL", "TX_ERR", "TX_DRP", "TX_OVR"},
                            rows);
}

std::string speed_cell(const std::optional<double>& mbps) {
  if (!mbps || !(*mbps > 0.0)) {
    return "N/A";
  }
  const std::uint64_t n = saturated_count(*mbps);
  return n % 1000 == 0 ? fmt::format("{}G", n / 1000) : fmt::format("{}M", n);
}

std::string status_cell(const std::optional<double>& status) {
  if (!status) {
    return "N/A";
  }
  return *status == k_if_status_up ? "up" : "down";
}

std::string render_status(const SwitchSample& now) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, port] : now.ports) {
    const auto& v = port.if_mib;
    if (!any(v, {IfField::HighSpeed, IfField::Mtu, IfField::OperStatus, IfField::AdminStatus})) {
      continue;
    }
    const auto& mtu = v[at(IfField::Mtu)];
    rows.push_back({name, "N/A", speed_cell(v[at(IfField::HighSpeed)]),
                    mtu ? integer_text(*mtu) : "N/A", "N/A", cell_word(port.alias), "N/A",
                    status_cell(v[at(IfField::OperStatus)]),
                    status_cell(v[at(IfField::AdminStatus)]), "N/A", "N/A"});
  }
  if (rows.empty()) {
    return {};
  }
  return render_sonic_table({"Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper",
                             "Admin", "Type", "Asym PFC"},
                            rows);
}

std::string render_pfc(const SwitchSample& now) {
  std::string out;
  for (const bool rx : {true, false}) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, port] : now.ports) {
      const auto& frames = rx ? port.pfc_rx : port.pfc_tx;
      if (!any_value(frames)) {
        continue;
      }
      std::vector<std::string> row = {name};
      for (const auto& count : frames) {
        row.push_back(count_cell(count));
      }
      rows.push_back(std::move(row));
    }
    if (rows.empty()) {
      continue;
    }
    if (!out.empty()) {
      out += '\n';
    }
    out += render_sonic_table({rx ? "Port Rx" : "Port Tx", "PFC0", "PFC1", "PFC2", "PFC3", "PFC4",
                               "PFC5", "PFC6", "PFC7"},
                              rows);
  }
  return out;
}

std::string render_queues(const SwitchSample& now) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, values] : now.queues) {
    const auto& [port, queue] = key;
    rows.push_back({port, fmt::format("{}{}", queue < k_first_multicast_queue ? "UC" : "MC", queue),
                    count_cell(values[at(QueueField::Packets)]),
                    count_cell(values[at(QueueField::Bytes)]),
                    count_cell(values[at(QueueField::DroppedPackets)]),
                    count_cell(values[at(QueueField::DroppedBytes)])});
  }
  if (rows.empty()) {
    return {};
  }
  return render_sonic_table(
      {"Port", "TxQ", "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes"}, rows);
}

std::string render_lldp(const SwitchSample& now) {
  if (now.lldp.empty()) {
    return {};
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& [local, n] : now.lldp) {
    rows.push_back({local, n.remote_system, n.remote_port, "", n.remote_port_descr});
  }
  return "Capability codes: (R) Router, (B) Bridge, (O) Other\n" +
         render_sonic_table(
             {"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"}, rows) +
         std::string(50, '-') + fmt::format("\nTotal entries displayed:  {}\n", rows.size());
}

// The families a switch's series may lack, each named in a problem with the series that give it.
}  // namespace

bool QueueKeyLess::operator()(const std::pair<std::string, unsigned>& a,
                              const std::pair<std::string, unsigned>& b) const {
  if (a.first != b.first) {
    return natural_less(a.first, b.first);
  }
  return a.second < b.second;
}

std::optional<double> octet_rate(const std::optional<double>& now,
                                 const std::optional<double>& before, double seconds) {
  if (!now || !before || *now < *before || !(seconds > 0.0)) {
    return std::nullopt;
  }
  return (*now - *before) / seconds;
}

std::map<std::string, std::string> render_sonic_outputs(const SwitchSample& now,
                                                        const SwitchSample* before,
                                                        double seconds) {
  std::map<std::string, std::string> out = {
      {"show interfaces counters", render_counters(now, before, seconds)},
      {"show interfaces status", render_status(now)},
      {"show pfc counters", render_pfc(now)},
      {"show queue counters", render_queues(now)},
      {"show lldp table", render_lldp(now)},
  };
  std::erase_if(out, [](const auto& entry) { return entry.second.empty(); });
  return out;
}

}  // namespace netdoctor::remote
