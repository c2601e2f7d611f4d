// Hand-built fabrics for probe tests: a healthy fleet with realistic rates over N samples
// (two by default), and helpers to perturb one entity. Rates vary slightly (deterministically)
// from NIC to NIC, as in real fleets, so the probes' robust statistics have spread to work on.
#pragma once

#include <string>

#include "model/fabric.h"

namespace netdoctor::testing {

struct FleetSpec {
  int hosts = 8;
  int nics_per_host = 4;
  int leaves = 2;
  int samples = 2;
  double window_s = 30.0;
  // Uplinks per leaf; 0 means as many as the leaf has downlinks (non-blocking 1:1).
  int uplinks_per_leaf = 0;
  double uplink_gbps = 400.0;
};

model::Fabric healthy_fleet(const FleetSpec& spec = {});

// A healthy NCCL job over every host of `fabric` (healthy_fleet carries one): every NIC an HCA
// with GPUDirect RDMA, channels on NET/IB/GDRDMA, NCCL_IB_GID_INDEX=3, busbw 85 % of line rate.
model::NcclJob nccl_job(const model::Fabric& fabric);

// A NIC's PCIe link as the loader derives it from sysfs (ceilings at 128b/130b, gen3 to gen5).
model::PcieLink pcie_link(double gt_s, std::uint32_t width, double max_gt_s,
                          std::uint32_t max_width);

// The NIC `index` of host `host` (0-based); the switch port by switch and port name.
model::Nic& nic_at(model::Fabric& fabric, int host, int index);
model::SwitchPort& port_named(model::Fabric& fabric, const std::string& switch_name,
                              const std::string& port);

// Rewrites a cumulative counter so it grows at `per_second` over the samples (from `base`).
void set_rate(std::vector<model::CounterSample>& samples, const std::string& name, int index,
              double per_second, double base = 1e6);
// Sets a gauge (e.g. tx_util_pct) to the same value in every sample.
void set_gauge(std::vector<model::CounterSample>& samples, const std::string& name, int index,
               double value);
// Removes a metric from every sample (counter not captured).
void remove_metric(std::vector<model::CounterSample>& samples, const std::string& name,
                   int index = -1);
// Removes every metric of every NIC (e.g. "ethtool -S" files lost).
void clear_nic_counters(model::Fabric& fabric);
// Keeps only the first sample of every host and switch.
void keep_first_sample(model::Fabric& fabric);

// A PFC storm from nic_at(0, 0) (node01's first NIC): it sends 41k pause frames/s on priority
// 3, paused 23 % of the time; the other NICs behind its leaf receive 4000/s, its leaf port 41k/s.
void inject_pfc_storm(model::Fabric& fabric);

}  // namespace netdoctor::testing
