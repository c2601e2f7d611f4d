// link-speed: links trained below their rated speed or width, below their peers, or down.
//
// Reads each NIC's negotiated speed, rated speed, active lane count and state (ethtool, sysfs
// net, ibv_devinfo) and each switch port's speed and oper state (show interfaces status). In a
// healthy fleet every NIC of one model runs the same speed with all four lanes trained, equal to
// its rated speed, and every switch port runs the speed of the other ports of its role
// (host-facing or switch-facing); every port that LLDP knows a peer of is up.
//
// A link below its rated speed, below the rest of its model or role, or with lanes missing
// carries a fraction of its share, and the collective waits for it (link-degraded): the further
// below, the clearer. A NIC, or a switch port cabled to a peer and not shut by its admin, that
// is down carries nothing at all (link-down).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

// Hardware fact: RoCE and InfiniBand NIC ports are 4X, four lanes; fewer means a lane failed
// to train.
constexpr int k_full_width = 4;

std::string nic_model(const model::Nic& nic) {
  return nic.vendor + "/" + (nic.part_id.empty() ? nic.board_id : nic.part_id);
}

// A state's word for a summary; "?" when no source gave one.
template <typename State>
std::string word(State state) {
  const std::string text = model::to_string(state);
  return text.empty() ? "?" : text;
}

std::string port_role(const model::Fabric& fabric, const model::SwitchPort& port) {
  return is_switch_name(fabric, port.peer_device) ? std::string("switch-facing")
                                                  : std::string("host-facing");
}

struct Survey {
  std::map<std::string, std::vector<double>> nic_speeds;   // Gb/s by NIC model
  std::map<std::string, std::vector<double>> port_speeds;  // Gb/s by port role
  // The usual speed of each, worked out once: per NIC or port it would cost the fleet's size.
  std::map<std::string, double> nic_mode;
  std::map<std::string, double> port_mode;
  std::size_t nic_total = 0;
  std::size_t nic_with = 0;   // NICs reporting a speed
  std::size_t port_with = 0;  // switch ports with a speed and an LLDP peer
};

// Why a NIC counts as degraded ("" when it does not), and the speed it should run.
struct Shortfall {
  std::string why;
  double expected = 0.0;
};

Shortfall nic_shortfall(const Survey& fleet, const model::Nic& nic, const Judgement& judgement) {
  const double min_share = judgement.limit("min_speed_share");
  const std::string model_name = nic_model(nic);
  const std::vector<double>& speeds = fleet.nic_speeds.at(model_name);
  const double speed = *nic.speed_gbps;
  const double peers = fleet.nic_mode.at(model_name);
  Shortfall out;
  if (nic.rated_gbps && speed < *nic.rated_gbps * min_share) {
    out.expected = *nic.rated_gbps;
    out.why = fmt::format("rated {} Gb/s", human(out.expected));
  }
  if (speed < peers * min_share) {
    out.expected = std::max(out.expected, peers);
    out.why += fmt::format("{}its {} peers of model {} run {} Gb/s", out.why.empty() ? "" : "; ",
                           speeds.size(), model_name, human(peers));
  }
  if (nic.active_width && *nic.active_width < k_full_width) {
    out.why += fmt::format("{}{} of {} lanes active", out.why.empty() ? "" : "; ",
                           *nic.active_width, k_full_width);
    out.expected = std::max(out.expected, speed * k_full_width / *nic.active_width);
  }
  return out;
}

void judge_nic(const Survey& fleet, const model::Nic& nic, Judgement& judgement) {
  std::vector<std::string> entities = nic_entities(nic);
  if (model::is_down(nic.operstate) || nic.state == model::RdmaPortState::Down) {
    judgement.find("link-down", entities, judgement.limit("nic_down_strength"),
                   fmt::format("{} is down (netdev {}, RDMA port {})", nic_label(nic),
                               word(nic.operstate), word(nic.state)));
    return;
  }
  if (!nic.speed_gbps) {
    return;
  }
  const Shortfall shortfall = nic_shortfall(fleet, nic, judgement);
  if (shortfall.why.empty()) {
    return;
  }
  if (!nic.port_entity().empty()) {
    entities.push_back(link_entity(nic.netdev_entity(), nic.port_entity()));
  }
  const double speed = *nic.speed_gbps;
  judgement.find(
      "link-degraded", entities,
      saturating(shortfall.expected / speed - 1.0, judgement.limit("shortfall_half_strength")),
      fmt::format("{} runs at {} Gb/s ({})", nic_label(nic), human(speed), shortfall.why), speed,
      shortfall.expected, "Gb/s");
}

