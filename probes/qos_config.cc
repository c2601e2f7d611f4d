// qos-config: PFC on the RoCE priority, and the trust mode the fleet uses, on every NIC.
//
// Reads each NIC's PFC configuration and priority trust state from its config tool: mlnx_qos
// on NVIDIA NICs, iproute2's dcb (`dcb pfc show`, `dcb apptrust show`) on any driver. A healthy
// RoCE fleet has PFC enabled on the RoCE priority (and only there) and trusts one field
// everywhere, DSCP on RoCE v2 fabrics.
//
// A NIC with PFC off on the RoCE priority runs RoCE lossy: drops become go-back-N retransmits
// (pfc-disabled-on-roce-priority, naming the host when all of its NICs are so). A NIC trusting
// another field than the fleet (PCP against DSCP) classifies its RoCE traffic into the wrong
// priority (trust-mismatch), judged only where enough NICs report a trust mode to have a
// majority.
//
// Where no config tool was captured, the NIC's own pause counters (ethtool -S) still prove
// something, and the finding says it was inferred: pause frames sent or received on a priority
// mean PFC is on there. A NIC that pauses on other priorities but never on the RoCE priority,
// while the rest of the fleet pauses on it, has PFC configured away from RoCE
// (pfc-off-roce-priority-inferred).
#include <fmt/format.h>

#include <map>
#include <set>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// Hardware fact: IEEE 802.1p has eight priorities, the slots of the PFC table.
constexpr int k_priorities = 8;

// The priorities a NIC's pause counters show PFC active on: frames sent or received since the
// counters last reset.
std::set<int> paused_priorities(const model::Nic& nic) {
  std::set<int> out;
  for (int p = 0; p < k_priorities; ++p) {
    for (const char* name : {metric::k_pfc_tx_pause_frames, metric::k_pfc_rx_pause_frames}) {
      const model::Rate rate = model::rate_of(nic.samples, model::MetricKey{name, p});
      if (rate.status != model::RateStatus::Absent && rate.last > 0.0) {
        out.insert(p);
      }
    }
  }
  return out;
}

struct Survey {
  int prio = 3;
  std::size_t slot = 3;             // the RoCE priority's slot in the PFC table
  std::vector<std::string> trusts;  // trust mode of each NIC reporting one
  Mode trust;                       // the fleet's
  std::set<std::string> tools;      // the config tools read
  std::size_t total = 0;
  std::size_t configured = 0;  // NICs with a config tool's PFC or trust
  // NICs without a config tool, with the priorities their pause counters show PFC active on.
  std::map<const model::Nic*, std::set<int>> unconfigured;
  std::size_t inferred_on = 0;            // pausing on the RoCE priority: PFC on there
  std::size_t fleet_pausing_on_roce = 0;  // every NIC, configured or not, pausing on it
};

bool configured(const Survey& fleet, const model::Nic& nic) {
  return (fleet.slot < k_priorities && nic.qos.pfc_enabled[fleet.slot]) || !nic.qos.trust.empty();
}

// A NIC whose trust mode differs from the fleet's.
void judge_trust(const Survey& fleet, const model::Nic& nic, Judgement& judgement) {
  if (nic.qos.trust.empty() || fleet.trusts.size() < judgement.limit_count("min_trust_nics") ||
      nic.qos.trust == fleet.trust.value) {
    return;
  }
  judgement.find(
      "trust-mismatch", nic_entities(nic, false), judgement.limit("trust_mismatch_strength"),
      fmt::format("{} trusts {} while {} of {} NICs trust {}", nic_label(nic), nic.qos.trust,
                  fleet.trust.count, fleet.trusts.size(), fleet.trust.value));
}

// The host's NICs with PFC off on the RoCE priority, after its trust mismatches.
void judge_host(const Survey& fleet, const model::Host& host, Judgement& judgement) {
  std::vector<std::string> off;
  std::set<std::string> tools;
  for (const auto& nic : host.nics) {
    const auto& enabled = nic.qos.pfc_enabled;
    if (fleet.slot < k_priorities && enabled[fleet.slot] && !*enabled[fleet.slot]) {
      off.push_back(nic.nic_entity());
      tools.insert(nic.qos.tool);
    }
    judge_trust(fleet, nic, judgement);
  }
  if (off.empty()) {
    return;
  }
  std::vector<std::string> entities = off;
  if (off.size() == host.nics.size()) {
    entities.insert(entities.begin(), host.entity());
  }
  // mlnx_qos alone keeps its wording; another tool is named.
  const std::string by = tools == std::set<std::string>{source::k_mlnx_qos}
                             ? std::string()
                             : fmt::format(" ({})", fmt::join(tools, ", "));
  judgement.find(
      "pfc-disabled-on-roce-priority", entities, judgement.limit("pfc_disabled_strength"),
      fmt::format("PFC is disabled on priority {} on {} of {} NICs of {}{}: RoCE runs lossy there",
                  fleet.prio, off.size(), host.nics.size(), host.name, by),
      static_cast<double>(off.size()), 0.0, "NICs");
}

