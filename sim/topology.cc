#include "sim/topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/naming.h"
#include "sim/nic_models.h"
#include "sim/rng.h"

namespace netdoctor::sim {
namespace {

constexpr int k_uplink_gbps = 400;
constexpr int k_uplink_lanes = 8;
constexpr std::size_t k_spine_ports = 64;

std::size_t default_hosts_per_leaf(const SimConfig& config) {
  if (config.hosts_per_leaf > 0) {
    return config.hosts_per_leaf;
  }
  return std::max<std::size_t>(1, 16 / config.nics_per_host);
}

std::string port_alias(int number) {
  return fmt::format("etp{}", number / 4 + 1);
}

Nic make_nic(const SimConfig& config, Vendor vendor, Mlx5Style style, std::size_t host_index,
             std::size_t nic_index, Rng& rng) {
  const NicModel& model = nic_model(vendor);
  const NicNames names = nic_names(vendor, style, nic_index);
  Nic nic;
  nic.rdma_dev = names.rdma_dev;
  nic.netdev = names.netdev;
  nic.pci = names.pci;
  nic.vendor = vendor;
  nic.model = model.model;
  nic.board_id = model.board_id;
  nic.fw = model.fw;
  nic.driver_version = model.driver_version;
  nic.vendor_part_id = model.vendor_part_id;
  nic.rated_gbps = nic.speed_gbps = model.rated_gbps;
  nic.rated_lanes = nic.lanes = model.lanes;
  // A well-built server: gen5 x16 for a 400G NIC, gen4 x16 below, both above line rate.
  nic.pcie_gt_s = nic.pcie_max_gt_s = model.rated_gbps >= 400 ? 32.0 : 16.0;
  nic.mac = mac_address(vendor, rng.next_u64());
  nic.node_guid = (vendor == Vendor::Bnxt ? 0x020af7fffe000000ull : 0x0c42a10300000000ull) |
                  (rng.next_u64() & 0xffffffull);
  nic.ifindex = static_cast<int>(nic_index) + 3;  // after lo and the management port
  const std::size_t rail = 10 + nic_index;
  if (config.hosts <= 240) {
    nic.ip = fmt::format("10.{}.0.{}", rail, 10 + host_index);
    nic.prefix_len = 24;
  } else {
    nic.ip = fmt::format("10.{}.{}.{}", rail, host_index / 200, 10 + host_index % 200);
    nic.prefix_len = 16;
  }
  return nic;
}

}  // namespace

double line_rate_bytes(int gbps) {
  return static_cast<double>(gbps) * 1e9 / 8.0;
}

std::string sample_name(const Fabric& fabric, std::size_t sample) {
  return fabric.sample_naming == SampleNaming::Padded ? fmt::format("s{:03}", sample)
                                                      : fmt::format("{}", sample);
}

std::vector<std::size_t> uplinks_of(const Switch& leaf) {
  std::vector<std::size_t> result;
  for (std::size_t i = 0; i < leaf.ports.size(); ++i) {
    if (leaf.ports[i].kind == PortKind::Uplink) {
      result.push_back(i);
    }
  }
  return result;
}

Fabric start_fabric(const SimConfig& config, Rng& rng) {
  Fabric fabric;
  fabric.kind = config.fabric;
  fabric.ib_speed = config.ib_speed;
  fabric.noise_seed = rng.next_u64();
  fabric.interval_s = config.interval_s;
  fabric.samples = config.samples;
  fabric.onset_interval = config.onset_interval;
  fabric.qos_tool = config.qos_tool;
  fabric.hw_counters = config.hw_counters;
  fabric.clock_views = config.clock_views;
  fabric.lldp_view = config.lldp_view;
  fabric.sample_naming = rng.chance(0.5) ? SampleNaming::Plain : SampleNaming::Padded;
  // Somewhere in 2026, on a whole microsecond.
  fabric.start_time = std::floor((1767225600.0 + rng.uniform(0.0, 300.0 * 86400.0)) * 1e6) / 1e6;
  fabric.utilization = rng.uniform(0.30, 0.42);
  return fabric;
}

Fabric build_topology(const SimConfig& config, std::uint64_t seed) {
  if (config.fabric == FabricKind::Ib) {
    return build_ib_topology(config, seed);
  }
  Rng rng(seed);
  Fabric fabric = start_fabric(config, rng);
  const auto host_style =
      static_cast<HostStyle>(rng.index(static_cast<std::size_t>(HostStyle::Count)));
  const auto mlx5_style =
      static_cast<Mlx5Style>(rng.index(static_cast<std::size_t>(Mlx5Style::Count)));

  const std::size_t per_leaf = default_hosts_per_leaf(config);
  const std::size_t leaves = (config.hosts + per_leaf - 1) / per_leaf;
  fabric.leaf_count = leaves;

  for (std::size_t h = 0; h < config.hosts; ++h) {
    Host host;
    host.name = host_name(host_style, h, config.hosts);
    const Vendor vendor = config.vendors[h % config.vendors.size()];
    for (std::size_t n = 0; n < config.nics_per_host; ++n) {
      host.nics.push_back(make_nic(config, vendor, mlx5_style, h, n, rng));
    }
    host.uptime_s = rng.uniform(3.0, 60.0) * 86400.0;
    host.mgmt_ip = fmt::format("172.16.{}.{}", h / 250, 10 + h % 250);
    host.mgmt_mac =
        fmt::format("3c:ec:ef:{:02x}:{:02x}:{:02x}", (h >> 16) & 0xff, (h >> 8) & 0xff, h & 0xff);
    fabric.hosts.push_back(std::move(host));
  }

  // Leaves: host ports from Ethernet0 in steps of 4 lanes, uplinks from Ethernet256 (or after
  // the host ports) in steps of 8 lanes, sized for the oversubscription ratio.
  std::size_t uplinks_per_leaf = 0;
  for (std::size_t l = 0; l < leaves; ++l) {
    Switch leaf;
    leaf.name = fmt::format("leaf{}", l + 1);
    leaf.mac = fmt::format("b8:ce:f6:11:{:02x}:{:02x}", (l + 1) >> 8 & 0xff, (l + 1) & 0xff);
    leaf.mgmt_ip = fmt::format("10.255.{}.{}", (l + 1) / 250, (l + 1) % 250);
    leaf.hwsku = "Mellanox-SN4600C-C64";
    leaf.uptime_s = rng.uniform(40.0, 400.0) * 86400.0;
    leaf.cross_fraction =
        leaves > 1 ? static_cast<double>(leaves - 1) / static_cast<double>(leaves) : 0.5;
    leaf.cross_fraction = std::max(leaf.cross_fraction, 0.5);
    int down_gbps = 0;
    int number = 0;
    const std::size_t first = l * per_leaf;
    const std::size_t last = std::min(config.hosts, first + per_leaf);
    for (std::size_t h = first; h < last; ++h) {
      Host& host = fabric.hosts[h];
      host.leaf = l;
      leaf.hosts.push_back(h);
      for (std::size_t n = 0; n < host.nics.size(); ++n) {
        Nic& nic = host.nics[n];
        Port port;
        port.name = fmt::format("Ethernet{}", number);
        port.alias = port_alias(number);
        port.first_lane = number;
        port.lanes = port.rated_lanes = nic.rated_lanes;
        port.speed_gbps = port.rated_gbps = nic.rated_gbps;
        port.kind = PortKind::HostFacing;
        port.peer_host = h;
        port.peer_nic = n;
        nic.leaf = l;
        nic.port = leaf.ports.size();
        leaf.ports.push_back(port);
        down_gbps += nic.rated_gbps;
        number += 4;
      }
    }
    const double up_gbps = static_cast<double>(down_gbps) / config.oversubscription;
    const auto uplinks = static_cast<std::size_t>(
        std::max(1.0, std::ceil(up_gbps / static_cast<double>(k_uplink_gbps) - 1e-9)));
    uplinks_per_leaf = std::max(uplinks_per_leaf, uplinks);
    int up_number = std::max(256, (number + 63) / 64 * 64);
    for (std::size_t u = 0; u < uplinks; ++u) {
      Port port;
      port.name = fmt::format("Ethernet{}", up_number);
      port.alias = port_alias(up_number);
      port.first_lane = up_number;
      port.lanes = port.rated_lanes = k_uplink_lanes;
      port.speed_gbps = port.rated_gbps = k_uplink_gbps;
      port.kind = PortKind::Uplink;
      leaf.ports.push_back(port);
      up_number += 8;
    }
    fabric.switches.push_back(std::move(leaf));
  }

  std::size_t total_uplinks = 0;
  for (const Switch& leaf : fabric.switches) {
    total_uplinks += uplinks_of(leaf).size();
  }
  const std::size_t spines =
      std::max<std::size_t>(std::min<std::size_t>(uplinks_per_leaf, 4),
                            (total_uplinks + k_spine_ports - 1) / k_spine_ports);
  for (std::size_t s = 0; s < spines; ++s) {
    Switch spine;
    spine.name = fmt::format("spine{}", s + 1);
    spine.spine = true;
    spine.mac = fmt::format("b8:ce:f6:22:{:02x}:{:02x}", (s + 1) >> 8 & 0xff, (s + 1) & 0xff);
    spine.mgmt_ip = fmt::format("10.254.{}.{}", (s + 1) / 250, (s + 1) % 250);
    spine.hwsku = "Mellanox-SN4600C-C64";
    spine.uptime_s = rng.uniform(60.0, 500.0) * 86400.0;
    fabric.switches.push_back(std::move(spine));
  }
  // Uplink u of every leaf lands on spine u % spines, on the spine's next free port.
  for (std::size_t l = 0; l < leaves; ++l) {
    const std::vector<std::size_t> ups = uplinks_of(fabric.switches[l]);
    for (std::size_t u = 0; u < ups.size(); ++u) {
      const std::size_t s = leaves + u % spines;
      Switch& spine = fabric.switches[s];
      const int number = static_cast<int>(spine.ports.size()) * 8;
      Port port;
      port.name = fmt::format("Ethernet{}", number);
      port.alias = port_alias(number);
      port.first_lane = number;
      port.lanes = port.rated_lanes = k_uplink_lanes;
      port.speed_gbps = port.rated_gbps = k_uplink_gbps;
      port.kind = PortKind::SpineDownlink;
      port.peer_switch = l;
      port.peer_port = ups[u];
      Port& up = fabric.switches[l].ports[ups[u]];
      up.peer_switch = s;
      up.peer_port = spine.ports.size();
      spine.ports.push_back(port);
    }
  }
  return fabric;
}

void keep_uplinks(Fabric& fabric, std::size_t leaf, std::size_t keep) {
  Switch& sw = fabric.switches[leaf];
  std::vector<std::size_t> ups = uplinks_of(sw);
  if (keep >= ups.size()) {
    return;
  }
  // Remove from the back so indices of kept ports do not move; fix the spine side's indices.
  for (std::size_t i = ups.size(); i-- > keep;) {
    const Port removed = sw.ports[ups[i]];
    Switch& spine = fabric.switches[removed.peer_switch];
    spine.ports.erase(spine.ports.begin() + static_cast<std::ptrdiff_t>(removed.peer_port));
    for (std::size_t p = removed.peer_port; p < spine.ports.size(); ++p) {
      const Port& moved = spine.ports[p];
      fabric.switches[moved.peer_switch].ports[moved.peer_port].peer_port = p;
    }
    sw.ports.erase(sw.ports.begin() + static_cast<std::ptrdiff_t>(ups[i]));
  }
}

}  // namespace netdoctor::sim
