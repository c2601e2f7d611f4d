#include "probes/probe.h"

namespace netdoctor::probes {

// The factory of each built-in probe, defined at the end of its own file (probes/<id>.cc).
std::unique_ptr<Probe> make_pfc_pause_probe();
std::unique_ptr<Probe> make_drops_buffers_probe();
std::unique_ptr<Probe> make_ecn_cnp_probe();
std::unique_ptr<Probe> make_retransmits_probe();
std::unique_ptr<Probe> make_link_errors_probe();
std::unique_ptr<Probe> make_link_margin_probe();
std::unique_ptr<Probe> make_ib_link_errors_probe();
std::unique_ptr<Probe> make_link_speed_probe();
std::unique_ptr<Probe> make_ib_link_state_probe();
std::unique_ptr<Probe> make_pcie_probe();
std::unique_ptr<Probe> make_utilization_ecmp_probe();
std::unique_ptr<Probe> make_oversubscription_probe();
std::unique_ptr<Probe> make_mtu_probe();
std::unique_ptr<Probe> make_firmware_probe();
std::unique_ptr<Probe> make_subnet_manager_probe();
std::unique_ptr<Probe> make_ib_config_probe();
std::unique_ptr<Probe> make_qos_config_probe();
std::unique_ptr<Probe> make_traffic_isolation_probe();
std::unique_ptr<Probe> make_clock_probe();
std::unique_ptr<Probe> make_addressing_probe();
std::unique_ptr<Probe> make_packet_size_probe();
std::unique_ptr<Probe> make_perftest_baseline_probe();
std::unique_ptr<Probe> make_gids_probe();
std::unique_ptr<Probe> make_nccl_probe();
std::unique_ptr<Probe> make_ib_congestion_probe();
std::unique_ptr<Probe> make_ib_routing_probe();
std::unique_ptr<Probe> make_active_sweep_probe();

// Every built-in probe, in one visible place (no self-registering statics). Cheap passive
// counter probes first, then configuration, then the perftest comparison; a playbook's steps
// give the order a diagnosis runs them in.
void register_builtin_probes(ProbeRegistry& registry) {
  for (auto* make : {
           make_pfc_pause_probe,
           make_drops_buffers_probe,
           make_ecn_cnp_probe,
           make_retransmits_probe,
           make_link_errors_probe,
           make_link_margin_probe,
           make_ib_link_errors_probe,
           make_link_speed_probe,
           make_ib_link_state_probe,
           make_pcie_probe,
           make_utilization_ecmp_probe,
           make_oversubscription_probe,
           make_mtu_probe,
           make_firmware_probe,
           make_subnet_manager_probe,
           make_ib_config_probe,
           make_qos_config_probe,
           make_traffic_isolation_probe,
           make_clock_probe,
           make_addressing_probe,
           make_gids_probe,
           make_packet_size_probe,
           make_perftest_baseline_probe,
           make_nccl_probe,
           make_ib_congestion_probe,
           make_ib_routing_probe,
           make_active_sweep_probe,
       }) {
    registry.add(make());
  }
}

}  // namespace netdoctor::probes
