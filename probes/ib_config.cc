// ib-config: one IB MTU on every HCA port, one firmware per switch model.
//
// Reads each HCA port's IB MTU (ibdiagnet's PORTS table, else the host's own active_mtu from
// ibv_devinfo) and each switch's model and firmware (ibdiagnet, the node description). A
// healthy subnet runs one MTU on every HCA (4096 on HDR and NDR fabrics) and one firmware on
// every switch of one model. (HCA firmware is the firmware probe's, from the hosts.)
//
// An HCA whose MTU differs from the rest segments or refuses the large messages its peers send
// (ib-mtu-mismatch, naming the odd HCA). A switch whose firmware differs from the other
// switches of its model behaves differently (adaptive routing, congestion control, bugs fixed
// or not) where traffic crosses it (ib-switch-firmware-mismatch, naming the odd switch). A
// model with too few switches has no majority to differ from.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "probes/fleet_probe.h"
#include "probes/ib_links.h"

namespace netdoctor::probes {
namespace {

struct HcaMtu {
  IbEnd end;
  int mtu = 0;
  std::string view;  // "ibdiagnet" or "ibv_devinfo"
};

struct Survey {
  std::vector<HcaMtu> mtus;
  std::size_t hca_ports = 0;
  int usual_mtu = 0;
  std::map<std::string, std::vector<const model::IbNode*>> switches;  // by model, with firmware
  std::size_t switch_total = 0;
};

// The IB MTU of an HCA port: the subnet's view, else its host's.
std::optional<HcaMtu> mtu_of(const model::Fabric& fabric, const IbEnd& end) {
  if (end.port->mtu) {
    return HcaMtu{end, *end.port->mtu, "subnet view"};
  }
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      if (host.name == end.node->host && nic.device == end.node->device &&
          nic.port == static_cast<int>(end.port->number) && nic.active_mtu) {
        return HcaMtu{end, *nic.active_mtu, "ibv_devinfo active_mtu"};
      }
    }
  }
  return std::nullopt;
}

void judge_mtus(const Survey& fleet, Judgement& judgement) {
  for (const HcaMtu& hca : fleet.mtus) {
    if (hca.mtu == fleet.usual_mtu) {
      continue;
    }
    std::vector<std::string> entities{hca.end.entity()};
    const IbEnd peer = ib_peer_end(judgement.fabric().ib, hca.end);
    if (peer.known()) {
      entities.push_back(peer.entity());
    }
    judgement.find("ib-mtu-mismatch", entities, judgement.limit("mtu_mismatch_strength"),
                   fmt::format("{} runs IB MTU {} ({}) where the other HCA ports use {}",
                               hca.end.label(), hca.mtu, hca.view, fleet.usual_mtu),
                   hca.mtu, fleet.usual_mtu, "bytes");
  }
}

void judge_firmware(const Survey& fleet, Judgement& judgement) {
  for (const auto& [model_name, nodes] : fleet.switches) {
    if (nodes.size() < judgement.limit_count("min_model_switches")) {
      continue;
    }
    std::vector<std::string> versions;
    for (const model::IbNode* node : nodes) {
      versions.push_back(node->firmware);
    }
    const Mode majority = mode_of(versions);
    for (const model::IbNode* node : nodes) {
      if (node->firmware == majority.value) {
        continue;
      }
      const auto same = std::count(versions.begin(), versions.end(), node->firmware);
      judgement.find(
          "ib-switch-firmware-mismatch", {node->entity()},
          judgement.limit("firmware_mismatch_strength"),
          fmt::format("{} runs firmware {} where {} of {} {} switches run {}", node->name,
                      node->firmware, majority.count, nodes.size(), model_name, majority.value),
          static_cast<double>(same), static_cast<double>(majority.count),
          "switches on that version");
    }
  }
}

class IbConfigProbe final : public FleetProbe<Survey> {
 public:
  IbConfigProbe()
      : FleetProbe({.id = "ib-config",
                    .description = "InfiniBand HCA MTU and switch firmware consistency",
                    .cost = CostClass::Config,
                    .reads = {source::k_ibdiagnet, source::k_ibnetdiscover, source::k_ibv_devinfo},
                    .findings = {"ib-mtu-mismatch", "ib-switch-firmware-mismatch"},
                    .clearing = "ib-config-consistent",
                    .thresholds = {"mtu_mismatch_strength", "min_model_switches",
                                   "firmware_mismatch_strength", "consistent_strength"},
                    .fabric = FabricScope::InfiniBand}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    Survey fleet;
    std::vector<int> values;
    for (const IbEnd& end : ib_ports(fabric.ib)) {
      if (!end.is_ca() || (!end.port->cabled() && !end.port->is_up())) {
        continue;
      }
      ++fleet.hca_ports;
      if (auto mtu = mtu_of(fabric, end)) {
        values.push_back(mtu->mtu);
        fleet.mtus.push_back(std::move(*mtu));
      }
    }
    fleet.usual_mtu = int_mode_of(values).value_or(0);
    for (const auto& node : fabric.ib.nodes) {
      if (node.kind == model::IbNodeKind::Ca) {
        continue;
      }
      ++fleet.switch_total;
      if (!node.firmware.empty()) {
        fleet.switches[node.model.empty() ? node.device_id : node.model].push_back(&node);
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    std::size_t with_firmware = 0;
    for (const auto& [model_name, nodes] : fleet.switches) {
      with_firmware += nodes.size();
    }
    // Switch firmware comes only from ibdiagnet: it supplements the HCAs' MTU.
    return {{"HCA ports", "IB MTU (ibdiagnet, ibv_devinfo)", fleet.mtus.size(), fleet.hca_ports},
            {"switches", "firmware (ibdiagnet)", with_firmware, fleet.switch_total, false}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    judge_mtus(fleet, judgement);
    judge_firmware(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    std::size_t switches = 0;
    for (const auto& [model_name, nodes] : fleet.switches) {
      switches += nodes.size();
    }
    Clearance healthy;
    healthy.summary = fmt::format(
        "{} HCA ports at IB MTU {}; {} switches in {} models each on their model's firmware",
        fleet.mtus.size(), fleet.usual_mtu, switches, fleet.switches.size());
    healthy.strength = judgement.limit("consistent_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_ib_config_probe() {
  return std::make_unique<IbConfigProbe>();
}

}  // namespace netdoctor::probes
