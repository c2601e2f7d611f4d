// load_host: one host's NICs, configuration and counters from its samples. Configuration comes
// from the latest sample (the state the incident is in); counters from every sample.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "base/strings.h"
#include "model/loader.h"
#include "model/source_reading.h"
#include "parsers/chronyc_tracking.h"
#include "parsers/ethtool_info.h"
#include "parsers/ethtool_link.h"
#include "parsers/ethtool_stats.h"
#include "parsers/ibv_devinfo.h"
#include "parsers/ip_address.h"
#include "parsers/lldpcli_json.h"
#include "parsers/mlnx_qos.h"
#include "parsers/rdma_link.h"

namespace netdoctor::model {
namespace {

const std::string k_sysfs_ib = "/sys/class/infiniband/";
const std::string k_sysfs_net = "/sys/class/net/";

// SourceMap names (model/fabric.h).
const std::string k_src_ethtool_stats = "ethtool -S";
const std::string k_src_ethtool_info = "ethtool -i";
const std::string k_src_ethtool_link = "ethtool";
const std::string k_src_hw_counters = "sysfs hw_counters";
const std::string k_src_ib_counters = "sysfs counters";
const std::string k_src_sysfs_net = "sysfs net";
const std::string k_src_sysfs_port = "sysfs port";
const std::string k_src_fw_ver = "sysfs fw_ver";
const std::string k_src_ibv = "ibv_devinfo";
const std::string k_src_rdma_link = "rdma link";
const std::string k_src_mlnx_qos = "mlnx_qos";
const std::string k_src_ip = "ip address";
const std::string k_src_chrony = "chronyc tracking";
const std::string k_src_lldp = "lldpcli";
const std::string k_src_captured_at = "captured_at";

// Room for a NIC sample's values up front (a simulated mlx5 or bnxt NIC maps about 130).
constexpr std::size_t k_values_per_sample = 160;

template <typename T, typename Parse>
std::optional<T> parse_command(SourceLog& log, const SampleSource& sample,
                               const std::vector<std::string>& argv, const std::string& source,
                               SourceMap& map, Parse parse) {
  auto text = log.command(sample, argv, source, map);
  if (!text) {
    return std::nullopt;
  }
  auto parsed = parse(*text);
  if (!parsed.ok()) {
    log.malformed(source, sample.display_command(argv), parsed.error(), map);
    return std::nullopt;
  }
  return std::move(parsed).value();
}

std::optional<std::vector<DirEntry>> list_dir(SourceLog& log, const SampleSource& sample,
                                              const std::string& path, const std::string& source,
                                              SourceMap& map) {
  auto entries = sample.list_dir(path);
  if (entries.ok()) {
    return std::move(entries).value();
  }
  if (entries.error().code == ErrorCode::NotFound) {
    record_source(map, source, Availability::Absent, sample.display_path(path) + ": not captured");
    return std::nullopt;
  }
  Error error = entries.error();
  error.context = sample.display_path(path);
  record_source(map, source, Availability::Unreadable, error.describe());
  log.problem(source, std::move(error));
  return std::nullopt;
}

// A one-line sysfs value, trimmed; nullopt when absent or unreadable (logged).
std::optional<std::string> read_value(SourceLog& log, const SampleSource& sample,
                                      const std::string& path, const std::string& source,
                                      SourceMap& map) {
  auto text = log.read_file(sample, path, source, map);
  if (!text) {
    return std::nullopt;
  }
  return std::string(trim(*text));
}

std::optional<std::int64_t> read_integer(SourceLog& log, const SampleSource& sample,
                                         const std::string& path, const std::string& source,
                                         SourceMap& map) {
  auto text = read_value(log, sample, path, source, map);
  if (!text) {
    return std::nullopt;
  }
  auto value = parse_i64(*text);
  if (!value) {
    log.malformed(source, sample.display_path(path),
                  make_error(ErrorCode::Parse, fmt::format("'{}' is not an integer", *text)), map);
  }
  return value;
}

// "28.39.1002 (MT_0000000838)" -> "28.39.1002"; bnxt "220.0.57.0/pkg 22.00.07.60" -> "220.0.57.0".
std::string first_token(std::string_view text) {
  auto fields = split_ws(text);
  if (fields.empty()) {
    return {};
  }
  auto token = fields.front();
  return std::string(token.substr(0, token.find('/')));
}

// "4: ACTIVE" (sysfs), "PORT_ACTIVE" (ibv_devinfo), "ACTIVE" (rdma link) -> "ACTIVE".
std::string normalise_port_state(std::string_view raw) {
  auto text = trim(raw);
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    text = trim(text.substr(colon + 1));
  }
  if (starts_with(text, "PORT_")) {
    text.remove_prefix(5);
  }
  std::string out;
  for (char c : text) {
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

// "5: LinkUp" (sysfs), "LINK_UP (5)" / "LINK_UP" -> "LINK_UP".
std::string normalise_phys_state(std::string_view raw) {
  auto text = trim(raw);
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    text = trim(text.substr(colon + 1));
  }
  if (auto paren = text.find(" ("); paren != std::string_view::npos) {
    text = text.substr(0, paren);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    if (upper && i > 0 && std::islower(static_cast<unsigned char>(text[i - 1])) != 0) {
      out += '_';
    }
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

struct PortRate {
  std::optional<double> gbps;
  std::optional<int> width;
};

// "200 Gb/sec (4X HDR)" -> 200, 4.
PortRate parse_sysfs_rate(std::string_view text) {
  PortRate rate;
  auto fields = split_ws(text);
  if (!fields.empty()) {
    rate.gbps = parse_double(fields.front());
  }
  if (auto open = text.find('('); open != std::string_view::npos) {
    auto rest = text.substr(open + 1);
    auto x = rest.find('X');
    if (x != std::string_view::npos) {
      if (auto lanes = parse_i64(rest.substr(0, x)); lanes && *lanes > 0 && *lanes <= 64) {
        rate.width = static_cast<int>(*lanes);
      }
    }
  }
  return rate;
}

std::string vendor_from_driver(std::string_view driver) {
  if (starts_with(driver, "mlx5") || starts_with(driver, "mlx4")) {
    return std::string(driver.substr(0, 4));
  }
  if (starts_with(driver, "bnxt")) {
    return "bnxt";
  }
  if (driver == "irdma" || driver == "ice" || driver == "i40e") {
    return "intel";
  }
  return {};
}

std::string vendor_from_device(std::string_view device) {
  if (starts_with(device, "mlx5_")) {
    return "mlx5";
  }
  if (starts_with(device, "mlx4_")) {
    return "mlx4";
  }
  if (starts_with(device, "bnxt_re")) {
    return "bnxt";
  }
  if (starts_with(device, "irdma")) {
    return "intel";
  }
  return {};
}

std::string vendor_from_ids(std::string_view vendor_id, std::string_view board_id) {
  const auto id = to_lower(vendor_id);
  if (id == "0x02c9" || id == "0x15b3" || starts_with(board_id, "MT_")) {
    return "mlx5";
  }
  if (id == "0x14e4" || id == "0x0010" || id == "0x10b7") {  // Broadcom ids seen for bnxt_re
    return "bnxt";
  }
  if (id == "0x8086") {
    return "intel";
  }
  return {};
}

struct HostOutputs {  // host-wide command outputs of the latest sample
  std::optional<parsers::RdmaLinks> rdma;
  std::optional<parsers::IbvDevinfo> ibv;
  std::optional<parsers::IpAddressList> ip;
  std::optional<parsers::LldpNeighbors> lldp;
  std::optional<parsers::ChronyTracking> chrony;
};

HostOutputs read_host_outputs(SourceLog& log, const SampleSource& sample, SourceMap& sources) {
  HostOutputs out;
  out.rdma = parse_command<parsers::RdmaLinks>(log, sample, {"rdma", "link", "show"},
                                               k_src_rdma_link, sources, parsers::parse_rdma_link);
  out.ibv = parse_command<parsers::IbvDevinfo>(log, sample, {"ibv_devinfo", "-v"}, k_src_ibv,
                                               sources, parsers::parse_ibv_devinfo);
  if (!out.ibv && sources[k_src_ibv].availability == Availability::Absent) {
    out.ibv = parse_command<parsers::IbvDevinfo>(log, sample, {"ibv_devinfo"}, k_src_ibv, sources,
                                                 parsers::parse_ibv_devinfo);
  }
  out.ip = parse_command<parsers::IpAddressList>(log, sample, {"ip", "-d", "address"}, k_src_ip,
                                                 sources, parsers::parse_ip_address);
  if (!out.ip && sources[k_src_ip].availability == Availability::Absent) {
    out.ip = parse_command<parsers::IpAddressList>(log, sample, {"ip", "address"}, k_src_ip,
                                                   sources, parsers::parse_ip_address);
  }
  out.lldp = parse_command<parsers::LldpNeighbors>(
      log, sample, {"lldpcli", "show", "neighbors", "-f", "json"}, k_src_lldp, sources,
      parsers::parse_lldpcli_json);
  out.chrony = parse_command<parsers::ChronyTracking>(
      log, sample, {"chronyc", "tracking"}, k_src_chrony, sources, parsers::parse_chronyc_tracking);
  return out;
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

struct NicSeed {
  std::string device;
  int port = 1;
  std::string netdev;
};

std::vector<NicSeed> discover_nics(SourceLog& log, const SampleSource& sample,
                                   const HostOutputs& out, SourceMap& host_sources) {
  std::vector<NicSeed> seeds;
  std::set<std::pair<std::string, int>> seen;
  auto add = [&](const std::string& device, int port) {
    if (seen.emplace(device, port).second) {
      seeds.push_back(NicSeed{device, port, {}});
    }
  };
  if (auto devices = list_dir(log, sample, k_sysfs_ib, "sysfs infiniband", host_sources)) {
    for (const auto& entry : *devices) {
      if (entry.kind == DirEntry::Kind::File) {
        continue;
      }
      bool any_port = false;
      auto ports = sample.list_dir(k_sysfs_ib + entry.name + "/ports");
      if (ports.ok()) {
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
  for (auto& seed : seeds) {
    if (const auto* link = find_rdma_link(out, seed.device, seed.port);
        link != nullptr && !link->netdev.empty()) {
      seed.netdev = link->netdev;
      continue;
    }
    auto nets = sample.list_dir(k_sysfs_ib + seed.device + "/device/net");
    if (nets.ok() && !nets->empty()) {
      // Ports of a multi-port device list their netdevs in port order.
      const auto index = std::min(nets->size() - 1, static_cast<std::size_t>(seed.port - 1));
      seed.netdev = (*nets)[index].name;
    }
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

void fill_rdma_config(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                      Nic& nic) {
  const std::string base = k_sysfs_ib + nic.device;
  if (auto fw = read_value(log, sample, base + "/fw_ver", k_src_fw_ver, nic.sources)) {
    nic.firmware = first_token(*fw);
  }
  const std::string port = base + "/ports/" + std::to_string(nic.port);
  if (auto state = read_value(log, sample, port + "/state", k_src_sysfs_port, nic.sources)) {
    nic.state = normalise_port_state(*state);
  }
  if (auto phys = read_value(log, sample, port + "/phys_state", k_src_sysfs_port, nic.sources)) {
    nic.phys_state = normalise_phys_state(*phys);
  }
  if (auto rate = read_value(log, sample, port + "/rate", k_src_sysfs_port, nic.sources)) {
    auto parsed = parse_sysfs_rate(*rate);
    nic.speed_gbps = parsed.gbps;
    nic.active_width = parsed.width;
  }
  if (auto layer = read_value(log, sample, port + "/link_layer", k_src_sysfs_port, nic.sources)) {
    nic.link_layer = *layer;
  }

  const auto* device = find_ibv_device(out, nic.device);
  const auto* ibv_port = find_ibv_port(device, nic.port);
  if (device != nullptr) {
    record_source(nic.sources, k_src_ibv, Availability::Observed);
    if (nic.firmware.empty()) {
      nic.firmware = first_token(device->fw_ver);
    }
    nic.board_id = device->board_id;
    if (device->vendor_part_id) {
      nic.part_id = std::to_string(*device->vendor_part_id);
    }
  } else if (out.ibv) {
    record_source(nic.sources, k_src_ibv, Availability::Absent, "device not listed");
  }
  if (ibv_port != nullptr) {
    if (ibv_port->active_mtu_bytes) {
      nic.active_mtu = static_cast<int>(*ibv_port->active_mtu_bytes);
    }
    if (ibv_port->max_mtu_bytes) {
      nic.max_mtu = static_cast<int>(*ibv_port->max_mtu_bytes);
    }
    if (nic.state.empty()) {
      nic.state = normalise_port_state(ibv_port->state);
    }
    if (nic.phys_state.empty()) {
      nic.phys_state = normalise_phys_state(ibv_port->phys_state);
    }
    if (nic.link_layer.empty()) {
      nic.link_layer = ibv_port->link_layer;
    }
    if (!nic.speed_gbps) {
      nic.speed_gbps = ibv_port->rate_gbps;
    }
    if (!nic.active_width && ibv_port->active_width_lanes) {
      nic.active_width = static_cast<int>(*ibv_port->active_width_lanes);
    }
  }
  if (const auto* link = find_rdma_link(out, nic.device, nic.port)) {
    record_source(nic.sources, k_src_rdma_link, Availability::Observed);
    if (nic.state.empty()) {
      nic.state = link->state;
    }
    if (nic.phys_state.empty()) {
      nic.phys_state = link->physical_state;
    }
  }
}

void fill_netdev_config(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                        Nic& nic) {
  const std::string net = k_sysfs_net + nic.netdev;
  if (auto mtu = read_integer(log, sample, net + "/mtu", k_src_sysfs_net, nic.sources)) {
    nic.mtu = static_cast<int>(*mtu);
  }
  if (auto oper = read_value(log, sample, net + "/operstate", k_src_sysfs_net, nic.sources)) {
    nic.operstate = *oper;
  }
  std::optional<double> sysfs_speed;
  if (auto speed = read_value(log, sample, net + "/speed", k_src_sysfs_net, nic.sources)) {
    if (auto mbps = parse_i64(*speed); mbps && *mbps > 0) {  // -1 while the link is down
      sysfs_speed = static_cast<double>(*mbps) / 1000.0;
    }
  }
  if (auto mac = read_value(log, sample, net + "/address", k_src_sysfs_net, nic.sources)) {
    nic.mac = *mac;
  }

  if (auto info = parse_command<parsers::EthtoolInfo>(log, sample, {"ethtool", "-i", nic.netdev},
                                                      k_src_ethtool_info, nic.sources,
                                                      parsers::parse_ethtool_info)) {
    nic.driver = info->driver;
    nic.driver_version = info->version;
    if (auto firmware = first_token(info->firmware_version); !firmware.empty()) {
      nic.firmware = firmware;
    }
    nic.bus_info = info->bus_info;
  }
  if (auto link = parse_command<parsers::EthtoolLink>(log, sample, {"ethtool", nic.netdev},
                                                      k_src_ethtool_link, nic.sources,
                                                      parsers::parse_ethtool_link)) {
    if (!nic.speed_gbps && link->speed_mbps) {
      nic.speed_gbps = static_cast<double>(*link->speed_mbps) / 1000.0;
    }
    if (link->max_supported_speed_mbps) {
      nic.rated_gbps = static_cast<double>(*link->max_supported_speed_mbps) / 1000.0;
    } else if (link->max_advertised_speed_mbps) {
      nic.rated_gbps = static_cast<double>(*link->max_advertised_speed_mbps) / 1000.0;
    }
  }
  if (!nic.speed_gbps) {
    nic.speed_gbps = sysfs_speed;
  }
  if (auto qos =
          parse_command<parsers::MlnxQos>(log, sample, {"mlnx_qos", "-i", nic.netdev},
                                          k_src_mlnx_qos, nic.sources, parsers::parse_mlnx_qos)) {
    nic.qos.trust = qos->trust_state;
    nic.qos.dcbx_mode = qos->dcbx_mode;
    for (std::uint32_t p = 0; p < 8; ++p) {
      nic.qos.pfc_enabled[p] = qos->pfc_enabled_on(p);
    }
    for (const auto& [priority, dscps] : qos->dscp2prio) {
      for (auto dscp : dscps) {
        nic.qos.dscp_to_priority[static_cast<int>(dscp)] = static_cast<int>(priority);
      }
    }
  }
  if (out.ip) {
    if (const auto* iface = out.ip->find(nic.netdev)) {
      record_source(nic.sources, k_src_ip, Availability::Observed);
      for (const auto& addr : iface->addresses) {
        if (addr.family == "inet") {
          nic.ipv4.push_back(fmt::format("{}/{}", addr.address, addr.prefix_len));
        }
      }
      if (!nic.mtu && iface->mtu) {
        nic.mtu = static_cast<int>(*iface->mtu);
      }
      if (nic.operstate.empty()) {
        nic.operstate = to_lower(iface->state);
      }
      if (nic.mac.empty()) {
        nic.mac = iface->mac;
      }
    } else {
      record_source(nic.sources, k_src_ip, Availability::Absent, "interface not listed");
    }
  }
  if (out.lldp) {
    for (const auto& neighbor : out.lldp->neighbors) {
      if (neighbor.local_interface != nic.netdev) {
        continue;
      }
      record_source(nic.sources, k_src_lldp, Availability::Observed);
      nic.switch_name = neighbor.chassis_name;
      nic.switch_port = (neighbor.port_id_type == "mac" && !neighbor.port_descr.empty())
                            ? neighbor.port_descr
                            : neighbor.port_id;
      break;
    }
  }
}

std::string nic_vendor(const Nic& nic, const HostOutputs& out) {
  if (auto vendor = vendor_from_driver(nic.driver); !vendor.empty()) {
    return vendor;
  }
  if (auto vendor = vendor_from_device(nic.device); !vendor.empty()) {
    return vendor;
  }
  if (const auto* device = find_ibv_device(out, nic.device)) {
    if (auto vendor = vendor_from_ids(device->vendor_id, device->board_id); !vendor.empty()) {
      return vendor;
    }
  }
  return nic.driver.empty() ? "unknown" : nic.driver;
}

void add_mapped(MetricValues::Builder& values, const CounterMapping& mapping, std::uint64_t raw) {
  const double value = static_cast<double>(raw) * mapping.scale;
  if (mapping.known_name) {
    values.add(*mapping.known_name, mapping.key.index, value);
  } else {
    values.add(mapping.key.name, mapping.key.index, value);
  }
}

void read_counter_dir(SourceLog& log, const SampleSource& sample, const std::string& dir,
                      const CounterMap& map, const std::string& source, Nic& nic,
                      MetricValues::Builder& out) {
  auto entries = list_dir(log, sample, dir, source, nic.sources);
  if (!entries) {
    return;
  }
  record_source(nic.sources, source, Availability::Observed);
  std::string path = dir + "/";
  const auto base_size = path.size();
  for (const auto& entry : *entries) {
    const auto* mapping = map.find(entry.name);
    if (mapping == nullptr) {
      continue;  // not a counter we reason about: not even read
    }
    path.resize(base_size);
    path += entry.name;
    auto text = log.read_file(sample, path, source, nic.sources);
    if (!text) {
      continue;
    }
    auto value = parse_u64(trim(*text));
    if (!value) {
      log.malformed(source, sample.display_path(path),
                    make_error(ErrorCode::Parse, "counter is not an unsigned integer"),
                    nic.sources);
      continue;
    }
    add_mapped(out, *mapping, *value);
  }
}

CounterSample read_nic_counters(SourceLog& log, const SampleSource& sample,
                                const CounterTable& table, double captured_at, Nic& nic) {
  MetricValues::Builder values;
  values.reserve(k_values_per_sample);
  if (!nic.netdev.empty()) {
    const std::vector<std::string> argv = {"ethtool", "-S", nic.netdev};
    if (auto text = log.command(sample, argv, k_src_ethtool_stats, nic.sources)) {
      // Mapped line by line: the full EthtoolStats (every counter, twice) is not needed here.
      const auto& map = table.map_for(nic.vendor, CounterSource::Ethtool);
      const Status parsed =
          parsers::for_each_ethtool_stat(*text, [&](std::string_view name, std::uint64_t value) {
            if (const auto* mapping = map.find(name)) {
              add_mapped(values, *mapping, value);
            }
          });
      if (!parsed.ok()) {
        log.malformed(k_src_ethtool_stats, sample.display_command(argv), parsed.error(),
                      nic.sources);
      }
    }
    read_counter_dir(log, sample, k_sysfs_net + nic.netdev + "/statistics",
                     table.map_for(nic.vendor, CounterSource::NetdevStats), k_src_sysfs_net, nic,
                     values);
  }
  if (!nic.device.empty()) {
    const std::string port = k_sysfs_ib + nic.device + "/ports/" + std::to_string(nic.port);
    read_counter_dir(log, sample, port + "/hw_counters",
                     table.map_for(nic.vendor, CounterSource::HwCounters), k_src_hw_counters, nic,
                     values);
    read_counter_dir(log, sample, port + "/counters",
                     table.map_for(nic.vendor, CounterSource::IbCounters), k_src_ib_counters, nic,
                     values);
  }
  return CounterSample{captured_at, std::move(values).finish()};
}

void fill_clock(const parsers::ChronyTracking& tracking, ClockState& clock) {
  clock.offset_s = tracking.system_time_offset_s;
  clock.synchronised = tracking.synchronised;
  clock.leap_status = tracking.leap_status;
  clock.reference = tracking.reference_name.empty()
                        ? tracking.reference_id
                        : fmt::format("{} ({})", tracking.reference_id, tracking.reference_name);
  if (tracking.stratum) {
    clock.stratum = static_cast<int>(*tracking.stratum);
  }
}

void fill_interfaces(const parsers::IpAddressList& list, Host& host) {
  for (const auto& iface : list.interfaces) {
    if (iface.link_type == "loopback" || iface.has_flag("LOOPBACK")) {
      continue;
    }
    Host::Interface out;
    out.name = iface.name;
    if (iface.mtu) {
      out.mtu = static_cast<int>(*iface.mtu);
    }
    out.state = iface.state;
    for (const auto& addr : iface.addresses) {
      if (addr.family == "inet" && addr.scope != "host") {
        out.ipv4.push_back(fmt::format("{}/{}", addr.address, addr.prefix_len));
      }
    }
    if (!out.ipv4.empty()) {
      host.interfaces.push_back(std::move(out));
    }
  }
}

}  // namespace

Host load_host(const std::string& name, const std::vector<MachineSample>& samples,
               const CounterTable& counters, std::vector<Problem>& problems) {
  Host host;
  host.name = name;
  SourceLog log(host.entity(), problems);
  if (samples.empty()) {
    return host;
  }

  // Time of each sample; a sample without it cannot anchor a rate and is left out of the
  // counter series (unless none has one: then all stay, at time 0, and rates say BadWindow).
  std::vector<std::optional<double>> times;
  for (const auto& sample : samples) {
    auto at = sample.source->captured_at();
    if (at.ok()) {
      times.emplace_back(*at);
      record_source(host.sources, k_src_captured_at, Availability::Observed);
      continue;
    }
    times.emplace_back(std::nullopt);
    Error error = at.error();
    if (error.context.empty()) {
      error.context = sample.source->display_path("/captured_at");
    }
    error.message = "captured_at missing or unusable (" + error.message +
                    "); sample left out of the counter series";
    record_source(host.sources, k_src_captured_at, Availability::Malformed, error.describe());
    log.problem(k_src_captured_at, std::move(error));
  }
  const bool any_time =
      std::any_of(times.begin(), times.end(), [](const auto& t) { return t.has_value(); });

  // Configuration from the latest sample that shows any NIC (a latest sample that lost its
  // sysfs copy must not make the host's NICs vanish).
  HostOutputs out;
  std::vector<NicSeed> seeds;
  std::size_t config_index = samples.size() - 1;
  for (std::size_t k = samples.size(); k-- > 0;) {
    out = read_host_outputs(log, *samples[k].source, host.sources);
    seeds = discover_nics(log, *samples[k].source, out, host.sources);
    config_index = k;
    if (!seeds.empty()) {
      break;
    }
  }
  const SampleSource& latest = *samples[config_index].source;
  if (out.chrony) {
    fill_clock(*out.chrony, host.clock);
  }
  if (out.ip) {
    fill_interfaces(*out.ip, host);
  }

  for (const auto& seed : seeds) {
    Nic nic;
    nic.host = name;
    nic.device = seed.device;
    nic.port = seed.port;
    nic.netdev = seed.netdev;
    if (!nic.device.empty()) {
      fill_rdma_config(log, latest, out, nic);
    }
    if (!nic.netdev.empty()) {
      fill_netdev_config(log, latest, out, nic);
    }
    nic.vendor = nic_vendor(nic, out);
    host.nics.push_back(std::move(nic));
  }

  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (any_time && !times[i]) {
      continue;
    }
    const double at = times[i].value_or(0.0);
    host.captured_at.push_back(at);
    for (auto& nic : host.nics) {
      nic.samples.push_back(read_nic_counters(log, *samples[i].source, counters, at, nic));
    }
  }
  return host;
}

}  // namespace netdoctor::model
