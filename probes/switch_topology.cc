#include "probes/switch_topology.h"

#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {

namespace {
constexpr double k_bits_per_byte = 8.0;

std::optional<double> utilisation(const model::SwitchPort& port, const char* util_name,
                                  const char* bps_name, bool tx) {
  if (auto pct = read_gauge(port.samples, util_name)) {
    return *pct / 100.0;
  }
  if (!port.speed_gbps || *port.speed_gbps <= 0.0) {
    return std::nullopt;
  }
  const double line_bytes = *port.speed_gbps * 1e9 / k_bits_per_byte;
  if (auto bps = read_gauge(port.samples, bps_name)) {
    return *bps / line_bytes;
  }
  if (tx) {
    std::vector<int> queues;
    for (int q = 0; q < 10; ++q) {
      queues.push_back(q);
    }
    Reading bytes = read_sum(port.samples, metric::k_sw_queue_tx_bytes, queues);
    if (bytes.is_rate()) {
      return bytes.value / line_bytes;
    }
  }
  return std::nullopt;
}
}  // namespace

std::vector<PortRoles> leaf_roles(const model::Fabric& fabric) {
  std::vector<PortRoles> leaves;
  for (const auto& sw : fabric.switches) {
    PortRoles roles;
    roles.sw = &sw;
    for (const auto& port : sw.ports) {
      if (port.peer_device.empty()) {
        continue;
      }
      if (is_switch_name(fabric, port.peer_device)) {
        roles.uplinks.push_back(&port);
      } else if (fabric.find_host(port.peer_device) != nullptr ||
                 nic_behind(fabric, sw, port) != nullptr) {
        roles.downlinks.push_back(&port);
      }
    }
    if (!roles.downlinks.empty()) {
      leaves.push_back(roles);
    }
  }
  return leaves;
}

std::optional<double> tx_utilisation(const model::SwitchPort& port) {
  return utilisation(port, metric::k_sw_tx_util_pct, metric::k_sw_tx_bps, true);
}

std::optional<double> rx_utilisation(const model::SwitchPort& port) {
  return utilisation(port, metric::k_sw_rx_util_pct, metric::k_sw_rx_bps, false);
}

}  // namespace netdoctor::probes
