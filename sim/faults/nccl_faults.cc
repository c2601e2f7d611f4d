// nccl-transport: the job's NCCL on one host does not ride RDMA as intended, one of three ways
// chosen by the seed: NCCL_IB_DISABLE=1 puts its channels on NET/Socket; nvidia-peermem not
// loaded turns GPUDirect RDMA off; NCCL_IB_HCA names only part of its NICs (a host with a single
// NIC gets one of the other two). The network and its counters stay as they were: the job's
// slower steps show in NCCL's own log and in nccl-tests' bus bandwidth.
#include "sim/faults/fault_table.h"

namespace netdoctor::sim {

Status prepare_nccl_transport(FaultContext& context) {
  Fabric& fabric = context.fabric;
  ND_TRY_ASSIGN(context.target,
                pick_host(fabric, "nccl-transport", context.requested, context.rng));
  const std::size_t h = context.target.host;
  Host& host = fabric.hosts[h];
  context.culprits.push_back(host_entity(fabric, h));
  const std::size_t variants = host.nics.size() > 1 ? 3 : 2;
  const auto variant =
      static_cast<std::size_t>(context.rng.uniform() * static_cast<double>(variants));
  if (variant == 0) {
    host.nccl.socket = true;
  } else if (variant == 1) {
    host.nccl.gdr = false;
  } else {
    host.nccl.hcas = host.nics.size() / 2;  // NCCL_IB_HCA lists half of them
    for (std::size_t n = host.nccl.hcas; n < host.nics.size(); ++n) {
      context.culprits.push_back(nic_entity(fabric, h, n));
    }
  }
  return {};
}

Status inject_nccl_transport(FaultContext& /*context*/) {
  return {};
}

}  // namespace netdoctor::sim
