#include "sim/counter_clock.h"

#include "sim/rng.h"

namespace netdoctor::sim {

std::vector<double> sample_times(const Fabric& fabric, std::string_view machine) {
  std::vector<double> times;
  for (std::size_t k = 0; k < fabric.samples; ++k) {
    // The collector walks the fleet: each machine within a second of the nominal time.
    const double jitter = hash_unit(fabric.noise_seed, machine, k) * 0.9;
    times.push_back(fabric.start_time + static_cast<double>(k) * fabric.interval_s + jitter);
  }
  return times;
}

double onset_seconds(const Fabric& fabric) {
  if (fabric.onset_interval == 0) {
    return 0.0;
  }
  return (static_cast<double>(fabric.onset_interval) - 0.8) * fabric.interval_s;
}

double traffic_factor(const Fabric& fabric, std::string_view link, std::size_t k) {
  const std::size_t interval = k == 0 ? 0 : k - 1;
  return 1.0 + 0.03 * (2.0 * hash_unit(fabric.noise_seed ^ 0x5bd1e995ull, link, interval) - 1.0);
}

std::vector<double> traffic_elapsed(const Fabric& fabric, std::string_view link,
                                    const std::vector<double>& times) {
  std::vector<double> elapsed(times.size(), 0.0);
  for (std::size_t k = 1; k < times.size(); ++k) {
    elapsed[k] = elapsed[k - 1] + traffic_factor(fabric, link, k) * (times[k] - times[k - 1]);
  }
  return elapsed;
}

std::string nic_link_key(const Host& host, const Nic& nic) {
  return host.name + "/" + nic.netdev;
}

std::string uplink_key(const Fabric& fabric, const Switch& sw, const Port& port) {
  if (port.kind == PortKind::SpineDownlink) {
    const Switch& leaf = fabric.switches[port.peer_switch];
    return leaf.name + "/" + leaf.ports[port.peer_port].name;
  }
  return sw.name + "/" + port.name;
}

}  // namespace netdoctor::sim