void judge_port(const Survey& fleet, const model::Switch& sw, const model::SwitchPort& port,
                Judgement& judgement) {
  const std::string here = port_entity(sw.name, port.name);
  if (model::is_down(port.oper) && !model::is_down(port.admin) && !port.peer_device.empty()) {
    judgement.find("link-down", {here, sw.entity()}, judgement.limit("port_down_strength"),
                   fmt::format("{}/{} is oper down (admin {}) though LLDP knew peer {}", sw.name,
                               port.name, word(port.admin), port.peer_device));
    return;
  }
  if (!port.speed_gbps || port.peer_device.empty()) {
    return;
  }
  const std::string role = port_role(judgement.fabric(), port);
  const std::vector<double>& peers = fleet.port_speeds.at(role);
  const double usual = fleet.port_mode.at(role);
  if (*port.speed_gbps >= usual * judgement.limit("min_speed_share")) {
    return;
  }
  std::vector<std::string> entities{here};
  if (const model::Nic* nic = nic_behind(judgement.fabric(), sw, port)) {
    for (const auto& e : nic_entities(*nic, false)) {
      append_unique(entities, e);
    }
  }
  judgement.find(
      "link-degraded", entities,
      saturating(usual / *port.speed_gbps - 1.0, judgement.limit("shortfall_half_strength")),
      fmt::format("{}/{} runs at {} Gb/s while {} {} ports run {} Gb/s", sw.name, port.name,
                  human(*port.speed_gbps), peers.size(), role, human(usual)),
      *port.speed_gbps, usual, "Gb/s");
}

class LinkSpeedProbe final : public FleetProbe<Survey> {
 public:
  LinkSpeedProbe()
      : FleetProbe(
            {.id = "link-speed",
             .description = "Links trained below rated speed/width or peers, or down",
             .cost = CostClass::Config,
             .reads = {source::k_ethtool_link, source::k_sysfs_net, source::k_ibv_devinfo,
                       source::k_show_interfaces_status, source::k_sysfs_port,
                       source::k_show_lldp_table,
                       // whether an InfiniBand subnet has switch ports this probe cannot see
                       source::k_ibnetdiscover, source::k_iblinkinfo, source::k_ibnodes,
                       source::k_ibdiagnet},
             .findings = {"link-degraded", "link-down"},
             .clearing = "link-speed-ok",
             .thresholds = {"min_speed_share", "shortfall_half_strength", "nic_down_strength",
                            "port_down_strength", "ok_strength", "ib_subnet_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    Survey fleet;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.nic_total;
        if (nic.speed_gbps) {
          ++fleet.nic_with;
          fleet.nic_speeds[nic_model(nic)].push_back(*nic.speed_gbps);
        }
      }
    }
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        if (port.speed_gbps && !port.peer_device.empty()) {
          ++fleet.port_with;
          fleet.port_speeds[port_role(fabric, port)].push_back(*port.speed_gbps);
        }
      }
    }
    for (const auto& [model_name, speeds] : fleet.nic_speeds) {
      fleet.nic_mode[model_name] = double_mode_of(speeds).value_or(0.0);
    }
    for (const auto& [role, speeds] : fleet.port_speeds) {
      fleet.port_mode[role] = double_mode_of(speeds).value_or(0.0);
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    // Switch port speeds supplement the NICs' view: only ports that report one are judged.
    return {
        {"NICs", "link speeds (ethtool, sysfs net, ibv_devinfo)", fleet.nic_with, fleet.nic_total},
        {"switch ports", "show interfaces status speeds", fleet.port_with, fleet.port_with, false}};
  }

  // Every NIC, then every switch port: each is down, degraded, or fine.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        judge_nic(fleet, nic, judgement);
      }
    }
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        judge_port(fleet, sw, port, judgement);
      }
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    healthy.summary = fmt::format("{} NICs and {} switch ports at their rated/peer speed",
                                  fleet.nic_with, fleet.port_with);
    healthy.strength = judgement.limit("ok_strength");
    if (has_ib_switches(judgement.fabric())) {
      // Only the HCAs' ends of an InfiniBand subnet were seen: its switch-to-switch links are
      // ib-link-state's to clear.
      healthy.strength = std::min(healthy.strength, judgement.limit("ib_subnet_strength"));
      healthy.summary += "; the InfiniBand subnet's switch ports not seen here";
    }
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_link_speed_probe() {
  return std::make_unique<LinkSpeedProbe>();
}

}  // namespace netdoctor::probes
