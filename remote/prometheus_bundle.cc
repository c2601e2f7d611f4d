#include "remote/prometheus_bundle.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "base/sample_source.h"
#include "base/strings.h"

namespace netdoctor::remote {
namespace {

// node_infiniband_<suffix> -> the sysfs file node_exporter read it from (procfs
// sysfs/class_infiniband.go). The byte counters were multiplied by 4 (port_*_data counts
// 4-octet words); the file gets the raw word count back, as counters.tsv scales it.
struct IbCounterFile {
  std::string_view suffix;
  std::string_view dir;  // "counters" or "hw_counters"
  std::string_view file;
  double divisor = 1.0;
};
constexpr std::array k_ib_counters = {
    IbCounterFile{"port_data_received_bytes_total", "counters", "port_rcv_data", 4.0},
    IbCounterFile{"port_data_transmitted_bytes_total", "counters", "port_xmit_data", 4.0},
    IbCounterFile{"port_packets_received_total", "counters", "port_rcv_packets"},
    IbCounterFile{"port_packets_transmitted_total", "counters", "port_xmit_packets"},
    IbCounterFile{"unicast_packets_received_total", "counters", "unicast_rcv_packets"},
    IbCounterFile{"unicast_packets_transmitted_total", "counters", "unicast_xmit_packets"},
    IbCounterFile{"multicast_packets_received_total", "counters", "multicast_rcv_packets"},
    IbCounterFile{"multicast_packets_transmitted_total", "counters", "multicast_xmit_packets"},
    IbCounterFile{"link_downed_total", "counters", "link_downed"},
    IbCounterFile{"link_error_recovery_total", "counters", "link_error_recovery"},
    IbCounterFile{"port_errors_received_total", "counters", "port_rcv_errors"},
    IbCounterFile{"port_discards_transmitted_total", "counters", "port_xmit_discards"},
    IbCounterFile{"port_constraint_errors_received_total", "counters",
                  "port_rcv_constraint_errors"},
    IbCounterFile{"port_constraint_errors_transmitted_total", "counters",
                  "port_xmit_constraint_errors"},
    IbCounterFile{"port_transmit_wait_total", "counters", "port_xmit_wait"},
    IbCounterFile{"port_receive_remote_physical_errors_total", "counters",
                  "port_rcv_remote_physical_errors"},
    IbCounterFile{"port_receive_switch_relay_errors_total", "counters",
                  "port_rcv_switch_relay_errors"},
    IbCounterFile{"symbol_error_total", "counters", "symbol_error"},
    IbCounterFile{"vl15_dropped_total", "counters", "VL15_dropped"},
    IbCounterFile{"excessive_buffer_overrun_errors_total", "counters",
                  "excessive_buffer_overrun_errors"},
    IbCounterFile{"local_link_integrity_errors_total", "counters", "local_link_integrity_errors"},
    IbCounterFile{"duplicate_requests_packets_total", "hw_counters", "duplicate_request"},
    IbCounterFile{"implied_nak_seq_errors_total", "hw_counters", "implied_nak_seq_err"},
    IbCounterFile{"local_ack_timeout_errors_total", "hw_counters", "local_ack_timeout_err"},
    IbCounterFile{"np_cnp_packets_sent_total", "hw_counters", "np_cnp_sent"},
    IbCounterFile{"np_ecn_marked_roce_packets_received_total", "hw_counters",
                  "np_ecn_marked_roce_packets"},
    IbCounterFile{"out_of_buffer_drops_total", "hw_counters", "out_of_buffer"},
    IbCounterFile{"out_of_sequence_packets_received_total", "hw_counters", "out_of_sequence"},
    IbCounterFile{"packet_sequence_errors_total", "hw_counters", "packet_seq_err"},
    IbCounterFile{"req_cqes_errors_total", "hw_counters", "req_cqe_error"},
    IbCounterFile{"req_cqes_flush_errors_total", "hw_counters", "req_cqe_flush_error"},
    IbCounterFile{"req_remote_access_errors_total", "hw_counters", "req_remote_access_errors"},
    IbCounterFile{"req_remote_invalid_request_errors_total", "hw_counters",
                  "req_remote_invalid_request"},
    IbCounterFile{"resp_cqes_errors_total", "hw_counters", "resp_cqe_error"},
    IbCounterFile{"resp_cqes_flush_errors_total", "hw_counters", "resp_cqe_flush_error"},
    IbCounterFile{"resp_local_length_errors_total", "hw_counters", "resp_local_length_error"},
    IbCounterFile{"resp_remote_access_errors_total", "hw_counters", "resp_remote_access_errors"},
    IbCounterFile{"rnr_nak_retry_packets_received_total", "hw_counters", "rnr_nak_retry_err"},
    IbCounterFile{"roce_adp_retransmits_total", "hw_counters", "roce_adp_retrans"},
    IbCounterFile{"roce_adp_retransmits_timeout_total", "hw_counters", "roce_adp_retrans_to"},
    IbCounterFile{"roce_slow_restart_total", "hw_counters", "roce_slow_restart"},
    IbCounterFile{"roce_slow_restart_cnps_total", "hw_counters", "roce_slow_restart_cnps"},
    IbCounterFile{"rp_cnp_ignored_packets_received_total", "hw_counters", "rp_cnp_ignored"},
    IbCounterFile{"rp_cnp_packets_handled_total", "hw_counters", "rp_cnp_handled"},
    IbCounterFile{"rx_atomic_requests_total", "hw_counters", "rx_atomic_requests"},
    IbCounterFile{"rx_dct_connect_requests_total", "hw_counters", "rx_dct_connect"},
    IbCounterFile{"rx_icrc_encapsulated_errors_total", "hw_counters", "rx_icrc_encapsulated"},
    IbCounterFile{"rx_read_requests_total", "hw_counters", "rx_read_requests"},
    IbCounterFile{"rx_write_requests_total", "hw_counters", "rx_write_requests"},
};

// node_network_<suffix> (netdev collector, /proc/net/dev names) -> /sys/class/net/<if>/statistics.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> k_netdev_stats = {{
    {"receive_bytes_total", "rx_bytes"},
    {"transmit_bytes_total", "tx_bytes"},
    {"receive_packets_total", "rx_packets"},
    {"transmit_packets_total", "tx_packets"},
    {"receive_drop_total", "rx_dropped"},
    {"transmit_drop_total", "tx_dropped"},
    {"receive_errs_total", "rx_errors"},
    {"transmit_errs_total", "tx_errors"},
    {"receive_frame_total", "rx_frame_errors"},
    {"receive_fifo_total", "rx_fifo_errors"},
}};

