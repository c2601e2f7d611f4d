#include "remote/prometheus_host_bundle.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "base/sample_source.h"
#include "base/strings.h"
#include "remote/bundle_files.h"
#include "remote/node_exporter_names.h"
#include "remote/sonic_cells.h"

namespace netdoctor::remote {
namespace {

constexpr std::string_view k_ethtool_prefix = "node_ethtool_";
constexpr std::string_view k_rdma_link_metric = "netdoctor_rdma_link_info";

std::string label_or_empty(const std::map<std::string, std::string>& labels, const char* key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

std::string ethtool_stats_text(const std::map<std::string, std::string>& stats) {
  std::string text = "NIC statistics:\n";
  for (const auto& [stat, value] : stats) {
    text += fmt::format("     {}: {}\n", stat, value);
  }
  return text;
}

std::string ethtool_info_text(const std::map<std::string, std::string>& labels) {
  return fmt::format(
      "driver: {}\nversion: {}\nfirmware-version: {}\nexpansion-rom-version: {}\nbus-info: {}\n",
      label_or_empty(labels, "driver"), label_or_empty(labels, "version"),
      label_or_empty(labels, "firmware_version"), label_or_empty(labels, "expansion_rom_version"),
      label_or_empty(labels, "bus_info"));
}

// `rdma link show` lines; a port's state is read back from its sysfs state file ("4: ACTIVE").
std::string rdma_links_text(const std::map<std::string, std::string>& links,
                            const std::map<std::string, std::string>& files) {
  std::string text;
  for (const auto& [device_port, netdev] : links) {
    const auto slash = device_port.find('/');
    auto state =
        files.find(fmt::format("sys/class/infiniband/{}/ports/{}/state",
                               device_port.substr(0, slash), device_port.substr(slash + 1)));
    std::string state_words;
    if (state != files.end() && state->second.find(':') != std::string::npos) {
      state_words = fmt::format(
          "state {} ", trim(std::string_view(state->second).substr(state->second.find(':') + 1)));
    }
    text += fmt::format("link {} {}netdev {}\n", device_port, state_words, netdev);
  }
  return text;
}

// `lldpcli show neighbors -f json` in lldpd's list form, the chassis named by the remote system.
std::string lldpcli_json(const std::map<std::string, LldpNeighborLabels>& neighbors) {
  nlohmann::json interfaces = nlohmann::json::array();
  for (const auto& [local, n] : neighbors) {
    nlohmann::json port = {{"id", {{"type", "local"}, {"value", n.remote_port}}}};
    if (!n.remote_port_descr.empty()) {
      port["descr"] = n.remote_port_descr;
    }
    nlohmann::json body = {{"via", "LLDP"},
                           {"chassis", {{n.remote_system, nlohmann::json::object()}}},
                           {"port", port}};
    interfaces.push_back({{local, body}});
  }
  return json_text(nlohmann::json{{"lldp", {{"interface", interfaces}}}}, 2) + "\n";
}

}  // namespace

HostBundle::HostBundle(std::string source, LeftOut& left_out)
    : m_source(std::move(source)), m_left_out(left_out) {}

bool HostBundle::safe(const std::string& label_value) {
  if (is_safe_component(label_value)) {
    return true;
  }
  ++m_left_out.unsafe;
  return false;
}

void HostBundle::add(const std::string& host, const PromSeries& series) {
  const std::string& name = series.name();
  if (starts_with(name, k_ethtool_prefix)) {
    add_ethtool(host, series);
  } else if (name == k_rdma_link_metric) {
    const std::string& device = series.label("device");
    const std::string& port = series.label("port");
    const std::string& netdev = series.label("netdev");
    if (safe(device) && safe(port) && safe(netdev)) {
      auto& samples = m_hosts[host];
      for_each_point(series, [&](double time, double) {
        samples[time].rdma_links[device + "/" + port] = netdev;
      });
    }
  } else if (is_lldp_neighbor_metric(name)) {
    const std::string& local = series.label("local_interface");
    const auto neighbor = lldp_neighbor_labels(series);
    if (!is_one_word(local) || !neighbor) {
      ++m_left_out.unsafe;
      return;
    }
    auto& samples = m_hosts[host];
    for_each_point(series, [&](double time, double) { samples[time].lldp[local] = *neighbor; });
  } else {
    add_tables(host, series);
  }
}

void HostBundle::add_tables(const std::string& host, const PromSeries& series) {
  const SysfsValueFile* value_file = find_sysfs_value_file(series.name());
  const auto label_files = find_sysfs_label_files(series.name());
  if (value_file == nullptr && label_files.empty()) {
    return;  // not a series the model reasons about
  }
  const SysfsScope scope = value_file != nullptr ? value_file->scope : label_files.front()->scope;
  const std::string& device = series.label("device");
  if (!safe(device)) {
    return;
  }
  std::string dir = scope == SysfsScope::Netdev ? "sys/class/net/" + device + "/"
                                                : "sys/class/infiniband/" + device + "/";
  if (scope == SysfsScope::IbPort) {
    const std::string& port = series.label("port");
    if (!safe(port)) {
      return;
    }
    dir += "ports/" + port + "/";
  }
  auto& samples = m_hosts[host];
  if (value_file != nullptr) {
    const std::string path = dir + std::string(value_file->file);
    for_each_point(series, [&](double time, double value) {
      samples[time].files[path] = value_file->text(value);
    });
    return;
  }
  for_each_point(series, [&](double time, double) {
    for (const SysfsLabelFile* row : label_files) {
      if (const std::string& value = series.label(std::string(row->label)); !value.empty()) {
        samples[time].files[dir + std::string(row->file)] = value + "\n";
      }
    }
  });
}

void HostBundle::add_ethtool(const std::string& host, const PromSeries& series) {
  const std::string& netdev = series.label("device");
  if (!safe(netdev)) {
    return;
  }
  auto& samples = m_hosts[host];
  if (std::string_view(series.name()).substr(k_ethtool_prefix.size()) == "info") {
    for_each_point(series, [&](double time, double) {
      samples[time].ethtool_info[netdev] = series.labels.to_map();
    });
    return;
  }
  if (auto stat = ethtool_stat_from_metric(series.name())) {
    for_each_point(series, [&](double time, double value) {
      samples[time].ethtool_stats[netdev][*stat] = integer_text(value);
    });
  }
}

MachineFiles HostBundle::finish(std::vector<Error>& problems) {
  MachineFiles out;
  for (auto& [host, samples] : m_hosts) {
    bool ib = false;
    bool ethtool = false;
    bool linked = false;
    for (auto& [time, sample] : samples) {
      auto& files = out[host][time];
      for (const auto& [netdev, stats] : sample.ethtool_stats) {
        ethtool = true;
        files["sos_commands/ethtool/" + mangle_command({"ethtool", "-S", netdev})] =
            ethtool_stats_text(stats);
      }
      for (const auto& [netdev, labels] : sample.ethtool_info) {
        files["sos_commands/ethtool/" + mangle_command({"ethtool", "-i", netdev})] =
            ethtool_info_text(labels);
      }
      if (!sample.rdma_links.empty()) {
        linked = true;
        files["sos_commands/infiniband/" + mangle_command({"rdma", "link", "show"})] =
            rdma_links_text(sample.rdma_links, sample.files);
      }
      if (!sample.lldp.empty()) {
        files["sos_commands/lldp/" + mangle_command({"lldpcli", "show", "neighbors", "-f",
                                                     "json"})] = lldpcli_json(sample.lldp);
      }
      for (auto& [path, content] : sample.files) {
        ib = ib || starts_with(path, "sys/class/infiniband/");
        files[path] = std::move(content);
      }
    }
    if (ib && ethtool && !linked) {
      problems.push_back(make_error(
          ErrorCode::NotFound,
          fmt::format("host {}: no {} series, so its ethtool and netdev counters cannot be tied "
                      "to its RDMA devices (export it as docs/prometheus.md shows)",
                      host, k_rdma_link_metric),
          m_source));
    }
  }
  return out;
}

}  // namespace netdoctor::remote
