#include "model/nic_discovery.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/sysfs_paths.h"
#include "parsers/lldpcli_text.h"

namespace netdoctor::model {

HostOutputs read_host_outputs(SourceLog& log, const SampleSource& sample, SourceMap& sources) {
  HostOutputs out;
  out.rdma =
      parse_command<parsers::RdmaLinks>(log, sample, {"rdma", "link", "show"}, source::k_rdma_link,
                                        sources, parsers::parse_rdma_link);
  out.ibv =
      parse_command<parsers::IbvDevinfo>(log, sample, {"ibv_devinfo", "-v"}, source::k_ibv_devinfo,
                                         sources, parsers::parse_ibv_devinfo);
  if (!out.ibv && sources[source::k_ibv_devinfo].availability == Availability::Absent) {
    out.ibv = parse_command<parsers::IbvDevinfo>(
        log, sample, {"ibv_devinfo"}, source::k_ibv_devinfo, sources, parsers::parse_ibv_devinfo);
  }
  out.ip = parse_command<parsers::IpAddressList>(log, sample, {"ip", "-d", "address"},
                                                 source::k_ip_address, sources,
                                                 parsers::parse_ip_address);
  if (!out.ip && sources[source::k_ip_address].availability == Availability::Absent) {
    out.ip = parse_command<parsers::IpAddressList>(
        log, sample, {"ip", "address"}, source::k_ip_address, sources, parsers::parse_ip_address);
  }
  out.lldp = parse_command<parsers::LldpNeighbors>(
      log, sample, {"lldpcli", "show", "neighbors", "-f", "json"}, source::k_lldpcli, sources,
      parsers::parse_lldpcli_json);
  if (!out.lldp && sources[source::k_lldpcli].availability == Availability::Absent) {
    // Without the JSON, lldpcli's default text form gives the same neighbours.
    if (auto text = parse_command<parsers::LldpcliText>(
            log, sample, {"lldpcli", "show", "neighbors"}, source::k_lldpcli, sources,
            parsers::parse_lldpcli_text)) {
      out.lldp = std::move(text->neighbors);
    }
  }
  out.chrony = parse_command<parsers::ChronyTracking>(log, sample, {"chronyc", "tracking"},
                                                      source::k_chronyc_tracking, sources,
                                                      parsers::parse_chronyc_tracking);
  out.gids = parse_command<parsers::ShowGids>(log, sample, {"show_gids"}, source::k_show_gids,
                                              sources, parsers::parse_show_gids);
  out.ibdev2netdev = parse_command<parsers::Ibdev2netdev>(
      log, sample, {"ibdev2netdev"}, source::k_ibdev2netdev, sources, parsers::parse_ibdev2netdev);
  out.dmesg = parse_command<parsers::KernelLog>(log, sample, {"dmesg"}, source::k_dmesg, sources,
                                                parsers::parse_dmesg);
  out.resources = parse_command<parsers::RdmaResources>(log, sample, {"rdma", "resource", "show"},
                                                        source::k_rdma_resource, sources,
                                                        parsers::parse_rdma_resource);
  return out;
}

const parsers::Ibdev2netdevEntry* find_ibdev2netdev(const HostOutputs& out, std::string_view device,
                                                    int port) {
  if (!out.ibdev2netdev) {
    return nullptr;
  }
  for (const auto& entry : out.ibdev2netdev->entries) {
    if (entry.device == device && static_cast<int>(entry.port) == port) {
      return &entry;
    }
  }
  return nullptr;
}

const parsers::IbvDevice* find_ibv_device(const HostOutputs& out, std::string_view device) {
  if (!out.ibv) {
    return nullptr;
  }
  for (const auto& d : out.ibv->devices) {
    if (d.hca_id == device) {
      return &d;
    }
  }
  return nullptr;
}

const parsers::IbvPort* find_ibv_port(const parsers::IbvDevice* device, int port) {
  if (device == nullptr) {
    return nullptr;
  }
  for (const auto& p : device->ports) {
    if (static_cast<int>(p.port_num) == port) {
      return &p;
    }
  }
  return nullptr;
}

const parsers::RdmaLink* find_rdma_link(const HostOutputs& out, std::string_view device, int port) {
  if (!out.rdma) {
    return nullptr;
  }
  for (const auto& link : out.rdma->links) {
    if (link.device == device && static_cast<int>(link.port) == port) {
      return &link;
    }
  }
  return nullptr;
}

namespace {

// The netdev an RDMA port drives: rdma link, else the device's sysfs net directory, else
// ibdev2netdev; empty when none says.
std::string bound_netdev(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                         const NicSeed& seed, SourceMap& host_sources) {
  if (const auto* link = find_rdma_link(out, seed.device, seed.port);
      link != nullptr && !link->netdev.empty()) {
    return link->netdev;
  }
  auto nets = peek_dir(log, sample, k_sysfs_ib + seed.device + "/device/net",
                       source::k_sysfs_infiniband, host_sources);
  if (nets && !nets->empty()) {
    // Ports of a multi-port device list their netdevs in port order.
    const auto index = std::min(nets->size() - 1, static_cast<std::size_t>(seed.port - 1));
    return (*nets)[index].name;
  }
  if (const auto* entry = find_ibdev2netdev(out, seed.device, seed.port)) {
    return entry->netdev;
  }
  return {};
}

// The device ports the commands list: ibv_devinfo, rdma link, ibdev2netdev.
void add_tool_ports(const HostOutputs& out,
                    const std::function<void(const std::string&, int)>& add) {
  if (out.ibv) {
    for (const auto& device : out.ibv->devices) {
      if (device.ports.empty()) {
        add(device.hca_id, 1);
      }
      for (const auto& port : device.ports) {
        add(device.hca_id, static_cast<int>(port.port_num));
      }
    }
  }
  if (out.rdma) {
    for (const auto& link : out.rdma->links) {
      add(link.device, static_cast<int>(link.port));
    }
  }
  if (out.ibdev2netdev) {
    for (const auto& entry : out.ibdev2netdev->entries) {
      add(entry.device, static_cast<int>(entry.port));
    }
  }
}

}  // namespace

std::vector<NicSeed> discover_nics(SourceLog& log, const SampleSource& sample,
                                   const HostOutputs& out, SourceMap& host_sources) {
  std::vector<NicSeed> seeds;
  std::set<std::pair<std::string, int>> seen;
  auto add = [&](const std::string& device, int port) {
    if (seen.emplace(device, port).second) {
      seeds.push_back(NicSeed{device, port, {}});
    }
  };
  const std::string& listing = source::k_sysfs_infiniband;
  if (auto devices = list_dir(log, sample, k_sysfs_ib, listing, host_sources)) {
    for (const auto& entry : *devices) {
      if (entry.kind == DirEntry::Kind::File) {
        continue;
      }
      bool any_port = false;
      if (auto ports =
              peek_dir(log, sample, k_sysfs_ib + entry.name + "/ports", listing, host_sources)) {
        for (const auto& p : *ports) {
          if (auto n = parse_i64(p.name); n && *n > 0 && *n < 256) {
            add(entry.name, static_cast<int>(*n));
            any_port = true;
          }
        }
      }
      if (!any_port) {
        add(entry.name, 1);
      }
    }
  }
  add_tool_ports(out, add);
  for (auto& seed : seeds) {
    seed.netdev = bound_netdev(log, sample, out, seed, host_sources);
  }
  if (seeds.empty() && out.lldp) {
    // No RDMA device captured at all: the cabled netdevs are the NICs we can still describe.
    for (const auto& neighbor : out.lldp->neighbors) {
      seeds.push_back(NicSeed{{}, 1, neighbor.local_interface});
    }
  }
  std::sort(seeds.begin(), seeds.end(), [](const NicSeed& a, const NicSeed& b) {
    return std::tie(a.device, a.port, a.netdev) < std::tie(b.device, b.port, b.netdev);
  });
  return seeds;
}

}  // namespace netdoctor::model
