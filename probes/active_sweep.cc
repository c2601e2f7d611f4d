// active-sweep: what the active tests found (docs/sweep.md). Reads the sweeps recorded in the
// bundle (sweep/*.json: `netdoctor sweep --out`, or the active step of `diagnose --active`),
// each the conclusion of perftest pairs re-tested against partners known good and of
// nccl-tests halved down to one host.
//
// In a healthy fleet every NIC measures within the baseline rule of its pair's baseline (else
// of its line rate times perftest's efficiency) and the collectives reach their bus bandwidth:
//   sweep-slow-nic         one NIC slow with every good partner: that NIC (firmware, PCIe
//                          slot, optics it trained down on) is where to dig;
//   sweep-slow-link        a slow NIC whose link error counters grew during its tests: the
//                          cable or transceiver between it and its leaf;
//   sweep-slow-host        every NIC of a host slow: the host (PCIe, CPU, memory, NUMA), not
//                          one NIC;
//   sweep-collective-only  pairs healthy but nccl-tests slow in every group with this host:
//                          what collectives add on top of the NIC (GPUDirect, NVLink, NCCL's
//                          transport choice).
// The figures are the sweep's, so strength grows with the shortfall: at twice the rule the
// evidence is clear, as for perftest-baseline.
#include <fmt/format.h>

#include "model/entity_names.h"
#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

struct Survey {
  std::vector<const model::SweepResult*> sweeps;
  std::size_t complete = 0;  // sweeps that reached a verdict other than inconclusive
};

const char* signal_of(const model::SweepSlow& slow) {
  if (slow.kind == "collective") {
    return "sweep-collective-only";
  }
  switch (model::entity_kind(slow.entity)) {
    case model::EntityKind::Link:
      return "sweep-slow-link";
    case model::EntityKind::Host:
      return "sweep-slow-host";
    default:
      return "sweep-slow-nic";
  }
}

std::vector<std::string> entities_of(const model::SweepSlow& slow) {
  std::vector<std::string> entities = {slow.entity};
  const auto parts = model::parse_entity(slow.entity);
  if (parts.kind == model::EntityKind::Nic) {
    entities.push_back(model::host_entity(parts.owner));
  }
  return entities;
}

class ActiveSweepProbe final : public FleetProbe<Survey> {
 public:
  ActiveSweepProbe()
      : FleetProbe({.id = "active-sweep",
                    .description = "perftest pairs and nccl-tests run to find the slow NIC, "
                                   "host or link",
                    .cost = CostClass::Active,
                    .reads = {source::k_sweep},
                    .findings = {"sweep-slow-nic", "sweep-slow-link", "sweep-slow-host",
                                 "sweep-collective-only"},
                    .clearing = "sweep-healthy",
                    .thresholds = {"deviation", "ok_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const auto& sweep : judgement.fabric().sweeps) {
      fleet.sweeps.push_back(&sweep);
      fleet.complete += sweep.verdict != "inconclusive" ? 1 : 0;
      if (!sweep.left_out.empty()) {
        judgement.note(
            fmt::format("{}: not tested: {}", sweep.file, fmt::join(sweep.left_out, ", ")));
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"sweeps", source::k_sweep, fleet.complete, fleet.sweeps.size()}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    const double rule = judgement.limit("deviation");
    for (const model::SweepResult* sweep : fleet.sweeps) {
      for (const auto& slow : sweep->slow) {
        const double drop =
            slow.expected_gbps > 0.0 ? 1.0 - slow.measured_gbps / slow.expected_gbps : 1.0;
        std::string why = slow.evidence.empty() ? "" : ": " + slow.evidence.front();
        judgement.find(signal_of(slow), entities_of(slow), saturating(std::max(drop, 0.0), rule),
                       fmt::format("{} measures {:.1f} Gb/s against {:.1f} expected ({} below) "
                                   "in {}{}",
                                   slow.entity, slow.measured_gbps, slow.expected_gbps,
                                   percent(drop), sweep->file, why),
                       slow.measured_gbps, slow.expected_gbps, "Gb/s");
      }
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    std::size_t nics = 0;
    for (const model::SweepResult* sweep : fleet.sweeps) {
      nics += sweep->tested_nics;
    }
    Clearance clear;
    clear.summary = fmt::format(
        "{} NICs measured by active tests, none more than {} below "
        "what it should reach",
        nics, percent(judgement.limit("deviation")));
    clear.strength = judgement.limit("ok_strength");
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_active_sweep_probe() {
  return std::make_unique<ActiveSweepProbe>();
}

}  // namespace netdoctor::probes
