#include "tests/remote/openmetrics_export.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

#include "parsers/lldpcli_json.h"
#include "parsers/sonic_interfaces_counters.h"
#include "parsers/sonic_interfaces_status.h"
#include "parsers/sonic_lldp_table.h"
#include "parsers/sonic_pfc_counters.h"
#include "parsers/sonic_queue_counters.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

namespace fs = std::filesystem;
namespace t = netdoctor::testing;

// sysfs counter file -> node_infiniband_<name>, as node_exporter's infiniband collector exports
// it (written independently of remote/prometheus_bundle.cc's table on purpose).
const std::map<std::string, std::pair<std::string, double>>& ib_names() {
  static const std::map<std::string, std::pair<std::string, double>> k_names = {
      {"port_rcv_data", {"port_data_received_bytes_total", 4.0}},
      {"port_xmit_data", {"port_data_transmitted_bytes_total", 4.0}},
      {"port_rcv_packets", {"port_packets_received_total", 1.0}},
      {"port_xmit_packets", {"port_packets_transmitted_total", 1.0}},
      {"port_xmit_wait", {"port_transmit_wait_total", 1.0}},
      {"symbol_error", {"symbol_error_total", 1.0}},
      {"link_downed", {"link_downed_total", 1.0}},
      {"link_error_recovery", {"link_error_recovery_total", 1.0}},
      {"port_rcv_errors", {"port_errors_received_total", 1.0}},
      {"port_xmit_discards", {"port_discards_transmitted_total", 1.0}},
      {"port_rcv_remote_physical_errors", {"port_receive_remote_physical_errors_total", 1.0}},
      {"excessive_buffer_overrun_errors", {"excessive_buffer_overrun_errors_total", 1.0}},
      {"local_link_integrity_errors", {"local_link_integrity_errors_total", 1.0}},
      {"np_cnp_sent", {"np_cnp_packets_sent_total", 1.0}},
      {"np_ecn_marked_roce_packets", {"np_ecn_marked_roce_packets_received_total", 1.0}},
      {"rp_cnp_handled", {"rp_cnp_packets_handled_total", 1.0}},
      {"rp_cnp_ignored", {"rp_cnp_ignored_packets_received_total", 1.0}},
      {"out_of_buffer", {"out_of_buffer_drops_total", 1.0}},
      {"out_of_sequence", {"out_of_sequence_packets_received_total", 1.0}},
      {"packet_seq_err", {"packet_sequence_errors_total", 1.0}},
      {"local_ack_timeout_err", {"local_ack_timeout_errors_total", 1.0}},
      {"roce_adp_retrans", {"roce_adp_retransmits_total", 1.0}},
      {"roce_adp_retrans_to", {"roce_adp_retransmits_timeout_total", 1.0}},
      {"roce_slow_restart", {"roce_slow_restart_total", 1.0}},
      {"rx_icrc_encapsulated", {"rx_icrc_encapsulated_errors_total", 1.0}},
      {"rnr_nak_retry_err", {"rnr_nak_retry_packets_received_total", 1.0}},
      {"req_cqe_error", {"req_cqes_errors_total", 1.0}},
      {"resp_cqe_error", {"resp_cqes_errors_total", 1.0}},
      {"duplicate_request", {"duplicate_requests_packets_total", 1.0}},
      {"implied_nak_seq_err", {"implied_nak_seq_errors_total", 1.0}},
  };
  return k_names;
}

const std::map<std::string, std::string>& netdev_names() {
  static const std::map<std::string, std::string> k_names = {
      {"rx_bytes", "receive_bytes_total"},     {"tx_bytes", "transmit_bytes_total"},
      {"rx_packets", "receive_packets_total"}, {"tx_packets", "transmit_packets_total"},
      {"rx_dropped", "receive_drop_total"},    {"tx_dropped", "transmit_drop_total"},
      {"rx_errors", "receive_errs_total"},     {"tx_errors", "transmit_errs_total"},
  };
  return k_names;
}

