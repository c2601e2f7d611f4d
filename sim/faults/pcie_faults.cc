// pcie-degraded: one NIC's PCIe link trained at half its width (x8 in an x16 slot) or one
// generation down, so its ceiling falls below the port's line rate: the NIC moves at most
// that, whatever the network offers.
#include <algorithm>

#include "sim/faults/fault_table.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {

Status prepare_pcie_degraded(FaultContext& context) {
  ND_TRY_ASSIGN(context.target,
                pick_nic(context.fabric, "pcie-degraded", context.requested, context.rng));
  const EntityRef& t = context.target;
  Nic& nic = context.fabric.hosts[t.host].nics[t.nic];
  if (context.rng.chance(0.5)) {
    nic.pcie_width = nic.pcie_max_width / 2;  // a riser or bifurcated slot wired x8
  } else {
    nic.pcie_gt_s = nic.pcie_max_gt_s / 2;  // trained a generation down
  }
  context.culprits = {nic_entity(context.fabric, t.host, t.nic),
                      netdev_entity(context.fabric, t.host, t.nic),
                      host_entity(context.fabric, t.host)};
  return {};
}

Status inject_pcie_degraded(FaultContext& context) {
  Nic& nic = context.fabric.hosts[context.target.host].nics[context.target.nic];
  // The ceiling in Gb/s against the line rate: perftest through it tops out there, and the
  // collective traffic it carries is held back a little (its ring waits on it).
  const double ceiling =
      static_cast<double>(pcie_kernel_mbps(nic.pcie_gt_s, nic.pcie_width)) / 1000.0;
  const double share = std::min(1.0, ceiling / static_cast<double>(nic.rated_gbps));
  nic.perf_bw_factor *= share;
  scale_traffic(nic, context.rng.uniform(0.85, 0.95));
  return {};
}

}  // namespace netdoctor::sim
