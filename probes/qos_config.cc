// qos-config: PFC on the RoCE priority, and the trust mode the fleet uses, on every NIC.
//
// Reads each NIC's PFC configuration and priority trust state (mlnx_qos). A healthy RoCE fleet
// has PFC enabled on the RoCE priority (and only there) and trusts one field everywhere, DSCP on
// RoCE v2 fabrics.
//
// A NIC with PFC off on the RoCE priority runs RoCE lossy: drops become go-back-N retransmits
// (pfc-disabled-on-roce-priority, naming the host when all of its NICs are so). A NIC trusting
// another field than the fleet (PCP against DSCP) classifies its RoCE traffic into the wrong
// priority (trust-mismatch), judged only where enough NICs report a trust mode to have a
// majority.
#include <fmt/format.h>

#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

// Hardware fact: IEEE 802.1p has eight priorities, the slots of mlnx_qos's PFC table.
constexpr std::size_t k_priorities = 8;

struct Survey {
  int prio = 3;
  std::size_t slot = 3;             // the RoCE priority's slot in the PFC table
  std::vector<std::string> trusts;  // trust mode of each NIC reporting one
  Mode trust;                       // the fleet's
  std::size_t total = 0;
  std::size_t with = 0;  // NICs with mlnx_qos data
};

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
  for (const auto& nic : host.nics) {
    const auto& enabled = nic.qos.pfc_enabled;
    if (fleet.slot < k_priorities && enabled[fleet.slot] && !*enabled[fleet.slot]) {
      off.push_back(nic.nic_entity());
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
  judgement.find(
      "pfc-disabled-on-roce-priority", entities, judgement.limit("pfc_disabled_strength"),
      fmt::format("PFC is disabled on priority {} on {} of {} NICs of {}: RoCE runs lossy there",
                  fleet.prio, off.size(), host.nics.size(), host.name),
      static_cast<double>(off.size()), 0.0, "NICs");
}

class QosConfigProbe final : public FleetProbe<Survey> {
 public:
  QosConfigProbe()
      : FleetProbe({.id = "qos-config",
                    .description = "PFC on the RoCE priority and trust mode per NIC",
                    .cost = CostClass::Config,
                    .reads = {source::k_mlnx_qos},
                    .findings = {"pfc-disabled-on-roce-priority", "trust-mismatch"},
                    .clearing = "qos-consistent",
                    .thresholds = {"min_trust_nics", "pfc_disabled_strength",
                                   "trust_mismatch_strength", "consistent_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    fleet.prio = judgement.roce_priority();
    fleet.slot = static_cast<std::size_t>(fleet.prio);
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.total;
        if ((fleet.slot < k_priorities && nic.qos.pfc_enabled[fleet.slot]) ||
            !nic.qos.trust.empty()) {
          ++fleet.with;
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
    return {{"NICs", "mlnx_qos", fleet.with, fleet.total}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const auto& host : judgement.fabric().hosts) {
      judge_host(fleet, host, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    Clearance healthy;
    healthy.summary =
        fmt::format("PFC enabled on priority {} and trust {} on all {} NICs with mlnx_qos",
                    fleet.prio, fleet.trust.value.empty() ? "?" : fleet.trust.value, fleet.with);
    healthy.strength = judgement.limit("consistent_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_qos_config_probe() {
  return std::make_unique<QosConfigProbe>();
}

}  // namespace netdoctor::probes
