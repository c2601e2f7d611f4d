// oversubscription: per leaf, downlink capacity (ports to hosts) against uplink capacity
// (ports to switches), and whether the uplinks are saturated.
#include <fmt/format.h>

#include "probes/builtin.h"
#include "probes/probe_support.h"
#include "probes/switch_topology.h"

namespace netdoctor::probes {
namespace {

// Training fabrics are built 1:1; 5 % slack absorbs a port or two of mismatch in speed
// reporting without calling a non-blocking design oversubscribed.
constexpr double k_max_balanced_ratio = 1.05;
// Uplinks averaging 80 % of line rate or more are saturated: queues build and PFC starts.
constexpr double k_saturated_utilisation = 0.8;
// Without utilisation figures the ratio alone is a design observation, weighed lower.
constexpr double k_ratio_only_weight = 0.5;

class OversubscriptionProbe final : public BasicProbe {
 public:
  OversubscriptionProbe()
      : BasicProbe("oversubscription", "Per leaf: downlink vs uplink capacity and uplink load",
                   CostClass::Config,
                   {"show interfaces status", "show lldp table", "show interfaces counters"},
                   {"oversubscribed-leaf", "capacity-balanced"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    std::vector<PortRoles> leaves = leaf_roles(context.fabric);
    std::size_t judged = 0;
    bool found = false;
    for (const auto& leaf : leaves) {
      double down = 0.0;
      double up = 0.0;
      std::size_t up_active = 0;
      for (const model::SwitchPort* port : leaf.downlinks) {
        if (port->speed_gbps && port->oper != "down") {
          down += *port->speed_gbps;
        }
      }
      double util_sum = 0.0;
      std::size_t util_count = 0;
      for (const model::SwitchPort* port : leaf.uplinks) {
        if (port->speed_gbps && port->oper != "down") {
          up += *port->speed_gbps;
          ++up_active;
        }
        if (auto util = tx_utilisation(*port)) {
          util_sum += *util;
          ++util_count;
        }
      }
      if (down <= 0.0 || up <= 0.0) {
        continue;
      }
      ++judged;
      double ratio = down / up;
      std::string capacity = fmt::format(
          "{}: {} Gb/s down ({} ports) vs {} Gb/s up ({} ports) "
          "= {:.2g}:1",
          leaf.sw->name, human(down), leaf.downlinks.size(), human(up), up_active, ratio);
      if (ratio <= k_max_balanced_ratio) {
        result.checked.push_back(capacity);
        continue;
      }
      std::optional<double> mean_util;
      if (util_count > 0) {
        mean_util = util_sum / static_cast<double>(util_count);
      }
      if (mean_util && *mean_util < k_saturated_utilisation) {
        result.checked.push_back(
            capacity + fmt::format(", uplinks at {} (not saturated)", percent(*mean_util)));
        continue;
      }
      found = true;
      double strength = saturating(ratio - 1.0, 1.0);
      if (!mean_util) {
        strength *= k_ratio_only_weight;
      }
      std::vector<std::string> entities{leaf.sw->entity()};
      for (const model::SwitchPort* port : leaf.uplinks) {
        entities.push_back(port_entity(leaf.sw->name, port->name));
      }
      result.findings.push_back(make_finding(
          "oversubscribed-leaf", entities, strength,
          capacity + (mean_util ? fmt::format(", uplinks at {} of line rate", percent(*mean_util))
                                : std::string(", uplink load unknown")),
          ratio, 1.0, "down:up"));
    }
    if (judged == 0) {
      result.status = ProbeStatus::Skipped;
      result.reason =
          "no data for show interfaces status / show lldp table (no leaf with known "
          "downlink and uplink speeds)";
      return;
    }
    if (judged < leaves.size()) {
      add_note(result,
               fmt::format("{} of {} leaves had port speeds on both sides", judged, leaves.size()));
    }
    if (!found) {
      std::string text = "leaf capacity balanced: ";
      for (std::size_t i = 0; i < result.checked.size(); ++i) {
        text += (i == 0 ? "" : "; ") + result.checked[i];
      }
      result.findings.push_back(make_finding("capacity-balanced", {}, 0.8, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_oversubscription_probe() {
  return std::make_unique<OversubscriptionProbe>();
}

}  // namespace netdoctor::probes
