// link-speed: links trained below their rated speed or width, below their peers of the same
// model, or down.
#include <fmt/format.h>

#include <map>

#include "probes/builtin.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// Rates are compared with 1 % slack: sysfs/ibv report e.g. 400 vs 425 Gb/s encodings rounded.
constexpr double k_speed_slack = 0.99;
// Standard RoCE/IB NIC ports run 4 lanes; fewer means a lane failed to train.
constexpr int k_full_width = 4;

std::string nic_model(const model::Nic& nic) {
  return nic.vendor + "/" + (nic.part_id.empty() ? nic.board_id : nic.part_id);
}

bool is_down(const std::string& state) {
  return state == "down" || state == "DOWN" || state == "Down";
}

class LinkSpeedProbe final : public BasicProbe {
 public:
  LinkSpeedProbe()
      : BasicProbe("link-speed", "Links trained below rated speed/width or peers, or down",
                   CostClass::Config,
                   {"ethtool", "sysfs net", "ibv_devinfo", "show interfaces status"},
                   {"link-degraded", "link-down", "link-speed-ok"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    std::map<std::string, std::vector<double>> speeds_by_model;
    std::size_t nic_total = 0;
    std::size_t nic_with = 0;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        ++nic_total;
        if (nic.speed_gbps) {
          ++nic_with;
          speeds_by_model[nic_model(nic)].push_back(*nic.speed_gbps);
        }
      }
    }
    std::size_t port_total = 0;
    std::size_t port_with = 0;
    std::map<std::string, std::vector<double>> port_speeds_by_role;
    auto role = [&](const model::SwitchPort& port) {
      return is_switch_name(fabric, port.peer_device) ? std::string("switch-facing")
                                                      : std::string("host-facing");
    };
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        ++port_total;
        if (port.speed_gbps && !port.peer_device.empty()) {
          ++port_with;
          port_speeds_by_role[role(port)].push_back(*port.speed_gbps);
        }
      }
    }
    if (nic_with == 0 && port_with == 0) {
      result.status = ProbeStatus::Skipped;
      result.reason =
          "no data for ethtool, sysfs net, ibv_devinfo or show interfaces status "
          "(link speeds)";
      return;
    }
    if (nic_with < nic_total) {
      add_note(result,
               fmt::format("partial coverage: {} of {} NICs report a speed", nic_with, nic_total));
    }
    bool found = false;
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        std::vector<std::string> entities = nic_entities(nic);
        if (is_down(nic.operstate) || is_down(nic.state)) {
          found = true;
          result.findings.push_back(
              make_finding("link-down", entities, 0.9,
                           fmt::format("{} is down (netdev {}, RDMA port {})", nic_label(nic),
                                       nic.operstate.empty() ? "?" : nic.operstate,
                                       nic.state.empty() ? "?" : nic.state)));
          continue;
        }
        if (!nic.speed_gbps) {
          continue;
        }
        double speed = *nic.speed_gbps;
        double peers = double_mode_of(speeds_by_model[nic_model(nic)]).value_or(speed);
        std::string why;
        double expected = 0.0;
        if (nic.rated_gbps && speed < *nic.rated_gbps * k_speed_slack) {
          expected = *nic.rated_gbps;
          why = fmt::format("rated {} Gb/s", human(expected));
        }
        if (speed < peers * k_speed_slack) {
          expected = std::max(expected, peers);
          why += fmt::format("{}its {} peers of model {} run {} Gb/s", why.empty() ? "" : "; ",
                             speeds_by_model[nic_model(nic)].size(), nic_model(nic), human(peers));
        }
        if (nic.active_width && *nic.active_width < k_full_width) {
          why += fmt::format("{}{} of {} lanes active", why.empty() ? "" : "; ", *nic.active_width,
                             k_full_width);
          expected = std::max(expected, speed * k_full_width / *nic.active_width);
        }
        if (why.empty()) {
          continue;
        }
        found = true;
        if (!nic.port_entity().empty()) {
          entities.push_back(link_entity(nic.netdev_entity(), nic.port_entity()));
        }
        result.findings.push_back(
            make_finding("link-degraded", entities, saturating(expected / speed - 1.0, 0.25),
                         fmt::format("{} runs at {} Gb/s ({})", nic_label(nic), human(speed), why),
                         speed, expected, "Gb/s"));
      }
    }
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        std::string here = port_entity(sw.name, port.name);
        if (is_down(port.oper) && port.admin != "down" && !port.peer_device.empty()) {
          found = true;
          result.findings.push_back(make_finding(
              "link-down", {here, sw.entity()}, 0.8,
              fmt::format("{}/{} is oper down (admin {}) though LLDP knew peer {}", sw.name,
                          port.name, port.admin.empty() ? "?" : port.admin, port.peer_device)));
          continue;
        }
        if (!port.speed_gbps || port.peer_device.empty()) {
          continue;
        }
        auto& peers = port_speeds_by_role[role(port)];
        double usual = double_mode_of(peers).value_or(*port.speed_gbps);
        if (*port.speed_gbps >= usual * k_speed_slack) {
          continue;
        }
        found = true;
        std::vector<std::string> entities{here};
        if (const model::Nic* nic = nic_behind(fabric, sw, port)) {
          for (const auto& e : nic_entities(*nic, false)) {
            append_unique(entities, e);
          }
        }
        result.findings.push_back(make_finding(
            "link-degraded", entities, saturating(usual / *port.speed_gbps - 1.0, 0.25),
            fmt::format("{}/{} runs at {} Gb/s while {} {} ports run {} Gb/s", sw.name, port.name,
                        human(*port.speed_gbps), peers.size(), role(port), human(usual)),
            *port.speed_gbps, usual, "Gb/s"));
      }
    }
    if (!found) {
      std::string text =
          fmt::format("{} NICs and {} switch ports at their rated/peer speed", nic_with, port_with);
      result.checked.push_back(text);
      result.findings.push_back(make_finding("link-speed-ok", {}, 0.8, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_link_speed_probe() {
  return std::make_unique<LinkSpeedProbe>();
}

}  // namespace netdoctor::probes