// The seven stats the ethtool collector names like the netdev collector.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> k_ethtool_basics = {{
    {"received_bytes_total", "rx_bytes"},
    {"received_dropped_total", "rx_dropped"},
    {"received_errors_total", "rx_errors"},
    {"received_packets_total", "rx_packets"},
    {"transmitted_bytes_total", "tx_bytes"},
    {"transmitted_errors_total", "tx_errors"},
    {"transmitted_packets_total", "tx_packets"},
}};

constexpr std::string_view k_ib_prefix = "node_infiniband_";
constexpr std::string_view k_ethtool_prefix = "node_ethtool_";
constexpr std::string_view k_network_prefix = "node_network_";
constexpr std::string_view k_rdma_link_metric = "netdoctor_rdma_link_info";

// sysfs's "<id>: <name>" forms (kernel drivers/infiniband/core/sysfs.c).
std::string port_state_text(double id) {
  static constexpr std::array<std::string_view, 6> k_names = {"NOP",   "DOWN",   "INIT",
                                                              "ARMED", "ACTIVE", "ACTIVE_DEFER"};
  const auto n = static_cast<std::size_t>(id);
  return n < k_names.size() ? fmt::format("{}: {}", n, k_names[n]) : fmt::format("{}: ?", n);
}

std::string phys_state_text(double id) {
  static constexpr std::array<std::string_view, 8> k_names = {
      "<unknown>",         "Sleep",   "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
      "LinkErrorRecovery", "Phy Test"};
  const auto n = static_cast<std::size_t>(id);
  return n < k_names.size() ? fmt::format("{}: {}", n, k_names[n]) : fmt::format("{}: ?", n);
}