// node_exporter's buildEthtoolFQName: sanitise, lower-case, rx -> received, tx -> transmitted;
// seven stats carry the netdev-style names.
std::string ethtool_metric(const std::string& stat) {
  static const std::map<std::string, std::string> k_basics = {
      {"rx_bytes", "received_bytes_total"},       {"rx_dropped", "received_dropped_total"},
      {"rx_errors", "received_errors_total"},     {"rx_packets", "received_packets_total"},
      {"tx_bytes", "transmitted_bytes_total"},    {"tx_errors", "transmitted_errors_total"},
      {"tx_packets", "transmitted_packets_total"}};
  if (auto it = k_basics.find(stat); it != k_basics.end()) {
    return "node_ethtool_" + it->second;
  }
  std::string name = std::regex_replace(stat, std::regex("_*[^0-9A-Za-z_]+_*"), "_");
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  name.erase(0, name.find_first_not_of('_'));
  // Applied twice: adjacent words ("rx_tx") share an underscore the first pass consumed.
  for (int pass = 0; pass < 2; ++pass) {
    name = std::regex_replace(name, std::regex("(^|_)rx(_|$)"), "$1received$2");
    name = std::regex_replace(name, std::regex("(^|_)tx(_|$)"), "$1transmitted$2");
  }
  return "node_ethtool_" + name;
}

std::string labels(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    out += fmt::format("{}{}=\"{}\"", out.empty() ? "" : ",", key, value);
  }
  return "{" + out + "}";
}

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  const auto end = text.find_last_not_of(" \t\r\n");
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

}  // namespace

void add_point(Exposition& out, const std::string& metric, const LabelList& labels_of, double time,
               double value) {
  out[metric][labels(labels_of)].push_back({time, value});
}

void export_host_sample(const fs::path& dir, const std::string& host, double time,
                        Exposition& out) {
  const std::string instance = host + ":9100";
  auto add = [&](const std::string& metric, LabelList l, double value) {
    l.insert(l.begin(), {{"instance", instance}, {"job", "node"}});
    add_point(out, metric, l, time, value);
  };
  const fs::path ib = dir / "sys/class/infiniband";
  if (fs::exists(ib)) {
    for (const auto& device : fs::directory_iterator(ib)) {
      const std::string dev = device.path().filename().string();
      if (fs::exists(device.path() / "fw_ver")) {
        add("node_infiniband_info",
            {{"device", dev},
             {"firmware_version", trimmed(t::read_text((device.path() / "fw_ver").string()))}},
            1.0);
      }
      for (const auto& port : fs::directory_iterator(device.path() / "ports")) {
        const std::string p = port.path().filename().string();
        for (const char* group : {"counters", "hw_counters"}) {
          if (!fs::exists(port.path() / group)) {
            continue;
          }
          for (const auto& file : fs::directory_iterator(port.path() / group)) {
            auto it = ib_names().find(file.path().filename().string());
            if (it != ib_names().end()) {
              add("node_infiniband_" + it->second.first, {{"device", dev}, {"port", p}},
                  std::stod(t::read_text(file.path().string())) * it->second.second);
            }
          }
        }
        if (fs::exists(port.path() / "state")) {
          add("node_infiniband_state_id", {{"device", dev}, {"port", p}},
              std::stod(t::read_text((port.path() / "state").string())));
        }
        if (fs::exists(port.path() / "phys_state")) {
          add("node_infiniband_physical_state_id", {{"device", dev}, {"port", p}},
              std::stod(t::read_text((port.path() / "phys_state").string())));
        }
        if (fs::exists(port.path() / "rate")) {
          add("node_infiniband_rate_bytes_per_second", {{"device", dev}, {"port", p}},
              std::stod(t::read_text((port.path() / "rate").string())) * 1e9 / 8.0);
        }
      }
    }
  }
  const fs::path net = dir / "sys/class/net";
  if (fs::exists(net)) {
    for (const auto& netdev : fs::directory_iterator(net)) {
      const std::string name = netdev.path().filename().string();
      if (fs::exists(netdev.path() / "statistics")) {
        for (const auto& file : fs::directory_iterator(netdev.path() / "statistics")) {
          auto it = netdev_names().find(file.path().filename().string());
          if (it != netdev_names().end()) {
            add("node_network_" + it->second, {{"device", name}},
                std::stod(t::read_text(file.path().string())));
          }
        }
      }
      if (fs::exists(netdev.path() / "mtu")) {
        add("node_network_mtu_bytes", {{"device", name}},
            std::stod(t::read_text((netdev.path() / "mtu").string())));
      }
      if (fs::exists(netdev.path() / "operstate")) {
        add("node_network_info",
            {{"address", trimmed(t::read_text((netdev.path() / "address").string()))},
             {"device", name},
             {"operstate", trimmed(t::read_text((netdev.path() / "operstate").string()))}},
            1.0);
      }
    }
  }
  for (const auto& file : fs::recursive_directory_iterator(dir / "sos_commands")) {
    const std::string name = file.path().filename().string();
    if (name.rfind("ethtool_-S_", 0) == 0) {
      const std::string netdev = name.substr(11);
      std::istringstream text(t::read_text(file.path().string()));
      for (std::string line; std::getline(text, line);) {
        // The value follows the last colon: bnxt's per-ring stats read "[0]: rx_ucast_packets: 7".
        const auto colon = line.rfind(':');
        if (colon == std::string::npos || trimmed(line.substr(colon + 1)).empty()) {
          continue;
        }
        add(ethtool_metric(trimmed(line.substr(0, colon))), {{"device", netdev}},
            std::stod(line.substr(colon + 1)));
      }
    } else if (name.rfind("ethtool_-i_", 0) == 0) {
      std::map<std::string, std::string> fields;
      std::istringstream text(t::read_text(file.path().string()));
      for (std::string line; std::getline(text, line);) {
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
          fields[line.substr(0, colon)] = trimmed(line.substr(colon + 1));
        }
      }
      add("node_ethtool_info",
          {{"bus_info", fields["bus-info"]},
           {"device", name.substr(11)},
           {"driver", fields["driver"]},
           {"expansion_rom_version", fields["expansion-rom-version"]},
           {"firmware_version", fields["firmware-version"]},
           {"version", fields["version"]}},
          1.0);
    } else if (name == "lldpcli_show_neighbors_-f_json") {
      // What a textfile-collector script exports from lldpcli (docs/prometheus.md).
      auto lldp = parsers::parse_lldpcli_json(t::read_text(file.path().string()));
      ASSERT_TRUE(lldp.ok()) << file.path();
      for (const auto& n : lldp->neighbors) {
        add("netdoctor_lldp_neighbor_info",
            {{"local_interface", n.local_interface},
             {"remote_port_desc", n.port_descr},
             {"remote_port_id", n.port_id},
             {"remote_system_name", n.chassis_name}},
            1.0);
      }
    } else if (name == "rdma_link_show") {
      // What a textfile-collector script exports from `rdma link show` (docs/prometheus.md).
      std::istringstream text(t::read_text(file.path().string()));
      std::smatch m;
      for (std::string line; std::getline(text, line);) {
        if (std::regex_search(line, m, std::regex(R"(^link (\S+)/(\d+) .*netdev (\S+))"))) {
          add("netdoctor_rdma_link_info",
              {{"device", m[1].str()}, {"netdev", m[3].str()}, {"port", m[2].str()}}, 1.0);
        }
      }
    }
  }
}