// Without a config tool: a NIC pausing on other priorities only, in a fleet pausing on the
// RoCE priority.
void judge_inferred(const Survey& fleet, const model::Host& host, const model::Nic& nic,
                    const std::set<int>& paused, Judgement& judgement) {
  if (paused.empty() || paused.count(fleet.prio) != 0 ||
      fleet.fleet_pausing_on_roce < judgement.limit_count("min_fleet_pausing_nics")) {
    return;
  }
  std::vector<std::string> entities = nic_entities(nic, false);
  entities.push_back(host.entity());
  judgement.find(
      "pfc-off-roce-priority-inferred", entities, judgement.limit("inferred_off_strength"),
      fmt::format("{} sends or receives PFC pause on priority {} but never on RoCE priority {}, "
                  "where {} NICs of the fleet pause: PFC is on elsewhere, likely off for RoCE "
                  "(inferred from ethtool -S; no mlnx_qos or dcb captured)",
                  nic_label(nic), fmt::join(paused, ","), fleet.prio, fleet.fleet_pausing_on_roce));
}

class QosConfigProbe final : public FleetProbe<Survey> {
 public:
  QosConfigProbe()
      : FleetProbe(
            {.id = "qos-config",
             .description = "PFC on the RoCE priority and trust mode per NIC",
             .cost = CostClass::Config,
             .reads = {source::k_mlnx_qos, source::k_dcb, source::k_ethtool_stats},
             .findings = {"pfc-disabled-on-roce-priority", "trust-mismatch",
                          "pfc-off-roce-priority-inferred"},
             .clearing = "qos-consistent",
             .thresholds = {"min_trust_nics", "pfc_disabled_strength", "trust_mismatch_strength",
                            "consistent_strength", "min_fleet_pausing_nics",
                            "inferred_off_strength", "inferred_consistent_strength"},
             .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    fleet.prio = judgement.roce_priority();
    fleet.slot = static_cast<std::size_t>(fleet.prio);
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.total;
        std::set<int> paused = paused_priorities(nic);
        const bool pausing_on_roce = paused.count(fleet.prio) != 0;
        fleet.fleet_pausing_on_roce += pausing_on_roce ? 1 : 0;
        if (configured(fleet, nic)) {
          ++fleet.configured;
          fleet.tools.insert(nic.qos.tool);
        } else {
          fleet.unconfigured.emplace(&nic, std::move(paused));
          fleet.inferred_on += pausing_on_roce ? 1 : 0;
        }
        if (!nic.qos.trust.empty()) {
          fleet.trusts.push_back(nic.qos.trust);
        }
      }
    }
    fleet.trust = mode_of(fleet.trusts);
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    std::vector<Coverage> out = {{"NICs", tools_label(fleet), fleet.configured, fleet.total}};
    if (!fleet.unconfigured.empty()) {
      // Counters only supplement: a NIC that never paused proves nothing either way.
      out.push_back({"NICs without mlnx_qos or dcb",
                     "pause frames on the RoCE priority (ethtool -S), PFC inferred",
                     fleet.inferred_on, fleet.unconfigured.size(), false});
    }
    return out;
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const auto& host : judgement.fabric().hosts) {
      judge_host(fleet, host, judgement);
      for (const auto& nic : host.nics) {
        if (const auto found = fleet.unconfigured.find(&nic); found != fleet.unconfigured.end()) {
          judge_inferred(fleet, host, nic, found->second, judgement);
        }
      }
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    if (fleet.configured == 0) {
      // Inference alone: PFC seen working where pause frames flow, the rest unknown.
      healthy.summary = fmt::format(
          "PFC active on priority {} on {} of {} NICs, inferred from their pause frames (no "
          "mlnx_qos or dcb captured)",
          fleet.prio, fleet.inferred_on, fleet.total);
      const bool whole_fleet = fleet.inferred_on == fleet.total;
      healthy.strength = whole_fleet ? judgement.limit("inferred_consistent_strength") : 0.0;
      healthy.ruled_out = whole_fleet;
      return healthy;
    }
    healthy.summary = fmt::format("PFC enabled on priority {} and trust {} on all {} NICs with {}",
                                  fleet.prio, fleet.trust.value.empty() ? "?" : fleet.trust.value,
                                  fleet.configured, tools_label(fleet));
    healthy.strength = judgement.limit("consistent_strength");
    return healthy;
  }

 private:
  static std::string tools_label(const Survey& fleet) {
    if (fleet.tools.empty()) {
      return source::k_mlnx_qos + " or " + source::k_dcb;
    }
    return fmt::format("{}", fmt::join(fleet.tools, " or "));
  }
};

}  // namespace

std::unique_ptr<Probe> make_qos_config_probe() {
  return std::make_unique<QosConfigProbe>();
}

}  // namespace netdoctor::probes
