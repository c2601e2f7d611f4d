// The fault catalogue: every root-cause id of spec/diagnosis.md plus `healthy`, each with the
// symptom an on-call engineer would report and the two steps that inject it. `prepare` runs on
// the bare topology (resolves the place, changes configuration and cabling); `inject` runs on
// the healthy traffic and changes rates so the fault's physical consequences show.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sim/faults/targets.h"
#include "sim/rng.h"
#include "sim/topology.h"

namespace netdoctor::sim {

struct FaultContext {
  Fabric& fabric;
  Rng& rng;
  std::string requested;              // entity named on the command line, may be empty
  std::string variant;                // way of the fault asked for ("" = seed); prepare sets it
  EntityRef target;                   // set by prepare
  std::size_t peer_host = k_none;     // a second host, for faults between two hosts
  std::vector<std::string> culprits;  // entity names a correct diagnosis may blame
};

using FaultStep = Status (*)(FaultContext&);

struct FaultSteps {
  FaultStep prepare = nullptr;  // both null: the fault has no meaning on that fabric
  FaultStep inject = nullptr;
};

struct FaultSpec {
  const char* id;
  const char* symptom;
  FaultSteps roce;
  FaultSteps ib;
  const FaultSteps& on(FabricKind kind) const { return kind == FabricKind::Ib ? ib : roce; }
  bool applies(FabricKind kind) const { return on(kind).prepare != nullptr; }
};

const std::vector<FaultSpec>& fault_table();
const FaultSpec* find_fault(std::string_view id);
std::vector<std::string> fault_ids();
std::vector<std::string> fault_ids(FabricKind kind);  // those that apply to that fabric

// The injectors, one file per fault family.
Status prepare_pfc_storm(FaultContext& context);
Status inject_pfc_storm(FaultContext& context);
Status prepare_ecmp_imbalance(FaultContext& context);
Status inject_ecmp_imbalance(FaultContext& context);
Status prepare_oversubscription(FaultContext& context);
Status inject_oversubscription(FaultContext& context);
Status prepare_buffer_exhaustion(FaultContext& context);
Status inject_buffer_exhaustion(FaultContext& context);
Status prepare_ecn_misconfig(FaultContext& context);
Status inject_ecn_misconfig(FaultContext& context);
Status prepare_mtu_mismatch(FaultContext& context);
Status inject_mtu_mismatch(FaultContext& context);
Status prepare_firmware_mismatch(FaultContext& context);
Status inject_firmware_mismatch(FaultContext& context);
Status prepare_link_errors(FaultContext& context);
Status inject_link_errors(FaultContext& context);
Status prepare_link_degraded(FaultContext& context);
Status inject_link_degraded(FaultContext& context);
Status prepare_lossy_roce(FaultContext& context);
Status inject_lossy_roce(FaultContext& context);
Status prepare_traffic_isolation(FaultContext& context);
Status inject_traffic_isolation(FaultContext& context);
Status prepare_clock_skew(FaultContext& context);
Status inject_clock_skew(FaultContext& context);
Status prepare_addressing_conflict(FaultContext& context);
Status inject_addressing_conflict(FaultContext& context);
Status prepare_small_messages(FaultContext& context);
Status inject_small_messages(FaultContext& context);
Status prepare_baseline_regression(FaultContext& context);
Status inject_baseline_regression(FaultContext& context);
Status prepare_pcie_degraded(FaultContext& context);
Status inject_pcie_degraded(FaultContext& context);
Status prepare_gid_mismatch(FaultContext& context);
Status inject_gid_mismatch(FaultContext& context);
Status prepare_nccl_transport(FaultContext& context);
Status inject_nccl_transport(FaultContext& context);

// InfiniBand forms (sim/faults/ib_*.cc).
Status prepare_ib_congestion(FaultContext& context);
Status inject_ib_congestion(FaultContext& context);
Status prepare_subnet_manager(FaultContext& context);
Status inject_subnet_manager(FaultContext& context);
Status prepare_ib_link_errors(FaultContext& context);
Status inject_ib_link_errors(FaultContext& context);
Status prepare_ib_link_degraded(FaultContext& context);
Status inject_ib_link_degraded(FaultContext& context);
Status prepare_ib_mtu_mismatch(FaultContext& context);
Status inject_ib_mtu_mismatch(FaultContext& context);
Status prepare_ib_firmware_mismatch(FaultContext& context);
Status inject_ib_ecmp_imbalance(FaultContext& context);
Status inject_ib_oversubscription(FaultContext& context);

// Helpers shared by injectors.
// NICs a host-level target covers: all of a host, or the one NIC named.
std::vector<std::size_t> target_nics(const Fabric& fabric, const EntityRef& target);
// Adds retransmit symptoms of loss at `rate` lost packets per second to a NIC.
void add_loss_symptoms(Nic& nic, double lost_per_s, Rng& rng);
void scale_traffic(Nic& nic, double factor);
// Picks the variant of a fault with several ways: the one asked for (InvalidArgument when it is
// not among `known`), else one chosen by the seed; stored back into context.variant.
Status pick_variant(FaultContext& context, const std::vector<std::string>& known);

}  // namespace netdoctor::sim
