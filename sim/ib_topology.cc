// The InfiniBand fat tree: the same hosts, leaves and spines as the RoCE fabric, built from
// the generation's parts (sim/ib_shape.h) and addressed the way an SM and the HCAs do it.
#include <fmt/format.h>

#include <algorithm>

#include "sim/ib_shape.h"
#include "sim/naming.h"
#include "sim/topology.h"

namespace netdoctor::sim {
namespace {

constexpr std::uint64_t k_hca_oui = 0xb8cef60300000000ull;     // ConnectX node GUIDs
constexpr std::uint64_t k_switch_oui = 0x0c42a10300000000ull;  // Quantum node GUIDs

// "00:00:10:29:fe:80:00:00:00:00:00:00:b8:ce:f6:03:00:02:5b:90": QPN flags, the link-local
// subnet prefix and the port GUID, as the IPoIB netdev's hardware address.
std::string ipoib_address(std::uint64_t guid) {
  std::string out = "00:00:10:29:fe:80:00:00:00:00:00:00";
  for (int shift = 56; shift >= 0; shift -= 8) {
    out += fmt::format(":{:02x}", (guid >> shift) & 0xff);
  }
  return out;
}

Nic make_hca(const SimConfig& config, const IbGeneration& gen, std::size_t host_index,
             std::size_t nic_index, std::uint64_t guid) {
  Nic nic;
  const std::size_t bus = 0x1a + 0x10 * nic_index;
  nic.rdma_dev = fmt::format("mlx5_{}", nic_index);
  nic.netdev = fmt::format("ibp{}s0", bus);
  nic.pci = fmt::format("0000:{:02x}:00.0", bus);
  nic.vendor = Vendor::Mlx5;
  nic.model = gen.hca_model;
  nic.board_id = gen.hca_board_id;
  nic.fw = gen.hca_fw;
  nic.driver_version = "24.10-1.1.4";
  nic.vendor_part_id = gen.hca_part_id;
  nic.rated_gbps = nic.speed_gbps = gen.gbps;
  nic.rated_lanes = nic.lanes = 4;
  nic.pcie_gt_s = nic.pcie_max_gt_s = gen.gbps >= 400 ? 32.0 : 16.0;
  nic.node_guid = guid;
  nic.mac = ipoib_address(guid);
  nic.mtu = 4092;  // IPoIB datagram mode on a 4096-byte IB MTU
  nic.active_mtu = 4096;
  nic.ifindex = static_cast<int>(nic_index) + 3;
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

Port ib_port(int number, int gbps) {
  Port port;
  port.number = number;
  port.name = port.alias = fmt::format("{}", number);
  port.first_lane = (number - 1) * 4;
  port.lanes = port.rated_lanes = 4;
  port.speed_gbps = port.rated_gbps = gbps;
  port.mtu = 4096;
  return port;
}

Switch make_switch(const IbGeneration& gen, const std::string& name, bool spine, std::uint64_t guid,
                   Rng& rng) {
  Switch sw;
  sw.name = name;
  sw.spine = spine;
  sw.guid = guid;
  sw.radix = gen.radix;
  sw.fw = gen.switch_fw;
  sw.hwsku = gen.switch_model;
  sw.uptime_s = rng.uniform(40.0, 400.0) * 86400.0;
  // A third of the switches never had their PortCounters cleared since boot; the others were
  // cleared by the fabric manager's last sweep a while ago.
  sw.pma_cleared_s = rng.chance(1.0 / 3.0) ? sw.uptime_s : rng.uniform(900.0, 2700.0);
  return sw;
}

void add_hosts(const SimConfig& config, const IbGeneration& gen, Fabric& fabric, Rng& rng) {
  const auto style = static_cast<HostStyle>(rng.index(static_cast<std::size_t>(HostStyle::Count)));
  std::uint64_t guid = k_hca_oui | ((rng.next_u64() & 0x7fffff) << 4);
  for (std::size_t h = 0; h < config.hosts; ++h) {
    Host host;
    host.name = host_name(style, h, config.hosts);
    for (std::size_t n = 0; n < config.nics_per_host; ++n) {
      host.nics.push_back(make_hca(config, gen, h, n, guid));
      guid += 0x10;  // ConnectX GUIDs of neighbouring boards differ in the low bits
    }
    host.uptime_s = rng.uniform(3.0, 60.0) * 86400.0;
    host.mgmt_ip = fmt::format("172.16.{}.{}", h / 250, 10 + h % 250);
    host.mgmt_mac =
        fmt::format("3c:ec:ef:{:02x}:{:02x}:{:02x}", (h >> 16) & 0xff, (h >> 8) & 0xff, h & 0xff);
    fabric.hosts.push_back(std::move(host));
  }
}

void add_leaves(const SimConfig& config, const IbGeneration& gen, const IbShape& shape,
                Fabric& fabric, Rng& rng, std::uint64_t& guid) {
  const int digits = shape.leaves > 99 ? 3 : 2;
  for (std::size_t l = 0; l < shape.leaves; ++l) {
    Switch leaf = make_switch(gen, fmt::format("leaf-{:0{}}", l + 1, digits), false, guid, rng);
    guid += 0x100;
    const auto leaves = static_cast<double>(shape.leaves);
    leaf.cross_fraction = std::max(0.5, leaves > 1 ? (leaves - 1.0) / leaves : 0.5);
    const std::size_t first = l * shape.hosts_per_leaf;
    const std::size_t last = std::min(config.hosts, first + shape.hosts_per_leaf);
    int number = 1;
    for (std::size_t h = first; h < last; ++h) {
      Host& host = fabric.hosts[h];
      host.leaf = l;
      leaf.hosts.push_back(h);
      for (std::size_t n = 0; n < host.nics.size(); ++n) {
        Port port = ib_port(number++, gen.gbps);
        port.kind = PortKind::HostFacing;
        port.peer_host = h;
        port.peer_nic = n;
        host.nics[n].leaf = l;
        host.nics[n].port = leaf.ports.size();
        leaf.ports.push_back(port);
      }
    }
    // Up-ports on the upper half of the switch, as fat trees are cabled, when they fit there.
    const std::size_t down = std::min(shape.hosts_per_leaf, config.hosts) * config.nics_per_host;
    const std::size_t half = gen.radix / 2;
    int up = static_cast<int>(down <= half && shape.uplinks_per_leaf <= half ? half : down) + 1;
    for (std::size_t u = 0; u < shape.uplinks_per_leaf; ++u) {
      Port port = ib_port(up++, gen.gbps);
      port.kind = PortKind::Uplink;
      leaf.ports.push_back(port);
    }
    fabric.switches.push_back(std::move(leaf));
  }
}

void add_spines(const IbGeneration& gen, const IbShape& shape, Fabric& fabric, Rng& rng,
                std::uint64_t& guid) {
  const int digits = shape.spines > 99 ? 3 : 2;
  for (std::size_t s = 0; s < shape.spines; ++s) {
    fabric.switches.push_back(
        make_switch(gen, fmt::format("spine-{:0{}}", s + 1, digits), true, guid, rng));
    guid += 0x100;
  }
  // Up-port u of every leaf lands on spine u % spines, on the spine's next port.
  for (std::size_t l = 0; l < shape.leaves; ++l) {
    const std::vector<std::size_t> ups = uplinks_of(fabric.switches[l]);
    for (std::size_t u = 0; u < ups.size(); ++u) {
      const std::size_t s = shape.leaves + u % shape.spines;
      Switch& spine = fabric.switches[s];
      Port port = ib_port(static_cast<int>(spine.ports.size()) + 1, gen.gbps);
      port.kind = PortKind::SpineDownlink;
      port.peer_switch = l;
      port.peer_port = ups[u];
      Port& leaf_port = fabric.switches[l].ports[ups[u]];
      leaf_port.peer_switch = s;
      leaf_port.peer_port = spine.ports.size();
      spine.ports.push_back(port);
    }
  }
}

// OpenSM on spine-01's management port takes LID 1, then the other switches, then every HCA.
void assign_lids(Fabric& fabric, Rng& rng) {
  const std::size_t first_spine = fabric.leaf_count;
  std::uint32_t lid = 1;
  fabric.switches[first_spine].lid = lid++;
  for (std::size_t s = 0; s < fabric.switches.size(); ++s) {
    if (s != first_spine) {
      fabric.switches[s].lid = lid++;
    }
  }
  for (Host& host : fabric.hosts) {
    for (Nic& nic : host.nics) {
      nic.lid = lid++;
      nic.sm_lid = 1;
    }
  }
  SubnetManager sm;
  sm.sw = first_spine;
  sm.guid = fabric.switches[first_spine].guid;
  sm.lid = 1;
  sm.priority = 15;
  sm.activity = 1000 + rng.below(900000);
  fabric.managers = {sm};
}

}  // namespace

Fabric build_ib_topology(const SimConfig& config, std::uint64_t seed) {
  Rng rng(seed);
  Fabric fabric = start_fabric(config, rng);
  fabric.qos_tool = QosTool::None;
  const IbGeneration& gen = ib_generation(config.ib_speed);
  const IbShape shape = ib_shape(config).value();
  fabric.leaf_count = shape.leaves;
  add_hosts(config, gen, fabric, rng);
  std::uint64_t guid = k_switch_oui | ((rng.next_u64() & 0xffff) << 8);
  add_leaves(config, gen, shape, fabric, rng, guid);
  add_spines(gen, shape, fabric, rng, guid);
  assign_lids(fabric, rng);
  return fabric;
}

}  // namespace netdoctor::sim
