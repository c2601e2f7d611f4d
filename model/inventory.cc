#include "model/inventory.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/strings.h"
#include "model/entity_names.h"

namespace netdoctor::model {
namespace {

template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json or_null(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

bool is_switch(const Fabric& fabric, const std::string& name, const std::string& port) {
  if (fabric.find_switch(name) != nullptr) {
    return true;
  }
  // A peer outside the bundle: SONiC-style port names mean a switch.
  return fabric.find_host(name) == nullptr && starts_with(port, "Ethernet");
}

// The entity of the far end of a switch port, in link form ("netdev:h/if" or "port:s/p").
std::string peer_link_end(const Fabric& fabric, const SwitchPort& port) {
  if (is_switch(fabric, port.peer_device, port.peer_port)) {
    return port_entity(port.peer_device, port.peer_port);
  }
  return netdev_entity(port.peer_device, port.peer_port);
}

std::string text_or_dash(const std::string& text) {
  return text.empty() ? "-" : text;
}

template <typename T>
std::string number_or_dash(const std::optional<T>& value) {
  return value ? fmt::format("{}", *value) : "-";
}

}  // namespace

std::string peer_entity(const Fabric& fabric, const SwitchPort& port) {
  if (port.peer_device.empty()) {
    return {};
  }
  const auto machine = is_switch(fabric, port.peer_device, port.peer_port)
                           ? switch_entity(port.peer_device)
                           : host_entity(port.peer_device);
  return machine + "/" + port.peer_port;
}

std::vector<std::string> lldp_links(const Fabric& fabric) {
  std::set<std::string> links;
  auto add = [&](const std::string& a, const std::string& b) {
    links.insert(link_entity_keeping_kinds(a, b));
  };
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      if (!port.peer_device.empty() && !port.peer_port.empty()) {
        add(port_entity(sw.name, port.name), peer_link_end(fabric, port));
      }
    }
  }
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      if (!nic.port_entity().empty() && !nic.netdev.empty()) {
        add(nic.netdev_entity(), nic.port_entity());
      }
    }
  }
  return {links.begin(), links.end()};
}

nlohmann::json inventory_json(const Fabric& fabric) {
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& host : fabric.hosts) {
    nlohmann::json nics = nlohmann::json::array();
    for (const auto& nic : host.nics) {
      auto port = nic.port_entity();
      nics.push_back({{"device", or_null(nic.device)},
                      {"netdev", or_null(nic.netdev)},
                      {"vendor", nic.vendor},
                      {"driver", or_null(nic.driver)},
                      {"firmware", or_null(nic.firmware)},
                      {"mtu", or_null(nic.mtu)},
                      {"active_mtu", or_null(nic.active_mtu)},
                      {"rate_gbps", or_null(nic.speed_gbps)},
                      {"state", or_null(std::string(to_string(nic.state)))},
                      {"ipv4", nic.ipv4},
                      {"switch_port", or_null(port)}});
    }
    hosts.push_back({{"name", host.name},
                     {"samples", host.captured_at.size()},
                     {"clock",
                      {{"offset_s", or_null(host.clock.offset_s)},
                       {"synchronised", or_null(host.clock.synchronised)}}},
                     {"nics", std::move(nics)}});
  }
  nlohmann::json switches = nlohmann::json::array();
  for (const auto& sw : fabric.switches) {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& port : sw.ports) {
      ports.push_back({{"name", port.name},
                       {"speed_gbps", or_null(port.speed_gbps)},
                       {"mtu", or_null(port.mtu)},
                       {"oper", or_null(std::string(to_string(port.oper)))},
                       {"peer", or_null(peer_entity(fabric, port))}});
    }
    switches.push_back(
        {{"name", sw.name}, {"samples", sw.captured_at.size()}, {"ports", std::move(ports)}});
  }
  nlohmann::json perftests = nlohmann::json::array();
  for (const auto& run : fabric.perftests) {
    perftests.push_back({{"client", run.client},
                         {"server", run.server},
                         {"test", run.test},
                         {"device", or_null(run.device)},
                         {"baseline", run.baseline},
                         {"bw_avg_gbps", or_null(run.bw_avg_gbps)},
                         {"lat_typical_us", or_null(run.lat_typical_us)},
                         {"error", or_null(run.error)}});
  }
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& problem : fabric.problems) {
    problems.push_back({{"entity", or_null(problem.entity)},
                        {"source", problem.source},
                        {"file", problem.error.context},
                        {"why", problem.error.message}});
  }
  return {{"name", fabric.name},
          {"hosts", std::move(hosts)},
          {"switches", std::move(switches)},
          {"perftest", std::move(perftests)},
          {"links", lldp_links(fabric)},
          {"problems", std::move(problems)}};
}

std::string inventory_text(const Fabric& fabric) {
  std::string out;
  std::size_t nic_count = 0;
  for (const auto& host : fabric.hosts) {
    nic_count += host.nics.size();
  }
  const auto links = lldp_links(fabric);
  out += fmt::format("Fabric {}: {} hosts, {} NICs, {} switches, {} LLDP links\n\n",
                     text_or_dash(fabric.name), fabric.hosts.size(), nic_count,
                     fabric.switches.size(), links.size());
  out += fmt::format("{:<16} {:<14} {:<12} {:<6} {:<14} {:>5} {:>6} {:>6} {:<8} {}\n", "HOST",
                     "DEVICE", "NETDEV", "VENDOR", "FIRMWARE", "MTU", "RMTU", "GBPS", "STATE",
                     "SWITCH PORT");
  for (const auto& host : fabric.hosts) {
    if (host.nics.empty()) {
      out += fmt::format("{:<16} (no NICs found)\n", host.name);
    }
    for (const auto& nic : host.nics) {
      out += fmt::format("{:<16} {:<14} {:<12} {:<6} {:<14} {:>5} {:>6} {:>6} {:<8} {}\n",
                         host.name, text_or_dash(nic.device), text_or_dash(nic.netdev), nic.vendor,
                         text_or_dash(nic.firmware), number_or_dash(nic.mtu),
                         number_or_dash(nic.active_mtu), number_or_dash(nic.speed_gbps),
                         text_or_dash(to_string(nic.state)), text_or_dash(nic.port_entity()));
    }
  }
  out += fmt::format("\n{:<16} {:>7} {:>6} {:>8} {:>6}\n", "SWITCH", "SAMPLES", "PORTS", "UP",
                     "PEERS");
  for (const auto& sw : fabric.switches) {
    const auto up = std::count_if(sw.ports.begin(), sw.ports.end(),
                                  [](const SwitchPort& p) { return p.oper == LinkState::Up; });
    const auto peers = std::count_if(sw.ports.begin(), sw.ports.end(),
                                     [](const SwitchPort& p) { return !p.peer_device.empty(); });
    out += fmt::format("{:<16} {:>7} {:>6} {:>8} {:>6}\n", sw.name, sw.captured_at.size(),
                       sw.ports.size(), up, peers);
  }
  out += fmt::format("\nLinks ({}):\n", links.size());
  for (const auto& link : links) {
    out += "  " + link + "\n";
  }
  if (!fabric.perftests.empty()) {
    out += fmt::format("\nperftest runs: {}\n", fabric.perftests.size());
  }
  out += fmt::format("\nProblems ({}):\n", fabric.problems.size());
  for (const auto& problem : fabric.problems) {
    out += fmt::format("  {} [{}] {}\n", text_or_dash(problem.entity), problem.source,
                       problem.error.describe());
  }
  // Host, NIC, switch and port names and the problems' paths come from the bundle.
  return terminal_text(out);
}

}  // namespace netdoctor::model
