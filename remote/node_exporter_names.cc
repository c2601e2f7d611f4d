#include "remote/node_exporter_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "base/strings.h"
#include "remote/prometheus_layout.h"

namespace netdoctor::remote {
namespace {

using Scope = SysfsScope;
using ValueFile = SysfsValueFile;
using LabelFile = SysfsLabelFile;

constexpr std::string_view k_ib_prefix = "node_infiniband_";
constexpr std::string_view k_network_prefix = "node_network_";
constexpr std::string_view k_ethtool_prefix = "node_ethtool_";

std::string count_file(double value) {
  return integer_text(value) + "\n";
}

// port_*_data counts 4-octet words; node_exporter multiplied them by 4 and counters.tsv scales
// the raw word count, so the file gets the words back.
std::string ib_words_file(double bytes) {
  return integer_text(bytes / 4.0) + "\n";
}

// sysfs's "<id>: <name>" forms (kernel drivers/infiniband/core/sysfs.c).
std::string enum_file(double id, const std::string_view* names, std::size_t count) {
  // Only a whole id the enum has names a state; any other value a server sends (NaN, fractional,
  // beyond the enum, beyond any integer) is written as the count it saturates to, unnamed.
  const std::uint64_t n = saturated_count(id);
  const bool named = n < count && static_cast<double>(n) == id;
  return fmt::format("{}: {}\n", n, named ? names[n] : std::string_view("?"));
}

std::string port_state_file(double id) {
  static constexpr std::array<std::string_view, 6> k_names = {"NOP",   "DOWN",   "INIT",
                                                              "ARMED", "ACTIVE", "ACTIVE_DEFER"};
  return enum_file(id, k_names.data(), k_names.size());
}

std::string phys_state_file(double id) {
  static constexpr std::array<std::string_view, 8> k_names = {
      "<unknown>",         "Sleep",   "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
      "LinkErrorRecovery", "Phy Test"};
  return enum_file(id, k_names.data(), k_names.size());
}

std::string rate_file(double bytes_per_s) {
  return fmt::format("{:g} Gb/sec\n", bytes_per_s * 8.0 / 1e9);
}

std::string megabits_file(double bytes_per_s) {
  return integer_text(bytes_per_s * 8.0 / 1e6) + "\n";
}

// Whether a value file is a counter of a counter directory, which model/counters.tsv maps.
bool is_sysfs_counter_file(std::string_view file) {
  return starts_with(file, "counters/") || starts_with(file, "hw_counters/") ||
         starts_with(file, "statistics/");
}

// Every series with a file of its own (node_infiniband_<suffix>, node_network_<suffix>).
constexpr std::array k_value_files = {
    ValueFile{Scope::IbPort, "state_id", "state", port_state_file},
    ValueFile{Scope::IbPort, "physical_state_id", "phys_state", phys_state_file},
    ValueFile{Scope::IbPort, "rate_bytes_per_second", "rate", rate_file},
    ValueFile{Scope::IbPort, "port_data_received_bytes_total", "counters/port_rcv_data",
              ib_words_file},
    ValueFile{Scope::IbPort, "port_data_transmitted_bytes_total", "counters/port_xmit_data",
              ib_words_file},
    ValueFile{Scope::IbPort, "port_packets_received_total", "counters/port_rcv_packets",
              count_file},
    ValueFile{Scope::IbPort, "port_packets_transmitted_total", "counters/port_xmit_packets",
              count_file},
    ValueFile{Scope::IbPort, "unicast_packets_received_total", "counters/unicast_rcv_packets",
              count_file},
    ValueFile{Scope::IbPort, "unicast_packets_transmitted_total", "counters/unicast_xmit_packets",
              count_file},
    ValueFile{Scope::IbPort, "multicast_packets_received_total", "counters/multicast_rcv_packets",
              count_file},
    ValueFile{Scope::IbPort, "multicast_packets_transmitted_total",
              "counters/multicast_xmit_packets", count_file},
    ValueFile{Scope::IbPort, "link_downed_total", "counters/link_downed", count_file},
    ValueFile{Scope::IbPort, "link_error_recovery_total", "counters/link_error_recovery",
              count_file},
    ValueFile{Scope::IbPort, "port_errors_received_total", "counters/port_rcv_errors", count_file},
    ValueFile{Scope::IbPort, "port_discards_transmitted_total", "counters/port_xmit_discards",
              count_file},
    ValueFile{Scope::IbPort, "port_constraint_errors_received_total",
              "counters/port_rcv_constraint_errors", count_file},
    ValueFile{Scope::IbPort, "port_constraint_errors_transmitted_total",
              "counters/port_xmit_constraint_errors", count_file},
    ValueFile{Scope::IbPort, "port_transmit_wait_total", "counters/port_xmit_wait", count_file},
    ValueFile{Scope::IbPort, "port_receive_remote_physical_errors_total",
              "counters/port_rcv_remote_physical_errors", count_file},
    ValueFile{Scope::IbPort, "port_receive_switch_relay_errors_total",
              "counters/port_rcv_switch_relay_errors", count_file},
    ValueFile{Scope::IbPort, "symbol_error_total", "counters/symbol_error", count_file},
    ValueFile{Scope::IbPort, "vl15_dropped_total", "counters/VL15_dropped", count_file},
    ValueFile{Scope::IbPort, "excessive_buffer_overrun_errors_total",
              "counters/excessive_buffer_overrun_errors", count_file},
    ValueFile{Scope::IbPort, "local_link_integrity_errors_total",
              "counters/local_link_integrity_errors", count_file},
    ValueFile{Scope::IbPort, "duplicate_requests_packets_total", "hw_counters/duplicate_request",
              count_file},
    ValueFile{Scope::IbPort, "implied_nak_seq_errors_total", "hw_counters/implied_nak_seq_err",
              count_file},
    ValueFile{Scope::IbPort, "local_ack_timeout_errors_total", "hw_counters/local_ack_timeout_err",
              count_file},
    ValueFile{Scope::IbPort, "np_cnp_packets_sent_total", "hw_counters/np_cnp_sent", count_file},
    ValueFile{Scope::IbPort, "np_ecn_marked_roce_packets_received_total",
              "hw_counters/np_ecn_marked_roce_packets", count_file},
    ValueFile{Scope::IbPort, "out_of_buffer_drops_total", "hw_counters/out_of_buffer", count_file},
    ValueFile{Scope::IbPort, "out_of_sequence_packets_received_total",
              "hw_counters/out_of_sequence", count_file},
    ValueFile{Scope::IbPort, "packet_sequence_errors_total", "hw_counters/packet_seq_err",
              count_file},
    ValueFile{Scope::IbPort, "req_cqes_errors_total", "hw_counters/req_cqe_error", count_file},
    ValueFile{Scope::IbPort, "req_cqes_flush_errors_total", "hw_counters/req_cqe_flush_error",
              count_file},
    ValueFile{Scope::IbPort, "req_remote_access_errors_total",
              "hw_counters/req_remote_access_errors", count_file},
    ValueFile{Scope::IbPort, "req_remote_invalid_request_errors_total",
              "hw_counters/req_remote_invalid_request", count_file},
    ValueFile{Scope::IbPort, "resp_cqes_errors_total", "hw_counters/resp_cqe_error", count_file},
    ValueFile{Scope::IbPort, "resp_cqes_flush_errors_total", "hw_counters/resp_cqe_flush_error",
              count_file},
    ValueFile{Scope::IbPort, "resp_local_length_errors_total",
              "hw_counters/resp_local_length_error", count_file},
    ValueFile{Scope::IbPort, "resp_remote_access_errors_total",
              "hw_counters/resp_remote_access_errors", count_file},
    ValueFile{Scope::IbPort, "rnr_nak_retry_packets_received_total",
              "hw_counters/rnr_nak_retry_err", count_file},
    ValueFile{Scope::IbPort, "roce_adp_retransmits_total", "hw_counters/roce_adp_retrans",
              count_file},
    ValueFile{Scope::IbPort, "roce_adp_retransmits_timeout_total",
              "hw_counters/roce_adp_retrans_to", count_file},
    ValueFile{Scope::IbPort, "roce_slow_restart_total", "hw_counters/roce_slow_restart",
              count_file},
    ValueFile{Scope::IbPort, "roce_slow_restart_cnps_total", "hw_counters/roce_slow_restart_cnps",
              count_file},
    ValueFile{Scope::IbPort, "rp_cnp_ignored_packets_received_total", "hw_counters/rp_cnp_ignored",
              count_file},
    ValueFile{Scope::IbPort, "rp_cnp_packets_handled_total", "hw_counters/rp_cnp_handled",
              count_file},
    ValueFile{Scope::IbPort, "rx_atomic_requests_total", "hw_counters/rx_atomic_requests",
              count_file},
    ValueFile{Scope::IbPort, "rx_dct_connect_requests_total", "hw_counters/rx_dct_connect",
              count_file},
    ValueFile{Scope::IbPort, "rx_icrc_encapsulated_errors_total",
              "hw_counters/rx_icrc_encapsulated", count_file},
    ValueFile{Scope::IbPort, "rx_read_requests_total", "hw_counters/rx_read_requests", count_file},
    ValueFile{Scope::IbPort, "rx_write_requests_total", "hw_counters/rx_write_requests",
              count_file},
    // netdev collector (/proc/net/dev names) and netclass collector.
    ValueFile{Scope::Netdev, "receive_bytes_total", "statistics/rx_bytes", count_file},
    ValueFile{Scope::Netdev, "transmit_bytes_total", "statistics/tx_bytes", count_file},
    ValueFile{Scope::Netdev, "receive_packets_total", "statistics/rx_packets", count_file},
    ValueFile{Scope::Netdev, "transmit_packets_total", "statistics/tx_packets", count_file},
    ValueFile{Scope::Netdev, "receive_drop_total", "statistics/rx_dropped", count_file},
    ValueFile{Scope::Netdev, "transmit_drop_total", "statistics/tx_dropped", count_file},
    ValueFile{Scope::Netdev, "receive_errs_total", "statistics/rx_errors", count_file},
    ValueFile{Scope::Netdev, "transmit_errs_total", "statistics/tx_errors", count_file},
    ValueFile{Scope::Netdev, "receive_frame_total", "statistics/rx_frame_errors", count_file},
    ValueFile{Scope::Netdev, "receive_fifo_total", "statistics/rx_fifo_errors", count_file},
    ValueFile{Scope::Netdev, "mtu_bytes", "mtu", count_file},
    ValueFile{Scope::Netdev, "speed_bytes", "speed", megabits_file},  // sysfs holds Mb/s
};

// The info series: each label a file.
constexpr std::array k_label_files = {
    LabelFile{Scope::IbDevice, "info", "firmware_version", "fw_ver"},
    LabelFile{Scope::IbDevice, "info", "board_id", "board_id"},
    LabelFile{Scope::IbDevice, "info", "hca_type", "hca_type"},
    LabelFile{Scope::Netdev, "info", "address", "address"},
    LabelFile{Scope::Netdev, "info", "operstate", "operstate"},
};

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

bool matches(std::string_view metric, Scope scope, std::string_view suffix) {
  const std::string_view prefix = scope == Scope::Netdev ? k_network_prefix : k_ib_prefix;
  return starts_with(metric, prefix) && metric.substr(prefix.size()) == suffix;
}

}  // namespace

const SysfsValueFile* find_sysfs_value_file(std::string_view metric) {
  for (const auto& row : k_value_files) {
    if (matches(metric, row.scope, row.suffix)) {
      return &row;
    }
  }
  return nullptr;
}

std::vector<const SysfsLabelFile*> find_sysfs_label_files(std::string_view metric) {
  std::vector<const SysfsLabelFile*> out;
  for (const auto& row : k_label_files) {
    if (matches(metric, row.scope, row.suffix)) {
      out.push_back(&row);
    }
  }
  return out;
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

std::optional<std::string> ethtool_metric_from_stat(std::string_view stat) {
  for (const auto& [exported, basic] : k_ethtool_basics) {
    if (stat == basic) {
      return std::string(k_ethtool_prefix) + std::string(exported);
    }
  }
  const bool plain = !stat.empty() && std::all_of(stat.begin(), stat.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (!plain || stat.front() == '_') {
    return std::nullopt;
  }
  std::vector<std::string> words;
  for (auto word : split(stat, '_')) {
    words.emplace_back(word == "rx" ? "received" : word == "tx" ? "transmitted" : word);
  }
  return std::string(k_ethtool_prefix) + join(words, "_");
}

std::vector<std::string> sysfs_metric_names(
    const std::function<bool(std::string_view file)>& counter_wanted) {
  std::vector<std::string> out;
  for (const auto& row : k_value_files) {
    if (counter_wanted && is_sysfs_counter_file(row.file) && !counter_wanted(row.file)) {
      continue;
    }
    out.push_back(std::string(row.scope == Scope::Netdev ? k_network_prefix : k_ib_prefix) +
                  std::string(row.suffix));
  }
  for (const auto& row : k_label_files) {
    const std::string name =
        std::string(row.scope == Scope::Netdev ? k_network_prefix : k_ib_prefix) +
        std::string(row.suffix);
    if (std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  }
  return out;
}

}  // namespace netdoctor::remote
