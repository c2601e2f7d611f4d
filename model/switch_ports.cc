#include "model/switch_ports.h"

#include "model/source_names.h"
#include "parsers/sonic_interfaces_status.h"
#include "parsers/sonic_lldp_table.h"

namespace netdoctor::model {

PortIndex::PortIndex(Switch& sw) : m_switch(sw) {
  for (std::size_t i = 0; i < sw.ports.size(); ++i) {
    m_index.emplace(sw.ports[i].name, i);
  }
}

std::size_t PortIndex::position(const std::string& name) {
  auto [it, inserted] = m_index.try_emplace(name, m_switch.ports.size());
  if (inserted) {
    SwitchPort port;
    port.name = name;
    m_switch.ports.push_back(std::move(port));
  }
  return it->second;
}

void read_switch_ports(SourceLog& log, const SampleSource& sample, PortIndex& ports, Switch& sw) {
  if (auto status = parse_command<parsers::SonicInterfacesStatus>(
          log, sample, {"show", "interfaces", "status"}, source::k_show_interfaces_status,
          sw.sources, parsers::parse_sonic_interfaces_status)) {
    for (const auto& row : status->interfaces) {
      auto& port = ports.get(row.interface);
      port.alias = row.alias;
      if (row.speed_mbps) {
        port.speed_gbps = static_cast<double>(*row.speed_mbps) / 1000.0;
      }
      if (row.mtu) {
        port.mtu = static_cast<int>(*row.mtu);
      }
      port.oper = link_state_named(row.oper);
      port.admin = link_state_named(row.admin);
    }
  }
  if (auto lldp = parse_command<parsers::SonicLldpTable>(log, sample, {"show", "lldp", "table"},
                                                         source::k_show_lldp_table, sw.sources,
                                                         parsers::parse_sonic_lldp_table)) {
    for (const auto& entry : lldp->entries) {
      auto& port = ports.get(entry.local_port);
      port.peer_device = entry.remote_device;
      port.peer_port =
          entry.remote_port_id.empty() ? entry.remote_port_descr : entry.remote_port_id;
    }
  }
}

}  // namespace netdoctor::model
