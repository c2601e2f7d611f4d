#include "model/nic_config.h"

#include <fmt/format.h>

#include "base/strings.h"
#include "model/nic_text.h"
#include "model/source_names.h"
#include "model/sysfs_paths.h"
#include "parsers/dcb.h"
#include "parsers/ethtool_info.h"
#include "parsers/ethtool_link.h"
#include "parsers/mlnx_qos.h"

namespace netdoctor::model {
namespace {

void fill_from_ibv(const parsers::IbvDevice* device, const parsers::IbvPort* ibv_port,
                   const HostOutputs& out, Nic& nic) {
  if (device != nullptr) {
    record_source(nic.sources, source::k_ibv_devinfo, Availability::Observed);
    if (nic.firmware.empty()) {
      nic.firmware = first_token(device->fw_ver);
    }
    nic.board_id = device->board_id;
    if (device->vendor_part_id) {
      nic.part_id = std::to_string(*device->vendor_part_id);
    }
  } else if (out.ibv) {
    record_source(nic.sources, source::k_ibv_devinfo, Availability::Absent, "device not listed");
  }
  if (ibv_port == nullptr) {
    return;
  }
  if (ibv_port->active_mtu_bytes) {
    nic.active_mtu = static_cast<int>(*ibv_port->active_mtu_bytes);
  }
  if (ibv_port->max_mtu_bytes) {
    nic.max_mtu = static_cast<int>(*ibv_port->max_mtu_bytes);
  }
  if (nic.state == RdmaPortState::Unknown) {
    nic.state = rdma_port_state_named(ibv_port->state);
  }
  if (nic.phys_state == PhysState::Unknown) {
    nic.phys_state = phys_state_named(ibv_port->phys_state);
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

void fill_from_ethtool(SourceLog& log, const SampleSource& sample, Nic& nic) {
  if (auto info = parse_command<parsers::EthtoolInfo>(log, sample, {"ethtool", "-i", nic.netdev},
                                                      source::k_ethtool_info, nic.sources,
                                                      parsers::parse_ethtool_info)) {
    nic.driver = info->driver;
    nic.driver_version = info->version;
    if (auto firmware = first_token(info->firmware_version); !firmware.empty()) {
      nic.firmware = firmware;
    }
    nic.bus_info = info->bus_info;
  }
  if (auto link = parse_command<parsers::EthtoolLink>(log, sample, {"ethtool", nic.netdev},
                                                      source::k_ethtool_link, nic.sources,
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
}

bool fill_from_mlnx_qos(SourceLog& log, const SampleSource& sample, Nic& nic) {
  auto qos =
      parse_command<parsers::MlnxQos>(log, sample, {"mlnx_qos", "-i", nic.netdev},
                                      source::k_mlnx_qos, nic.sources, parsers::parse_mlnx_qos);
  if (!qos) {
    return false;
  }
  nic.qos.tool = source::k_mlnx_qos;
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
  return true;
}

// What one `dcb <object> show` output says of the NIC's QoS. The first selector of apptrust's
// order is the field the NIC classifies by.
void apply_dcb(const parsers::DcbConfig& dcb, QosConfig& qos) {
  for (std::size_t p = 0; p < qos.pfc_enabled.size(); ++p) {
    if (dcb.prio_pfc[p]) {
      qos.pfc_enabled[p] = dcb.prio_pfc[p];
    }
  }
  if (!dcb.apptrust_order.empty()) {
    qos.trust = dcb.apptrust_order.front();
  }
  for (const auto& rule : dcb.apps) {
    if (rule.selector == "dscp" && rule.value) {
      qos.dscp_to_priority[static_cast<int>(*rule.value)] = static_cast<int>(rule.priority);
    }
  }
  if (!dcb.dcbx.empty()) {
    qos.dcbx_mode = join(dcb.dcbx, " ");
  }
}

// iproute2's dcb, for any driver: one capture per object, as text, with -s or as JSON (-j).
void fill_from_dcb(SourceLog& log, const SampleSource& sample, Nic& nic) {
  for (const char* object : {"pfc", "apptrust", "app", "ets", "buffer", "dcbx"}) {
    for (const std::vector<std::string>& options :
         std::vector<std::vector<std::string>>{{}, {"-s"}, {"-j"}, {"-j", "-s"}}) {
      std::vector<std::string> argv = {"dcb"};
      argv.insert(argv.end(), options.begin(), options.end());
      argv.insert(argv.end(), {object, "show", "dev", nic.netdev});
      if (auto dcb = parse_command<parsers::DcbConfig>(log, sample, argv, source::k_dcb,
                                                       nic.sources, parsers::parse_dcb)) {
        nic.qos.tool = source::k_dcb;
        apply_dcb(*dcb, nic.qos);
        break;
      }
    }
  }
}

// mlnx_qos where it was captured (it sees the firmware's view on mlx5), else dcb.
void fill_qos(SourceLog& log, const SampleSource& sample, Nic& nic) {
  if (!fill_from_mlnx_qos(log, sample, nic)) {
    fill_from_dcb(log, sample, nic);
  }
}

void fill_from_ip(const parsers::IpAddressList& list, Nic& nic) {
  const auto* iface = list.find(nic.netdev);
  if (iface == nullptr) {
    record_source(nic.sources, source::k_ip_address, Availability::Absent, "interface not listed");
    return;
  }
  record_source(nic.sources, source::k_ip_address, Availability::Observed);
  for (const auto& addr : iface->addresses) {
    if (addr.family == "inet") {
      nic.ipv4.push_back(fmt::format("{}/{}", addr.address, addr.prefix_len));
    }
  }
  if (!nic.mtu && iface->mtu) {
    nic.mtu = static_cast<int>(*iface->mtu);
  }
  if (nic.operstate == LinkState::Unknown) {
    nic.operstate = link_state_named(iface->state);
  }
  if (nic.mac.empty()) {
    nic.mac = iface->mac;
  }
}

void fill_from_lldp(const parsers::LldpNeighbors& lldp, Nic& nic) {
  for (const auto& neighbor : lldp.neighbors) {
    if (neighbor.local_interface != nic.netdev) {
      continue;
    }
    record_source(nic.sources, source::k_lldpcli, Availability::Observed);
    nic.switch_name = neighbor.chassis_name;
    // A port id of type mac names nothing a person would look for; its description does.
    nic.switch_port = (neighbor.port_id_type == "mac" && !neighbor.port_descr.empty())
                          ? neighbor.port_descr
                          : neighbor.port_id;
    return;
  }
}

}  // namespace

void fill_rdma_config(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                      Nic& nic) {
  const std::string base = k_sysfs_ib + nic.device;
  if (auto fw = read_value(log, sample, base + "/fw_ver", source::k_sysfs_fw_ver, nic.sources)) {
    nic.firmware = first_token(*fw);
  }
  const std::string port = base + "/ports/" + std::to_string(nic.port);
  const std::string& port_files = source::k_sysfs_port;
  if (auto state = read_value(log, sample, port + "/state", port_files, nic.sources)) {
    nic.state = rdma_port_state_named(*state);
  }
  if (auto phys = read_value(log, sample, port + "/phys_state", port_files, nic.sources)) {
    nic.phys_state = phys_state_named(*phys);
  }
  if (auto rate = read_value(log, sample, port + "/rate", port_files, nic.sources)) {
    auto parsed = parse_sysfs_rate(*rate);
    nic.speed_gbps = parsed.gbps;
    nic.active_width = parsed.width;
  }
  if (auto layer = read_value(log, sample, port + "/link_layer", port_files, nic.sources)) {
    nic.link_layer = *layer;
  }

  const auto* device = find_ibv_device(out, nic.device);
  fill_from_ibv(device, find_ibv_port(device, nic.port), out, nic);
  if (const auto* link = find_rdma_link(out, nic.device, nic.port)) {
    record_source(nic.sources, source::k_rdma_link, Availability::Observed);
    if (nic.state == RdmaPortState::Unknown) {
      nic.state = rdma_port_state_named(link->state);
    }
    if (nic.phys_state == PhysState::Unknown) {
      nic.phys_state = phys_state_named(link->physical_state);
    }
  }
}

void fill_netdev_config(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                        Nic& nic) {
  const std::string net = k_sysfs_net + nic.netdev;
  const std::string& net_files = source::k_sysfs_net;
  if (auto mtu = read_integer(log, sample, net + "/mtu", net_files, nic.sources)) {
    nic.mtu = static_cast<int>(*mtu);
  }
  if (auto oper = read_value(log, sample, net + "/operstate", net_files, nic.sources)) {
    nic.operstate = link_state_named(*oper);
  }
  std::optional<double> sysfs_speed;
  if (auto speed = read_value(log, sample, net + "/speed", net_files, nic.sources)) {
    if (auto mbps = parse_i64(*speed); mbps && *mbps > 0) {  // -1 while the link is down
      sysfs_speed = static_cast<double>(*mbps) / 1000.0;
    }
  }
  if (auto mac = read_value(log, sample, net + "/address", net_files, nic.sources)) {
    nic.mac = *mac;
  }
  fill_from_ethtool(log, sample, nic);
  if (!nic.speed_gbps) {
    nic.speed_gbps = sysfs_speed;
  }
  fill_qos(log, sample, nic);
  if (out.ip) {
    fill_from_ip(*out.ip, nic);
  }
  if (out.lldp) {
    fill_from_lldp(*out.lldp, nic);
  }
}

// ibdev2netdev: the port state (-v) and the netdev's carrier (when `with_carrier`) where nothing
// else gave them.
void fill_from_ibdev2netdev(const HostOutputs& out, bool with_carrier, Nic& nic) {
  const auto* entry = find_ibdev2netdev(out, nic.device, nic.port);
  if (entry == nullptr) {
    return;
  }
  record_source(nic.sources, source::k_ibdev2netdev, Availability::Observed);
  if (nic.state == RdmaPortState::Unknown && !entry->port_state.empty()) {
    nic.state = rdma_port_state_named(entry->port_state);
  }
  if (with_carrier && nic.operstate == LinkState::Unknown && entry->netdev == nic.netdev) {
    nic.operstate = link_state_named(entry->state);
  }
}

// `rdma resource show`: the device's verbs objects (shared by its ports).
void fill_resources(const HostOutputs& out, Nic& nic) {
  if (!out.resources) {
    return;
  }
  for (const auto& summary : out.resources->devices) {
    if (summary.device != nic.device) {
      continue;
    }
    record_source(nic.sources, source::k_rdma_resource, Availability::Observed);
    auto count = [&summary](const char* name) -> std::optional<std::uint64_t> {
      auto it = summary.counts.find(name);
      return it == summary.counts.end() ? std::nullopt : std::optional(it->second);
    };
    nic.resources = RdmaResourceCounts{count("qp"), count("cq"), count("mr"), count("pd")};
  }
}

}  // namespace netdoctor::model
