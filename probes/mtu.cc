// mtu: one MTU per layer, and the two ends of each host-switch link agreeing.
//
// Reads each host netdev's MTU (sysfs net, ip address), each RDMA port's RoCE path MTU
// (ibv_devinfo active_mtu), each switch port's MTU (show interfaces status) and the cabling
// between them (LLDP from both ends). A healthy fleet runs one netdev MTU (typically 9000), one
// active_mtu (typically 4096) and one switch port MTU (typically 9100: a few bytes more than the
// hosts' for headers), so that no switch port is below the host behind it.
//
// A netdev or RoCE path MTU other than the fleet's, or a switch port below its host's MTU, makes
// large messages fragment or drop and latency climb (mtu-mismatch, on the NIC). A switch port
// below the other switch ports truncates or drops the jumbo frames that reach it (mtu-mismatch,
// on the port); one above them is harmless unless its host is above the fleet too, which the NIC
// side already reports.
#include <fmt/format.h>

#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

struct Survey {
  std::vector<int> host_mtus;  // netdev MTU per NIC that reports one
  std::vector<int> path_mtus;  // RoCE active_mtu per NIC that reports one
  std::vector<int> port_mtus;  // switch ports with an LLDP peer
  std::size_t nic_total = 0;
  int host_mode = 0;  // the fleet's value of each (0: none reported)
  int path_mode = 0;
  int port_mode = 0;
};

// What differs on one NIC, with the first difference's figures for the finding.
struct NicMismatch {
  std::vector<std::string> why;
  std::vector<std::string> entities;
  double value = 0.0;
  double normal = 0.0;
};

void against_fleet(const Survey& fleet, const model::Nic& nic, NicMismatch& out) {
  if (nic.mtu && *nic.mtu != fleet.host_mode) {
    out.why.push_back(
        fmt::format("netdev MTU {} where the fleet uses {}", *nic.mtu, fleet.host_mode));
    out.value = *nic.mtu;
    out.normal = fleet.host_mode;
  }
  if (nic.active_mtu && *nic.active_mtu != fleet.path_mode) {
    out.why.push_back(fmt::format("RoCE active_mtu {} where the fleet uses {}", *nic.active_mtu,
                                  fleet.path_mode));
    if (out.value == 0.0) {
      out.value = *nic.active_mtu;
      out.normal = fleet.path_mode;
    }
  }
}

// Only a switch port below the host's MTU truncates or drops its jumbo frames; the switch
// carrying a few bytes more is the design.
void against_switch_port(const model::Fabric& fabric, const model::Nic& nic, NicMismatch& out) {
  const model::SwitchPort* port = cabled_port(fabric, nic);
  if (port == nullptr || !port->mtu || !nic.mtu || *port->mtu >= *nic.mtu) {
    return;
  }
  out.why.push_back(fmt::format("its switch port {}/{} has MTU {} below the host's {}",
                                nic.switch_name, nic.switch_port, *port->mtu, *nic.mtu));
  append_unique(out.entities, nic.port_entity());
  if (out.value == 0.0) {
    out.value = *port->mtu;
    out.normal = *nic.mtu;
  }
}

void judge_nics(const Survey& fleet, Judgement& judgement) {
  for (const auto& host : judgement.fabric().hosts) {
    for (const auto& nic : host.nics) {
      NicMismatch mismatch;
      append_unique(mismatch.entities, nic.netdev_entity());
      append_unique(mismatch.entities, nic.nic_entity());
      against_fleet(fleet, nic, mismatch);
      against_switch_port(judgement.fabric(), nic, mismatch);
      if (mismatch.why.empty()) {
        continue;
      }
      append_unique(mismatch.entities, nic.port_entity());
      std::string text = nic_label(nic) + ": ";
      for (std::size_t i = 0; i < mismatch.why.size(); ++i) {
        text += (i == 0 ? "" : "; ") + mismatch.why[i];
      }
      judgement.find("mtu-mismatch", mismatch.entities, judgement.limit("host_mismatch_strength"),
                     text, mismatch.value, mismatch.normal, "bytes");
    }
  }
}

// A switch port below the other switch ports; one above them is harmless unless its host is
// above the fleet too, which judge_nics reports.
void judge_switch_ports(const Survey& fleet, Judgement& judgement) {
  for (const auto& sw : judgement.fabric().switches) {
    for (const auto& port : sw.ports) {
      if (!port.mtu || port.peer_device.empty() || *port.mtu >= fleet.port_mode) {
        continue;
      }
      std::vector<std::string> entities{port_entity(sw.name, port.name)};
      if (const model::Nic* nic = nic_behind(judgement.fabric(), sw, port)) {
        append_unique(entities, nic->netdev_entity());
      }
      judgement.find("mtu-mismatch", entities, judgement.limit("port_mismatch_strength"),
                     fmt::format("{}/{} has MTU {} where the other switch ports use {}", sw.name,
                                 port.name, *port.mtu, fleet.port_mode),
                     *port.mtu, fleet.port_mode, "bytes");
    }
  }
}

class MtuProbe final : public FleetProbe<Survey> {
 public:
  MtuProbe()
      : FleetProbe(
            {.id = "mtu",
             .description = "MTU consistency: hosts, RoCE path, switch ports, both link ends",
             .cost = CostClass::Config,
             .reads = {source::k_sysfs_net, source::k_ip_address, source::k_ibv_devinfo,
                       source::k_show_interfaces_status, source::k_lldpcli,
                       source::k_show_lldp_table},
             .findings = {"mtu-mismatch"},
             .clearing = "mtu-consistent",
             .thresholds = {"host_mismatch_strength", "port_mismatch_strength",
                            "consistent_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.nic_total;
        if (nic.mtu) {
          fleet.host_mtus.push_back(*nic.mtu);
        }
        if (nic.active_mtu) {
          fleet.path_mtus.push_back(*nic.active_mtu);
        }
      }
    }
    for (const auto& sw : judgement.fabric().switches) {
      for (const auto& port : sw.ports) {
        if (port.mtu && !port.peer_device.empty()) {
          fleet.port_mtus.push_back(*port.mtu);
        }
      }
    }
    fleet.host_mode = int_mode_of(fleet.host_mtus).value_or(0);
    fleet.path_mode = int_mode_of(fleet.path_mtus).value_or(0);
    fleet.port_mode = int_mode_of(fleet.port_mtus).value_or(0);
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    // RoCE path and switch port MTUs supplement the netdevs': only those reported are judged.
    const std::size_t paths = fleet.path_mtus.size();
    const std::size_t ports = fleet.port_mtus.size();
    return {{"NICs", "netdev MTU (sysfs net, ip address)", fleet.host_mtus.size(), fleet.nic_total},
            {"RDMA ports", "ibv_devinfo active_mtu", paths, paths, false},
            {"switch ports", "show interfaces status MTU", ports, ports, false}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    judge_nics(fleet, judgement);
    judge_switch_ports(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    healthy.summary = fmt::format(
        "MTU consistent: {} netdevs at {}, {} RoCE ports at active_mtu {}, {} switch ports at {}",
        fleet.host_mtus.size(), fleet.host_mode, fleet.path_mtus.size(), fleet.path_mode,
        fleet.port_mtus.size(), fleet.port_mode);
    healthy.strength = judgement.limit("consistent_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_mtu_probe() {
  return std::make_unique<MtuProbe>();
}

}  // namespace netdoctor::probes