std::string integer_text(double value) {
  if (value >= 9.2e18) {
    return fmt::format("{}", static_cast<std::uint64_t>(value));
  }
  return fmt::format("{}", static_cast<std::uint64_t>(std::llround(value)));
}

struct HostSample {
  std::map<std::string, std::string> files;  // relative to the sample directory
  std::map<std::string, std::map<std::string, std::string>>
      ethtool_stats;  // netdev -> stat -> value
  std::map<std::string, std::map<std::string, std::string>> ethtool_info;  // netdev -> labels
  std::map<std::string, std::string> rdma_links;                           // "dev/port" -> netdev
  std::map<std::string, std::string> port_states;                          // "dev/port" -> "ACTIVE"
};

class Layout {
 public:
  explicit Layout(const PromLayoutOptions& options) : m_options(options) {}

  void add(const PromSeries& series) {
    const std::string& name = series.name();
    const std::string host = host_from_instance(series.label(m_options.host_label));
    if (host.empty() || !is_safe_component(host)) {
      ++m_without_host;
      return;
    }
    if (starts_with(name, k_ib_prefix)) {
      add_infiniband(series, host, name.substr(k_ib_prefix.size()));
    } else if (starts_with(name, k_ethtool_prefix)) {
      add_ethtool(series, host, name.substr(k_ethtool_prefix.size()));
    } else if (starts_with(name, k_network_prefix)) {
      add_network(series, host, name.substr(k_network_prefix.size()));
    } else if (name == k_rdma_link_metric) {
      const std::string& device = series.label("device");
      const std::string& port = series.label("port");
      const std::string& netdev = series.label("netdev");
      if (!safe(device, series) || !safe(port, series) || !safe(netdev, series)) {
        return;
      }
      for_each_point(series, host, [&](HostSample& sample, double) {
        sample.rdma_links[device + "/" + port] = netdev;
      });
    }
  }

  BundleFiles finish() {
    BundleFiles out;
    std::map<double, std::string> sample_names;
    for (const auto& [host, samples] : m_hosts) {
      for (const auto& [time, sample] : samples) {
        sample_names.emplace(time, "");
      }
    }
    std::size_t index = 0;
    const int width = std::max(3, static_cast<int>(std::to_string(sample_names.size()).size()));
    for (auto& [time, name] : sample_names) {
      name = fmt::format("{:0{}}", index++, width);
    }
    for (auto& [host, samples] : m_hosts) {
      bool ib = false;
      bool ethtool = false;
      bool linked = false;
      for (auto& [time, sample] : samples) {
        const std::string dir = fmt::format("hosts/{}/{}/", host, sample_names[time]);
        out.files[dir + "captured_at"] = fmt::format("{:.3f}\n", time);
        for (auto& [path, content] : sample.files) {
          ib = ib || starts_with(path, "sys/class/infiniband/");
          out.files[dir + path] = std::move(content);
        }
        for (const auto& [netdev, stats] : sample.ethtool_stats) {
          ethtool = true;
          std::string text = "NIC statistics:\n";
          for (const auto& [stat, value] : stats) {
            text += fmt::format("     {}: {}\n", stat, value);
          }
          out.files[dir + "sos_commands/ethtool/" + mangle_command({"ethtool", "-S", netdev})] =
              std::move(text);
        }
        for (const auto& [netdev, labels] : sample.ethtool_info) {
          auto get = [&labels = labels](const char* key) {
            auto it = labels.find(key);
            return it == labels.end() ? std::string() : it->second;
          };
          out.files[dir + "sos_commands/ethtool/" + mangle_command({"ethtool", "-i", netdev})] =
              fmt::format(
                  "driver: {}\nversion: {}\nfirmware-version: {}\nexpansion-rom-version: {}\n"
                  "bus-info: {}\n",
                  get("driver"), get("version"), get("firmware_version"),
                  get("expansion_rom_version"), get("bus_info"));
        }
        if (!sample.rdma_links.empty()) {
          linked = true;
          std::string text;
          for (const auto& [device_port, netdev] : sample.rdma_links) {
            auto state = sample.port_states.find(device_port);
            text += fmt::format("link {} {}netdev {}\n", device_port,
                                state == sample.port_states.end()
                                    ? std::string()
                                    : fmt::format("state {} ", state->second),
                                netdev);
          }
          out.files[dir + "sos_commands/infiniband/" + mangle_command({"rdma", "link", "show"})] =
              std::move(text);
        }
      }
      if (ib && ethtool && !linked) {
        out.problems.push_back(make_error(
            ErrorCode::NotFound,
            fmt::format("host {}: no {} series, so its ethtool and netdev counters cannot be tied "
                        "to its RDMA devices (export it as docs/prometheus.md shows)",
                        host, k_rdma_link_metric),
            m_options.source));
      }
    }
    if (m_without_host > 0) {
      out.problems.push_back(
          make_error(ErrorCode::Parse,
                     fmt::format("{} series left out: no usable '{}' label to name their host",
                                 m_without_host, m_options.host_label),
                     m_options.source));
    }
    if (m_unsafe > 0) {
      out.problems.push_back(make_error(
          ErrorCode::Refused,
          fmt::format("{} series left out: a device, port or netdev label is not a plain name",
                      m_unsafe),
          m_options.source));
    }
    return out;
  }

