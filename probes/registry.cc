#include "probes/builtin.h"
#include "probes/probe.h"

namespace netdoctor::probes {

// Every built-in probe, in one visible place (no self-registering statics). Cheap passive
// counter probes first, then configuration, then the perftest comparison.
void register_builtin_probes(ProbeRegistry& registry) {
  registry.add(make_pfc_pause_probe());
  registry.add(make_drops_buffers_probe());
  registry.add(make_ecn_cnp_probe());
  registry.add(make_retransmits_probe());
  registry.add(make_link_errors_probe());
  registry.add(make_link_speed_probe());
  registry.add(make_utilization_ecmp_probe());
  registry.add(make_oversubscription_probe());
  registry.add(make_mtu_probe());
  registry.add(make_firmware_probe());
  registry.add(make_qos_config_probe());
  registry.add(make_traffic_isolation_probe());
  registry.add(make_clock_probe());
  registry.add(make_addressing_probe());
  registry.add(make_packet_size_probe());
  registry.add(make_perftest_baseline_probe());
}

}  // namespace netdoctor::probes
