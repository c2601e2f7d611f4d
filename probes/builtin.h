// Factories of the built-in probes, one per file probes/<id>.cc; registry.cc lists them.
#pragma once

#include <memory>

#include "probes/probe.h"

namespace netdoctor::probes {

std::unique_ptr<Probe> make_pfc_pause_probe();
std::unique_ptr<Probe> make_drops_buffers_probe();
std::unique_ptr<Probe> make_ecn_cnp_probe();
std::unique_ptr<Probe> make_retransmits_probe();
std::unique_ptr<Probe> make_link_errors_probe();
std::unique_ptr<Probe> make_link_speed_probe();
std::unique_ptr<Probe> make_utilization_ecmp_probe();
std::unique_ptr<Probe> make_oversubscription_probe();
std::unique_ptr<Probe> make_mtu_probe();
std::unique_ptr<Probe> make_firmware_probe();
std::unique_ptr<Probe> make_qos_config_probe();
std::unique_ptr<Probe> make_traffic_isolation_probe();
std::unique_ptr<Probe> make_clock_probe();
std::unique_ptr<Probe> make_addressing_probe();
std::unique_ptr<Probe> make_packet_size_probe();
std::unique_ptr<Probe> make_perftest_baseline_probe();

}  // namespace netdoctor::probes