 private:
  bool safe(const std::string& value, const PromSeries&) {
    if (is_safe_component(value)) {
      return true;
    }
    ++m_unsafe;
    return false;
  }

  template <typename Fn>
  void for_each_point(const PromSeries& series, const std::string& host, Fn fn) {
    auto& samples = m_hosts[host];
    for (const auto& [time, value] : series.points) {
      if (!std::isfinite(time) || !std::isfinite(value) || value < 0.0) {
        continue;  // NaN (stale), a negative counter: nothing to say at this time
      }
      fn(samples[time], value);
    }
  }

  void add_infiniband(const PromSeries& series, const std::string& host, std::string_view suffix) {
    const std::string& device = series.label("device");
    if (!safe(device, series)) {
      return;
    }
    const std::string dev_dir = "sys/class/infiniband/" + device + "/";
    if (suffix == "info") {
      for_each_point(series, host, [&](HostSample& sample, double) {
        for (const char* key : {"firmware_version", "board_id", "hca_type"}) {
          const std::string& value = series.label(key);
          if (!value.empty()) {
            const std::string file = std::string_view(key) == "firmware_version" ? "fw_ver" : key;
            sample.files[dev_dir + file] = value + "\n";
          }
        }
      });
      return;
    }
    const std::string& port = series.label("port");
    if (!safe(port, series)) {
      return;
    }
    const std::string port_dir = dev_dir + "ports/" + port + "/";
    if (suffix == "state_id") {
      for_each_point(series, host, [&](HostSample& sample, double value) {
        const std::string text = port_state_text(value);
        sample.files[port_dir + "state"] = text + "\n";
        sample.port_states[device + "/" + port] =
            std::string(trim(text.substr(text.find(':') + 1)));
      });
    } else if (suffix == "physical_state_id") {
      for_each_point(series, host, [&](HostSample& sample, double value) {
        sample.files[port_dir + "phys_state"] = phys_state_text(value) + "\n";
      });
    } else if (suffix == "rate_bytes_per_second") {
      for_each_point(series, host, [&](HostSample& sample, double value) {
        sample.files[port_dir + "rate"] = fmt::format("{:g} Gb/sec\n", value * 8.0 / 1e9);
      });
    } else {
      auto it = std::find_if(k_ib_counters.begin(), k_ib_counters.end(),
                             [&](const IbCounterFile& c) { return c.suffix == suffix; });
      if (it == k_ib_counters.end()) {
        return;  // not a counter the model reasons about
      }
      const std::string path = port_dir + std::string(it->dir) + "/" + std::string(it->file);
      const double divisor = it->divisor;
      for_each_point(series, host, [&](HostSample& sample, double value) {
        sample.files[path] = integer_text(value / divisor) + "\n";
      });
    }
  }

