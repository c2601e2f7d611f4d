#include "sim/faults/fault_table.h"

#include <algorithm>

#include "base/strings.h"

namespace netdoctor::sim {
namespace {
Status no_step(FaultContext& /*context*/) {
  return {};
}
}  // namespace

const std::vector<FaultSpec>& fault_table() {
  // RoCE steps, then InfiniBand steps ({} where the fault has no meaning on that fabric).
  static const std::vector<FaultSpec> k_table = {
      {"healthy", "timeouts", {no_step, no_step}, {no_step, no_step}},
      {"pfc-storm", "slowdown", {prepare_pfc_storm, inject_pfc_storm}, {}},
      {"ecmp-imbalance",
       "asymmetric-bandwidth",
       {prepare_ecmp_imbalance, inject_ecmp_imbalance},
       {prepare_ecmp_imbalance, inject_ib_ecmp_imbalance}},
      {"oversubscription",
       "slowdown",
       {prepare_oversubscription, inject_oversubscription},
       {prepare_oversubscription, inject_ib_oversubscription}},
      {"mtu-mismatch",
       "high-latency",
       {prepare_mtu_mismatch, inject_mtu_mismatch},
       {prepare_ib_mtu_mismatch, inject_ib_mtu_mismatch}},
      {"firmware-mismatch",
       "high-latency",
       {prepare_firmware_mismatch, inject_firmware_mismatch},
       {prepare_ib_firmware_mismatch, inject_firmware_mismatch}},
      {"link-errors",
       "timeouts",
       {prepare_link_errors, inject_link_errors},
       {prepare_ib_link_errors, inject_ib_link_errors}},
      {"link-degraded",
       "asymmetric-bandwidth",
       {prepare_link_degraded, inject_link_degraded},
       {prepare_ib_link_degraded, inject_ib_link_degraded}},
      {"buffer-exhaustion", "timeouts", {prepare_buffer_exhaustion, inject_buffer_exhaustion}, {}},
      {"ecn-misconfig", "slowdown", {prepare_ecn_misconfig, inject_ecn_misconfig}, {}},
      {"lossy-roce", "timeouts", {prepare_lossy_roce, inject_lossy_roce}, {}},
      {"traffic-isolation", "slowdown", {prepare_traffic_isolation, inject_traffic_isolation}, {}},
      {"clock-skew",
       "timeouts",
       {prepare_clock_skew, inject_clock_skew},
       {prepare_clock_skew, inject_clock_skew}},
      {"addressing-conflict",
       "timeouts",
       {prepare_addressing_conflict, inject_addressing_conflict},
       {}},
      {"small-messages", "low-utilization", {prepare_small_messages, inject_small_messages}, {}},
      {"baseline-regression",
       "slowdown",
       {prepare_baseline_regression, inject_baseline_regression},
       {}},
      {"pcie-degraded",
       "slowdown",
       {prepare_pcie_degraded, inject_pcie_degraded},
       {prepare_pcie_degraded, inject_pcie_degraded}},
      {"gid-mismatch", "timeouts", {prepare_gid_mismatch, inject_gid_mismatch}, {}},
      {"nccl-transport",
       "slowdown",
       {prepare_nccl_transport, inject_nccl_transport},
       {prepare_nccl_transport, inject_nccl_transport}},
      {"ib-congestion", "slowdown", {}, {prepare_ib_congestion, inject_ib_congestion}},
      {"subnet-manager", "timeouts", {}, {prepare_subnet_manager, inject_subnet_manager}},
  };
  return k_table;
}

const FaultSpec* find_fault(std::string_view id) {
  for (const FaultSpec& spec : fault_table()) {
    if (id == spec.id) {
      return &spec;
    }
  }
  return nullptr;
}

std::vector<std::string> fault_ids() {
  std::vector<std::string> ids;
  for (const FaultSpec& spec : fault_table()) {
    ids.emplace_back(spec.id);
  }
  return ids;
}

std::vector<std::string> fault_ids(FabricKind kind) {
  std::vector<std::string> ids;
  for (const FaultSpec& spec : fault_table()) {
    if (spec.applies(kind)) {
      ids.emplace_back(spec.id);
    }
  }
  return ids;
}

Status pick_variant(FaultContext& context, const std::vector<std::string>& known) {
  if (context.variant.empty()) {
    context.variant = known[context.rng.index(known.size())];
    return {};
  }
  if (std::find(known.begin(), known.end(), context.variant) == known.end()) {
    return make_error(ErrorCode::InvalidArgument, "unknown variant '" + context.variant +
                                                      "' (known: " + join(known, ", ") + ")");
  }
  return {};
}

std::vector<std::size_t> target_nics(const Fabric& fabric, const EntityRef& target) {
  if (target.kind == EntityKind::Nic) {
    return {target.nic};
  }
  std::vector<std::size_t> all;
  for (std::size_t n = 0; n < fabric.hosts[target.host].nics.size(); ++n) {
    all.push_back(n);
  }
  return all;
}

void add_loss_symptoms(Nic& nic, double lost_per_s, Rng& rng) {
  // Go-back-N: every lost packet makes the responder see out-of-sequence packets (the rest of
  // the window), the requester a NAK; some losses end in an ACK timeout.
  nic.rates.add(NicRate::OutOfSequence, lost_per_s * rng.uniform(3.0, 8.0));
  nic.rates.add(NicRate::PacketSeqErr, lost_per_s * rng.uniform(0.6, 1.0));
  nic.rates.add(NicRate::DuplicateRequest, lost_per_s * rng.uniform(0.2, 0.5));
  nic.rates.add(NicRate::ImpliedNakSeqErr, lost_per_s * rng.uniform(0.05, 0.2));
  nic.rates.add(NicRate::LocalAckTimeout, lost_per_s * rng.uniform(0.005, 0.02));
}

void scale_traffic(Nic& nic, double factor) {
  for (const NicRate rate : {NicRate::TxRdmaBytes, NicRate::TxRdmaPackets, NicRate::RxRdmaBytes,
                             NicRate::RxRdmaPackets, NicRate::TxOtherBytes, NicRate::TxOtherPackets,
                             NicRate::RxOtherBytes, NicRate::RxOtherPackets}) {
    nic.rates.scale(rate, factor);
  }
}

}  // namespace netdoctor::sim
