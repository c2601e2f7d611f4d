// mtu: host netdev MTU and RoCE path MTU against the fleet, switch port MTU against the other
// switch ports, and the two ends of each host-switch link.
#include <fmt/format.h>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

class MtuProbe final : public BasicProbe {
 public:
  MtuProbe()
      : BasicProbe("mtu", "MTU consistency: hosts, RoCE path, switch ports, both link ends",
                   CostClass::Config,
                   {"sysfs net", "ip address", "ibv_devinfo", "show interfaces status", "lldpcli",
                    "show lldp table"},
                   {"mtu-mismatch", "mtu-consistent"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    std::vector<int> host_mtus;
    std::vector<int> path_mtus;
    std::vector<int> port_mtus;
    std::size_t nic_total = 0;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++nic_total;
        if (nic.mtu) {
          host_mtus.push_back(*nic.mtu);
        }
        if (nic.active_mtu) {
          path_mtus.push_back(*nic.active_mtu);
        }
      }
    }
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        if (port.mtu && !port.peer_device.empty()) {
          port_mtus.push_back(*port.mtu);
        }
      }
    }
    if (host_mtus.empty() && path_mtus.empty() && port_mtus.empty()) {
      result.status = ProbeStatus::Skipped;
      result.reason =
          "no data for sysfs net, ip address, ibv_devinfo or show interfaces status "
          "(MTU)";
      return;
    }
    if (host_mtus.size() < nic_total) {
      add_note(result, fmt::format("partial coverage: {} of {} NICs report a netdev MTU",
                                   host_mtus.size(), nic_total));
    }
    const int host_mode = int_mode_of(host_mtus).value_or(0);
    const int path_mode = int_mode_of(path_mtus).value_or(0);
    const int port_mode = int_mode_of(port_mtus).value_or(0);
    bool found = false;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        std::vector<std::string> entities;
        append_unique(entities, nic.netdev_entity());
        append_unique(entities, nic.nic_entity());
        std::vector<std::string> why;
        double value = 0.0;
        double normal = 0.0;
        if (nic.mtu && *nic.mtu != host_mode) {
          why.push_back(fmt::format("netdev MTU {} where the fleet uses {}", *nic.mtu, host_mode));
          value = *nic.mtu;
          normal = host_mode;
        }
        if (nic.active_mtu && *nic.active_mtu != path_mode) {
          why.push_back(fmt::format("RoCE active_mtu {} where the fleet uses {}", *nic.active_mtu,
                                    path_mode));
          if (value == 0.0) {
            value = *nic.active_mtu;
            normal = path_mode;
          }
        }
        const model::SwitchPort* port = cabled_port(fabric, nic);
        // The switch carries a few bytes more (9100 vs 9000) for headers; only a switch port
        // below the host's MTU truncates or drops its jumbo frames.
        if (port != nullptr && port->mtu && nic.mtu && *port->mtu < *nic.mtu) {
          why.push_back(fmt::format("its switch port {}/{} has MTU {} below the host's {}",
                                    nic.switch_name, nic.switch_port, *port->mtu, *nic.mtu));
          append_unique(entities, nic.port_entity());
          if (value == 0.0) {
            value = *port->mtu;
            normal = *nic.mtu;
          }
        }
        if (why.empty()) {
          continue;
        }
        found = true;
        append_unique(entities, nic.port_entity());
        std::string text = nic_label(nic) + ": ";
        for (std::size_t i = 0; i < why.size(); ++i) {
          text += (i == 0 ? "" : "; ") + why[i];
        }
        result.findings.push_back(
            make_finding("mtu-mismatch", entities, 0.9, text, value, normal, "bytes"));
      }
    }
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        if (!port.mtu || port.peer_device.empty() || *port.mtu == port_mode) {
          continue;
        }
        // A port above the fleet is harmless unless its host is also above (caught above).
        if (*port.mtu > port_mode) {
          continue;
        }
        found = true;
        std::vector<std::string> entities{port_entity(sw.name, port.name)};
        if (const model::Nic* nic = nic_behind(fabric, sw, port)) {
          append_unique(entities, nic->netdev_entity());
        }
        result.findings.push_back(
            make_finding("mtu-mismatch", entities, 0.8,
                         fmt::format("{}/{} has MTU {} where the other switch ports use {}",
                                     sw.name, port.name, *port.mtu, port_mode),
                         *port.mtu, port_mode, "bytes"));
      }
    }
    if (!found) {
      std::string text = fmt::format(
          "MTU consistent: {} netdevs at {}, {} RoCE ports at active_mtu {}, {} switch ports at "
          "{}",
          host_mtus.size(), host_mode, path_mtus.size(), path_mode, port_mtus.size(), port_mode);
      result.checked.push_back(text);
      result.findings.push_back(make_finding("mtu-consistent", {}, 0.9, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_mtu_probe() {
  return std::make_unique<MtuProbe>();
}

}  // namespace netdoctor::probes
