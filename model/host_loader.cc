// load_host: one host's NICs, configuration and counters from its samples. Configuration comes
// from the latest sample (the state the incident is in); counters from every sample.
#include "model/clock_sources.h"
#include "model/host_facts.h"
#include "model/kernel_events.h"
#include "model/loader.h"
#include "model/nic_config.h"
#include "model/nic_counters.h"
#include "model/nic_discovery.h"
#include "model/nic_gids.h"
#include "model/nic_vendor.h"
#include "model/pcie_link.h"
#include "model/sample_times.h"
#include "model/source_names.h"
#include "model/source_reading.h"

namespace netdoctor::model {
namespace {

// One NIC's identity and configuration from the sample the host's configuration comes from.
Nic configured_nic(SourceLog& log, const SampleSource& sample, const HostOutputs& out,
                   const std::string& host, const NicSeed& seed) {
  Nic nic;
  nic.host = host;
  nic.device = seed.device;
  nic.port = seed.port;
  nic.netdev = seed.netdev;
  if (!nic.device.empty()) {
    fill_rdma_config(log, sample, out, nic);
    fill_gids(log, sample, out.gids, nic);
  }
  if (!nic.netdev.empty()) {
    fill_netdev_config(log, sample, out, nic);
  }
  if (!nic.device.empty()) {
    // The netdev's carrier is the sysfs net view's fact: withheld with it.
    fill_from_ibdev2netdev(out, log.admits(source::k_sysfs_net), nic);
    fill_resources(out, nic);
  }
  nic.vendor = nic_vendor(nic, find_ibv_device(out, nic.device));
  return nic;
}

}  // namespace

Host load_host(const std::string& name, const std::vector<MachineSample>& samples,
               const CounterTable& counters, std::vector<Problem>& problems,
               const SourceFilter& filter) {
  Host host;
  host.name = name;
  SourceLog log(host.entity(), problems, filter);
  if (samples.empty()) {
    return host;
  }
  const auto series = sample_times(log, samples, host.sources);

  // Configuration from the latest sample that shows any NIC (a latest sample that lost its
  // sysfs copy must not make the host's NICs vanish).
  HostOutputs out;
  std::vector<NicSeed> seeds;
  std::size_t config_index = samples.size() - 1;
  for (std::size_t k = samples.size(); k-- > 0;) {
    out = read_host_outputs(log, *samples[k].source, host.sources);
    seeds = discover_nics(log, *samples[k].source, out, host.sources);
    config_index = k;
    if (!seeds.empty()) {
      break;
    }
  }
  const SampleSource& latest = *samples[config_index].source;
  read_clock(log, latest, out.chrony, host.sources, host.clock);
  if (out.ip) {
    fill_interfaces(*out.ip, host);
  }
  for (const auto& seed : seeds) {
    host.nics.push_back(configured_nic(log, latest, out, name, seed));
  }
  fill_pcie_links(log, latest, out.dmesg, host);
  if (out.dmesg) {
    fill_kernel_events(*out.dmesg, host);
  }

  for (const auto& timed : series) {
    host.captured_at.push_back(timed.at);
    const SampleSource& sample = *samples[timed.index].source;
    HostCounterOutputs outputs(log, sample, host.sources);
    for (auto& nic : host.nics) {
      nic.samples.push_back(read_nic_counters(log, sample, counters, timed.at, nic, outputs));
    }
  }
  return host;
}

}  // namespace netdoctor::model