void export_switch_samples(const std::vector<fs::path>& samples, const std::string& name,
                           std::size_t index, const std::vector<double>& times, Exposition& out) {
  ASSERT_EQ(samples.size(), times.size());
  // snmp_exporter scrapes the switch's address; relabelling adds the `switch` name.
  const std::string target = fmt::format("10.0.{}.1", index);
  // An exporter on the switch itself (sonic-exporter, a textfile): named by its instance.
  const std::string on_switch = name + ":9101";
  auto snmp = [&](const std::string& metric, std::size_t if_index, const std::string& port,
                  const std::string& descr, double time, double value) {
    add_point(out, metric,
              {{"ifDescr", descr},
               {"ifIndex", std::to_string(if_index)},
               {"ifName", port},
               {"instance", target},
               {"job", "snmp"},
               {"switch", name}},
              time, value);
  };
  auto local = [&](const std::string& metric, LabelList l, double time, double value) {
    l.insert(l.begin(), {{"instance", on_switch}, {"job", "sonic"}});
    add_point(out, metric, l, time, value);
  };
  auto command = [](const fs::path& sample, const char* file) {
    return t::read_text((sample / "sos_commands/sonic" / file).string());
  };
  std::map<std::string, std::pair<double, double>> octets;  // port -> (in, out) counted so far
  for (std::size_t s = 0; s < samples.size(); ++s) {
    const double time = times[s];
    const double seconds = s == 0 ? 0.0 : times[s] - times[s - 1];
    auto status =
        parsers::parse_sonic_interfaces_status(command(samples[s], "show_interfaces_status"));
    auto counters =
        parsers::parse_sonic_interfaces_counters(command(samples[s], "show_interfaces_counters"));
    auto pfc = parsers::parse_sonic_pfc_counters(command(samples[s], "show_pfc_counters"));
    auto queues = parsers::parse_sonic_queue_counters(command(samples[s], "show_queue_counters"));
    auto lldp = parsers::parse_sonic_lldp_table(command(samples[s], "show_lldp_table"));
    ASSERT_TRUE(status.ok() && counters.ok() && pfc.ok() && queues.ok() && lldp.ok()) << samples[s];
    std::map<std::string, std::pair<std::size_t, std::string>> if_index;  // port -> (index, alias)
    for (const auto& row : status->interfaces) {
      const std::size_t i = if_index.size() + 1;
      if_index[row.interface] = {i, row.alias};
      snmp("ifHighSpeed", i, row.interface, row.alias, time,
           static_cast<double>(row.speed_mbps.value_or(0)));
      snmp("ifMtu", i, row.interface, row.alias, time, static_cast<double>(row.mtu.value_or(0)));
      snmp("ifOperStatus", i, row.interface, row.alias, time, row.oper == "up" ? 1.0 : 2.0);
      snmp("ifAdminStatus", i, row.interface, row.alias, time, row.admin == "up" ? 1.0 : 2.0);
    }
    for (const auto& row : counters->interfaces) {
      const auto& [i, alias] = if_index[row.iface];
      auto& [in, out_bytes] = octets[row.iface];
      if (s == 0) {
        in = static_cast<double>(row.rx_ok.value_or(0)) * 1500.0;
        out_bytes = static_cast<double>(row.tx_ok.value_or(0)) * 1500.0;
      } else {
        in += row.rx_bytes_per_s.value_or(0.0) * seconds;
        out_bytes += row.tx_bytes_per_s.value_or(0.0) * seconds;
      }
      const std::vector<std::pair<const char*, double>> values = {
          {"ifHCInOctets", in},
          {"ifHCOutOctets", out_bytes},
          {"ifHCInUcastPkts", static_cast<double>(row.rx_ok.value_or(0))},
          {"ifHCOutUcastPkts", static_cast<double>(row.tx_ok.value_or(0))},
          {"ifInErrors", static_cast<double>(row.rx_err.value_or(0))},
          {"ifOutErrors", static_cast<double>(row.tx_err.value_or(0))},
          {"ifInDiscards", static_cast<double>(row.rx_drp.value_or(0))},
          {"ifOutDiscards", static_cast<double>(row.tx_drp.value_or(0))}};
      for (const auto& [metric, value] : values) {
        snmp(metric, i, row.iface, alias, time, value);
      }
    }
    for (const bool rx : {true, false}) {
      for (const auto& row : rx ? pfc->rx : pfc->tx) {
        for (std::size_t p = 0; p < row.frames.size(); ++p) {
          local(
              rx ? "netdoctor_switch_pfc_rx_frames_total" : "netdoctor_switch_pfc_tx_frames_total",
              {{"device", row.port}, {"priority", std::to_string(p)}}, time,
              static_cast<double>(row.frames[p].value_or(0)));
        }
      }
    }
    for (const auto& row : queues->queues) {
      const LabelList l = {{"device", row.port},
                           {"queue", std::to_string(row.queue_index.value_or(0))}};
      local("sonic_queue_packets_total", l, time, static_cast<double>(row.packets.value_or(0)));
      local("sonic_queue_bytes_total", l, time, static_cast<double>(row.bytes.value_or(0)));
      local("sonic_queue_dropped_packets_total", l, time,
            static_cast<double>(row.drop_packets.value_or(0)));
      local("sonic_queue_dropped_bytes_total", l, time,
            static_cast<double>(row.drop_bytes.value_or(0)));
    }
    for (const auto& entry : lldp->entries) {
      local("netdoctor_lldp_neighbor_info",
            {{"local_interface", entry.local_port},
             {"remote_port_desc", entry.remote_port_descr},
             {"remote_port_id", entry.remote_port_id},
             {"remote_system_name", entry.remote_device}},
            time, 1.0);
    }
  }
}

std::string openmetrics(const Exposition& exposition) {
  std::string out;
  for (const auto& [metric, series] : exposition) {
    for (const auto& [label_text, points] : series) {
      for (const auto& point : points) {
        out += fmt::format("{}{} {:.17g} {:.3f}\n", metric, label_text, point.value, point.time);
      }
    }
  }
  return out + "# EOF\n";
}

std::map<std::string, std::vector<fs::path>> samples_under(const fs::path& root) {
  std::map<std::string, std::vector<fs::path>> out;
  if (!fs::exists(root)) {
    return out;
  }
  for (const auto& machine : fs::directory_iterator(root)) {
    auto& dirs = out[machine.path().filename().string()];
    for (const auto& sample : fs::directory_iterator(machine.path())) {
      dirs.push_back(sample.path());
    }
    std::sort(dirs.begin(), dirs.end());
  }
  return out;
}

double captured_at(const fs::path& sample) {
  return std::stod(t::read_text((sample / "captured_at").string()));
}

}  // namespace netdoctor::testing
