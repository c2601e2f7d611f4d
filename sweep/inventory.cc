#include "sweep/inventory.h"

#include <fmt/format.h>

#include "parsers/ibv_devinfo.h"
#include "parsers/lldpcli_json.h"
#include "parsers/rdma_link.h"

namespace netdoctor::sweep {
namespace {

const std::vector<std::vector<std::string>> k_discovery = {
    {"ibv_devinfo"}, {"rdma", "link", "show"}, {"lldpcli", "-f", "json", "show", "neighbors"}};

bool active(const parsers::IbvPort& port) {
  return port.state_num ? *port.state_num == 4 : port.state.find("ACTIVE") != std::string::npos;
}

std::string leaf_from_map(const std::map<std::string, std::string>& leaf_of, const Nic& nic) {
  if (auto it = leaf_of.find(nic.key()); it != leaf_of.end()) {
    return it->second;
  }
  if (auto it = leaf_of.find(nic.host); it != leaf_of.end()) {
    return it->second;
  }
  return {};
}

void read_host(HostInventory& inventory, const std::vector<RemoteResult>& results,
               const std::string& device, const std::map<std::string, std::string>& leaf_of) {
  const RemoteResult& devinfo = results[0];
  if (!devinfo.ok) {
    inventory.left_out = devinfo.unreachable ? "unreachable" : "no-rdma";
    inventory.detail = "ibv_devinfo: " + devinfo.why;
    return;
  }
  auto parsed = parsers::parse_ibv_devinfo(devinfo.out);
  if (!parsed.ok()) {
    inventory.left_out = "no-rdma";
    inventory.detail = "ibv_devinfo: " + parsed.error().message;
    return;
  }
  std::map<std::string, std::string> netdev_of;  // "dev/port" -> netdev
  if (results[1].ok) {
    if (auto links = parsers::parse_rdma_link(results[1].out); links.ok()) {
      for (const auto& link : links->links) {
        netdev_of[fmt::format("{}/{}", link.device, link.port)] = link.netdev;
      }
    }
  }
  std::map<std::string, const parsers::LldpNeighbor*> neighbor_of;  // netdev -> its neighbor
  parsers::LldpNeighbors neighbors;
  if (results[2].ok) {
    if (auto parsed_lldp = parsers::parse_lldpcli_json(results[2].out); parsed_lldp.ok()) {
      neighbors = std::move(*parsed_lldp);
      for (const auto& neighbor : neighbors.neighbors) {
        neighbor_of[neighbor.local_interface] = &neighbor;
      }
    }
  }
  for (const auto& dev : parsed->devices) {
    if (device != "all" && dev.hca_id != device) {
      continue;
    }
    for (const auto& port : dev.ports) {
      if (!active(port)) {
        continue;
      }
      Nic nic;
      nic.host = inventory.host;
      nic.device = dev.hca_id;
      nic.port = static_cast<int>(port.port_num);
      nic.link_layer = port.link_layer;
      nic.line_gbps = port.rate_gbps.value_or(0.0);
      if (auto it = netdev_of.find(fmt::format("{}/{}", nic.device, nic.port));
          it != netdev_of.end()) {
        nic.netdev = it->second;
      }
      if (auto it = neighbor_of.find(nic.netdev); !nic.netdev.empty() && it != neighbor_of.end()) {
        nic.leaf = it->second->chassis_name;
        nic.leaf_port = it->second->port_id;
      }
      if (std::string mapped = leaf_from_map(leaf_of, nic); !mapped.empty()) {
        nic.leaf = mapped;
      }
      inventory.nics.push_back(std::move(nic));
    }
  }
  if (inventory.nics.empty()) {
    inventory.left_out = "no-rdma";
    inventory.detail =
        device == "all" ? "no active RDMA port" : fmt::format("no active port on {}", device);
  }
}

}  // namespace

Discovery discover_hosts(const std::vector<std::string>& hosts, const Remote& remote,
                         const std::string& device,
                         const std::map<std::string, std::string>& leaf_of) {
  std::vector<std::vector<std::string>> commands;
  for (const auto& host : hosts) {
    for (const auto& command : k_discovery) {
      commands.push_back(remote.argv(host, command));
    }
  }
  Batch batch = run_batch(remote, commands);
  Discovery out;
  out.seconds = batch.seconds;
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    HostInventory inventory;
    inventory.host = hosts[h];
    const std::vector<RemoteResult> results(
        batch.results.begin() + static_cast<std::ptrdiff_t>(h * k_discovery.size()),
        batch.results.begin() + static_cast<std::ptrdiff_t>((h + 1) * k_discovery.size()));
    for (const auto& result : results) {
      inventory.seconds = std::max(inventory.seconds, result.seconds);
    }
    read_host(inventory, results, device, leaf_of);
    out.hosts.push_back(std::move(inventory));
  }
  return out;
}

}  // namespace netdoctor::sweep
