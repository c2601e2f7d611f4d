#include "model/fabric.h"

#include <algorithm>
#include <utility>

#include "model/source_names.h"

namespace netdoctor::model {

const char* to_string(Availability availability) {
  switch (availability) {
    case Availability::Observed:
      return "observed";
    case Availability::Absent:
      return "absent";
    case Availability::Unreadable:
      return "unreadable";
    case Availability::Malformed:
      return "malformed";
  }
  return "unknown";
}

std::string Nic::nic_entity() const {
  return device.empty() ? netdev_entity() : model::nic_entity(host, device);
}

std::string Nic::qos_tool() const {
  if (!qos.tool.empty()) {
    return qos.tool;
  }
  return vendor == "mlx5" ? source::k_mlnx_qos : source::k_dcb;
}

std::string Host::clock_tool() const {
  if (clock.source == source::k_pmc || clock.source == source::k_ptp4l_log) {
    return "linuxptp";
  }
  if (clock.source == source::k_ntpq) {
    return "ntpd";
  }
  return "chrony";
}

std::string Nic::netdev_entity() const {
  return netdev.empty() ? nic_entity() : model::netdev_entity(host, netdev);
}

std::string Nic::port_entity() const {
  if (switch_name.empty() || switch_port.empty()) {
    return {};
  }
  return model::port_entity(switch_name, switch_port);
}

bool PfcWatchdog::watches(int queue) const {
  return std::find(queues.begin(), queues.end(), queue) != queues.end();
}

const SwitchPort* Switch::find_port(const std::string& port) const {
  auto it =
      std::find_if(ports.begin(), ports.end(), [&](const SwitchPort& p) { return p.name == port; });
  return it == ports.end() ? nullptr : &*it;
}

const Host* Fabric::find_host(const std::string& host_name) const {
  auto it = std::lower_bound(hosts.begin(), hosts.end(), host_name,
                             [](const Host& h, const std::string& n) { return h.name < n; });
  return (it != hosts.end() && it->name == host_name) ? &*it : nullptr;
}

Host* Fabric::find_host(const std::string& host_name) {
  return const_cast<Host*>(std::as_const(*this).find_host(host_name));
}

const Switch* Fabric::find_switch(const std::string& switch_name) const {
  auto it = std::lower_bound(switches.begin(), switches.end(), switch_name,
                             [](const Switch& s, const std::string& n) { return s.name < n; });
  return (it != switches.end() && it->name == switch_name) ? &*it : nullptr;
}

bool has_ethernet(const Fabric& fabric) {
  if (!fabric.switches.empty()) {
    return true;
  }
  return std::any_of(fabric.hosts.begin(), fabric.hosts.end(), [](const Host& host) {
    return std::any_of(host.nics.begin(), host.nics.end(),
                       [](const Nic& nic) { return nic.link_layer != "InfiniBand"; });
  });
}

bool has_infiniband(const Fabric& fabric) {
  if (!fabric.ib.empty()) {
    return true;
  }
  return std::any_of(fabric.hosts.begin(), fabric.hosts.end(), [](const Host& host) {
    return std::any_of(host.nics.begin(), host.nics.end(),
                       [](const Nic& nic) { return nic.link_layer == "InfiniBand"; });
  });
}

}  // namespace netdoctor::model