  void add_ethtool(const PromSeries& series, const std::string& host, std::string_view suffix) {
    const std::string& netdev = series.label("device");
    if (!safe(netdev, series)) {
      return;
    }
    if (suffix == "info") {
      for_each_point(series, host, [&](HostSample& sample, double) {
        sample.ethtool_info[netdev] = series.labels;
      });
      return;
    }
    auto stat = ethtool_stat_from_metric(series.name());
    if (!stat) {
      return;
    }
    for_each_point(series, host, [&](HostSample& sample, double value) {
      sample.ethtool_stats[netdev][*stat] = integer_text(value);
    });
  }

  void add_network(const PromSeries& series, const std::string& host, std::string_view suffix) {
    const std::string& netdev = series.label("device");
    if (!safe(netdev, series)) {
      return;
    }
    const std::string dir = "sys/class/net/" + netdev + "/";
    if (suffix == "info") {
      for_each_point(series, host, [&](HostSample& sample, double) {
        if (const auto& address = series.label("address"); !address.empty()) {
          sample.files[dir + "address"] = address + "\n";
        }
        if (const auto& oper = series.label("operstate"); !oper.empty()) {
          sample.files[dir + "operstate"] = oper + "\n";
        }
      });
    } else if (suffix == "mtu_bytes") {
      for_each_point(series, host, [&](HostSample& sample, double value) {
        sample.files[dir + "mtu"] = integer_text(value) + "\n";
      });
    } else if (suffix == "speed_bytes") {
      for_each_point(series, host, [&](HostSample& sample, double value) {
        sample.files[dir + "speed"] = integer_text(value * 8.0 / 1e6) + "\n";  // Mb/s
      });
    } else {
      auto it = std::find_if(k_netdev_stats.begin(), k_netdev_stats.end(),
                             [&](const auto& row) { return row.first == suffix; });
      if (it == k_netdev_stats.end()) {
        return;
      }
      const std::string path = dir + "statistics/" + std::string(it->second);
      for_each_point(series, host, [&](HostSample& sample, double value) {
        sample.files[path] = integer_text(value) + "\n";
      });
    }
  }

  const PromLayoutOptions& m_options;
  std::map<std::string, std::map<double, HostSample>> m_hosts;
  std::size_t m_without_host = 0;
  std::size_t m_unsafe = 0;
};

}  // namespace

BundleFiles prometheus_to_bundle(const std::vector<PromSeries>& series,
                                 const PromLayoutOptions& options) {
  Layout layout(options);
  for (const auto& one : series) {
    layout.add(one);
  }
  return layout.finish();
}

std::optional<std::string> ethtool_stat_from_metric(std::string_view metric) {
  if (!starts_with(metric, k_ethtool_prefix)) {
    return std::nullopt;
  }
  std::string_view name = metric.substr(k_ethtool_prefix.size());
  if (name.empty() || name == "info") {
    return std::nullopt;
  }
  for (const auto& [exported, stat] : k_ethtool_basics) {
    if (name == exported) {
      return std::string(stat);
    }
  }
  // The collector replaced whole words "rx" and "tx" ((^|_)rx(_|$)); put them back.
  std::vector<std::string> words;
  for (auto word : split(name, '_')) {
    if (word == "received") {
      words.emplace_back("rx");
    } else if (word == "transmitted") {
      words.emplace_back("tx");
    } else {
      words.emplace_back(word);
    }
  }
  return join(words, "_");
}

std::string host_from_instance(std::string_view instance) {
  instance = trim(instance);
  if (starts_with(instance, "[")) {
    const auto close = instance.find(']');
    instance =
        instance.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
  } else if (const auto colon = instance.rfind(':'); colon != std::string_view::npos &&
                                                     instance.find(':') == colon &&
                                                     parse_u64(instance.substr(colon + 1))) {
    instance = instance.substr(0, colon);
  }
  std::string out;
  for (char c : instance) {
    const bool ok =
        std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out;
}

}  // namespace netdoctor::remote
