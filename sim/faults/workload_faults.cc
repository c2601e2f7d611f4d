// Faults of the workload rather than the network: small-messages (the job moves tiny messages:
// a high packet rate, few bytes, idle links) and baseline-regression (one pair measures well
// below its own baseline while every counter looks clean).
#include "sim/faults/fault_table.h"
#include "sim/traffic.h"

namespace netdoctor::sim {

Status prepare_small_messages(FaultContext& context) {
  if (!context.requested.empty() && context.requested != "fabric") {
    return make_error(ErrorCode::InvalidArgument,
                      "small-messages is fabric-wide: give no place (or @fabric)",
                      context.requested);
  }
  context.culprits.clear();
  return {};
}

Status inject_small_messages(FaultContext& context) {
  Rng& rng = context.rng;
  const double packet = rng.uniform(160.0, 320.0);
  for (Host& host : context.fabric.hosts) {
    for (Nic& nic : host.nics) {
      set_nic_utilization(nic, rng.uniform(0.04, 0.08));
      for (const bool tx : {true, false}) {
        const NicRate bytes = tx ? NicRate::TxRdmaBytes : NicRate::RxRdmaBytes;
        const NicRate packets = tx ? NicRate::TxRdmaPackets : NicRate::RxRdmaPackets;
        nic.rates[packets] = nic.rates[bytes] / (packet * rng.jitter(0.05));
      }
      nic.rates.scale(NicRate::EcnMarked, 0.1);
      nic.rates.scale(NicRate::CnpSent, 0.1);
      nic.rates.scale(NicRate::CnpHandled, 0.1);
      nic.rates.scale(NicRate::RxPause, 0.2);
    }
  }
  return {};
}

Status prepare_baseline_regression(FaultContext& context) {
  Fabric& fabric = context.fabric;
  if (fabric.hosts.size() < 2) {
    return make_error(ErrorCode::InvalidArgument,
                      "baseline-regression needs at least two hosts (one perftest pair)");
  }
  ND_TRY_ASSIGN(context.target,
                pick_host(fabric, "baseline-regression", context.requested, context.rng));
  // perftest pairs are (0,1), (2,3), ...; an odd last host pairs with its predecessor.
  std::size_t client = context.target.host / 2 * 2;
  if (client + 1 >= fabric.hosts.size()) {
    client -= 2;
  }
  context.target.kind = EntityKind::Host;
  context.target.host = client;
  context.peer_host = client + 1;
  context.culprits = {host_entity(fabric, client), host_entity(fabric, client + 1),
                      nic_entity(fabric, client, 0)};
  return {};
}

Status inject_baseline_regression(FaultContext& context) {
  Nic& nic = context.fabric.hosts[context.target.host].nics[0];
  nic.perf_bw_factor *= context.rng.uniform(0.8, 0.9);
  nic.perf_lat_factor *= context.rng.uniform(1.08, 1.15);
  return {};
}

}  // namespace netdoctor::sim
