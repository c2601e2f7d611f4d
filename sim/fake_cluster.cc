// The fake cluster's shape: the spec's check, the fabric the writers print, names, fault
// factors and what the tests observe. Its answers are in fake_cluster_answers.cc, the perftest
// and nccl runs in fake_cluster_runs.cc.
#include "sim/fake_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cassert>

#include "base/strings.h"
#include "sim/naming.h"
#include "sim/nic_models.h"

namespace netdoctor::sim {
namespace {

constexpr double k_lane_gbps = 50.0;  // the RoCE ibv_devinfo layout prints 50G (HDR) lanes
constexpr std::array<std::string_view, 6> k_counter_names = {
    "port_xmit_data",  "port_rcv_data", "symbol_error",
    "port_rcv_errors", "link_downed",   "link_error_recovery"};

bool valid_line_rate(const FakeClusterSpec& spec) {
  if (spec.infiniband) {
    return spec.line_gbps == 100 || spec.line_gbps == 200 || spec.line_gbps == 400;
  }
  return spec.line_gbps == 50 || spec.line_gbps == 100 || spec.line_gbps == 200 ||
         spec.line_gbps == 400;
}

bool share(double value) {
  return value > 0.0 && value <= 1.0;
}

Nic make_nic(const FakeClusterSpec& spec, std::size_t h, std::size_t n, std::uint32_t lid) {
  const NicModel& model = nic_model(Vendor::Mlx5);
  const NicNames names = nic_names(Vendor::Mlx5, Mlx5Style::Indexed, n);
  Nic nic;
  nic.rdma_dev = names.rdma_dev;
  nic.netdev = spec.infiniband ? fmt::format("ibp{:x}s0", 0x1a + 0x10 * n) : names.netdev;
  nic.pci = names.pci;
  nic.vendor = Vendor::Mlx5;
  nic.model = model.model;
  nic.board_id = model.board_id;
  nic.fw = model.fw;
  nic.vendor_part_id = model.vendor_part_id;
  const int gbps = static_cast<int>(spec.line_gbps);
  nic.rated_gbps = nic.speed_gbps = gbps;
  nic.rated_lanes = nic.lanes = spec.infiniband ? 4 : static_cast<int>(gbps / k_lane_gbps);
  nic.node_guid = 0x0c42a10300000000ull | (static_cast<std::uint64_t>(h + 1) << 16) | (n + 1);
  nic.ip = fmt::format("10.{}.{}.{}", 10 + n, h / 250, 1 + h % 250);
  nic.lid = spec.infiniband ? lid : 0;
  nic.sm_lid = spec.infiniband ? 1 : 0;
  return nic;
}

// Hosts with their NICs, and one leaf per hosts_per_leaf hosts with a host-facing port per NIC
// (Ethernet0, Ethernet4, ...): what the writers need, no spines (nothing here reads them).
Fabric build_fabric(const FakeClusterSpec& spec, const std::vector<std::string>& names) {
  Fabric fabric;
  fabric.kind = spec.infiniband ? FabricKind::Ib : FabricKind::Roce;
  const std::size_t leaves = (spec.hosts + spec.hosts_per_leaf - 1) / spec.hosts_per_leaf;
  fabric.leaf_count = leaves;
  for (std::size_t l = 0; l < leaves; ++l) {
    Switch leaf;
    leaf.name = fmt::format("leaf{:02}", l + 1);
    leaf.mac = fmt::format("b8:ce:f6:11:{:02x}:{:02x}", (l + 1) >> 8 & 0xff, (l + 1) & 0xff);
    leaf.mgmt_ip = fmt::format("10.255.{}.{}", (l + 1) / 250, (l + 1) % 250);
    leaf.hwsku = "Mellanox-SN5600-C64";
    fabric.switches.push_back(std::move(leaf));
  }
  auto lid = static_cast<std::uint32_t>(leaves + 2);  // the SM's switch has LID 1, leaves next
  for (std::size_t h = 0; h < spec.hosts; ++h) {
    Host host;
    host.name = names[h];
    host.leaf = h / spec.hosts_per_leaf;
    Switch& leaf = fabric.switches[host.leaf];
    leaf.hosts.push_back(h);
    for (std::size_t n = 0; n < spec.nics_per_host; ++n) {
      Nic nic = make_nic(spec, h, n, lid++);
      const int number = static_cast<int>(4 * leaf.ports.size());
      Port port;
      port.name = fmt::format("Ethernet{}", number);
      port.alias = fmt::format("etp{}", number / 4 + 1);
      port.peer_host = h;
      port.peer_nic = n;
      nic.leaf = host.leaf;
      nic.port = leaf.ports.size();
      leaf.ports.push_back(port);
      host.nics.push_back(std::move(nic));
    }
    fabric.hosts.push_back(std::move(host));
  }
  return fabric;
}

}  // namespace

Status validate(const FakeClusterSpec& spec) {
  const auto bad = [](std::string message) {
    return make_error(ErrorCode::InvalidArgument, "fake cluster: " + std::move(message));
  };
  if (spec.hosts == 0 || spec.hosts > 9999 || spec.hosts_per_leaf == 0) {
    return bad("hosts must be 1..9999 and hosts_per_leaf at least 1");
  }
  if (spec.nics_per_host == 0 || spec.nics_per_host > 16) {
    return bad("nics_per_host must be 1..16");
  }
  if (!valid_line_rate(spec)) {
    return bad(
        fmt::format("line rate {} Gb/s cannot be shown by ibv_devinfo here", spec.line_gbps));
  }
  if (!share(spec.perftest_efficiency) || !share(spec.nccl_busbw_share) ||
      !share(spec.alltoall_factor)) {
    return bad("efficiencies and factors must be in (0, 1]");
  }
  std::set<std::string> hosts;
  for (std::size_t h = 0; h < spec.hosts; ++h) {
    hosts.insert(fmt::format("{}{:04}", spec.host_prefix, h + 1));
  }
  const auto known_nic = [&](const std::string& host, const std::string& device, double factor) {
    const auto n = parse_u64(device.starts_with("mlx5_") ? device.substr(5) : "");
    return hosts.contains(host) && n && *n < spec.nics_per_host && share(factor);
  };
  for (const auto& nic : spec.slow_nics) {
    if (!known_nic(nic.host, nic.device, nic.factor)) {
      return bad("slow NIC " + nic.host + "/" + nic.device + " unknown or factor out of (0, 1]");
    }
  }
  for (const auto& cable : spec.bad_cables) {
    if (!known_nic(cable.host, cable.device, cable.factor)) {
      return bad("bad cable " + cable.host + "/" + cable.device +
                 " unknown or factor out of (0, 1]");
    }
  }
  for (const auto* set :
       {&spec.hung_hosts, &spec.busy_hosts, &spec.alltoall_slow_hosts, &spec.down_hosts}) {
    for (const std::string& host : *set) {
      if (!hosts.contains(host)) {
        return bad("fault on unknown host " + host);
      }
    }
  }
  return {};
}

FakeCluster::FakeCluster(FakeClusterSpec spec) : m_spec(std::move(spec)) {
  assert(validate(m_spec).ok());
  std::vector<std::string> names;
  for (std::size_t h = 0; h < m_spec.hosts; ++h) {
    names.push_back(host_name(h));
    m_host_index.emplace(names.back(), h);
  }
  m_fabric = build_fabric(m_spec, names);
  for (const auto& nic : m_spec.slow_nics) {
    const NicKey key{*host_index(nic.host), *nic_index(nic.device)};
    m_nic_factor[key] = m_nic_factor.contains(key) ? m_nic_factor[key] * nic.factor : nic.factor;
  }
  for (const auto& cable : m_spec.bad_cables) {
    const NicKey key{*host_index(cable.host), *nic_index(cable.device)};
    m_bad_cables.insert(key);
    m_nic_factor[key] =
        m_nic_factor.contains(key) ? m_nic_factor[key] * cable.factor : cable.factor;
  }
  // Data counters start where months of traffic left them; error counters at zero.
  for (std::size_t h = 0; h < m_spec.hosts; ++h) {
    for (std::size_t n = 0; n < m_spec.nics_per_host; ++n) {
      Counters& counters = m_counters[{h, n}];
      counters.xmit_words = 1'000'000'000 + hash_u64(m_spec.seed, names[h], n) % 900'000'000'000;
      counters.rcv_words =
          1'000'000'000 + hash_u64(m_spec.seed, names[h], n + 100) % 900'000'000'000;
    }
  }
}

FakeCluster::~FakeCluster() = default;

std::string FakeCluster::host_name(std::size_t i) const {
  return fmt::format("{}{:04}", m_spec.host_prefix, i + 1);
}

std::vector<std::string> FakeCluster::hosts() const {
  std::vector<std::string> out;
  for (const Host& host : m_fabric.hosts) {
    out.push_back(host.name);
  }
  return out;
}

std::string FakeCluster::leaf_of(std::string_view host) const {
  const auto h = host_index(host);
  return h ? m_fabric.switches[m_fabric.hosts[*h].leaf].name : std::string();
}

std::string FakeCluster::device_name(std::size_t nic) const {
  return fmt::format("mlx5_{}", nic);
}

std::string FakeCluster::netdev_of(std::string_view device) const {
  const auto n = nic_index(device);
  return n ? m_fabric.hosts[0].nics[*n].netdev : std::string();
}

double FakeCluster::healthy_gbps() const {
  return m_spec.line_gbps * m_spec.perftest_efficiency;
}

double FakeCluster::healthy_busbw() const {
  return m_spec.nccl_busbw_share * static_cast<double>(m_spec.nics_per_host) * m_spec.line_gbps /
         8.0;
}

std::optional<std::size_t> FakeCluster::host_index(std::string_view host) const {
  const auto it = m_host_index.find(std::string(host));
  return it == m_host_index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

std::optional<std::size_t> FakeCluster::nic_index(std::string_view device) const {
  if (!device.starts_with("mlx5_")) {
    return std::nullopt;
  }
  const auto n = parse_u64(device.substr(5));
  return n && *n < m_spec.nics_per_host ? std::optional<std::size_t>(*n) : std::nullopt;
}

double FakeCluster::nic_factor(std::size_t host, std::size_t nic) const {
  const auto it = m_nic_factor.find({host, nic});
  return it == m_nic_factor.end() ? 1.0 : it->second;
}

bool FakeCluster::is_bad_cable(std::size_t host, std::size_t nic) const {
  return m_bad_cables.contains({host, nic});
}

void FakeCluster::count(std::string_view kind) {
  const auto it = m_commands.find(kind);
  if (it == m_commands.end()) {
    m_commands.emplace(std::string(kind), 1);
  } else {
    ++it->second;
  }
}

void FakeCluster::hold(const NicKey& nic, std::size_t leaf, int delta) {
  std::size_t& on_nic = m_nic_busy[nic];
  on_nic = delta > 0 ? on_nic + 1 : on_nic - 1;
  m_max_nic = std::max(m_max_nic, on_nic);
  if (leaf != k_none) {
    std::size_t& on_leaf = m_leaf_busy[leaf];
    on_leaf = delta > 0 ? on_leaf + 1 : on_leaf - 1;
    m_max_leaf = std::max(m_max_leaf, on_leaf);
  }
}

std::size_t FakeCluster::commands_run(std::string_view kind) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  const auto it = m_commands.find(kind);
  return it == m_commands.end() ? 0 : it->second;
}

std::size_t FakeCluster::commands_run() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  std::size_t total = 0;
  for (const auto& [kind, n] : m_commands) {
    total += n;
  }
  return total;
}

std::vector<FakeCluster::Pkill> FakeCluster::pkills() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_pkills;
}

std::size_t FakeCluster::max_concurrent_per_nic() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_max_nic;
}

std::size_t FakeCluster::max_concurrent_per_leaf() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_max_leaf;
}

std::optional<std::uint64_t> FakeCluster::counter(std::string_view host, std::string_view device,
                                                  std::string_view name) const {
  const auto h = host_index(host);
  const auto n = nic_index(device);
  if (!h || !n) {
    return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_counters.at({*h, *n}).get(name);
}

std::optional<std::uint64_t> FakeCluster::Counters::get(std::string_view name) const {
  const std::array<std::uint64_t, k_counter_names.size()> values = {
      xmit_words, rcv_words, symbol_error, port_rcv_errors, link_downed, link_error_recovery};
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (k_counter_names[i] == name) {
      return values[i];
    }
  }
  return std::nullopt;
}

}  // namespace netdoctor::sim
