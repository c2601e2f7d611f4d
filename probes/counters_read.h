// Which counters of NICs and switches the probes (and the fabric picture) read, so that a remote
// source (diagnose --prometheus) fetches only those: the NIC metrics, the per-priority stats on
// the priorities read (most of a ConnectX or Broadcom port's series), the switches' interface,
// PFC and queue counters, and the queue traffic only where drops or a missing rate want it.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "probes/metric_names.h"

namespace netdoctor::probes {

// The NIC metrics (model/counters.tsv's canonical names, without their priority) some probe
// reads, or the fabric picture's cells (report/map_metrics.cc): a remote source fetches only the
// counters that become one of them (of a ConnectX port's mapped counters, about half become
// none). tests/fabrics/reads_test.cc checks on every fixture that the probes answer the same
// without the others.
bool probes_read_nic_metric(std::string_view metric);

// The per-priority counters some probe reads on every priority: without a QoS configuration
// (Prometheus has none) qos-config infers where PFC is on from the pause frames on any priority.
inline constexpr std::array<std::string_view, 2> k_read_on_every_priority = {
    metric::k_pfc_rx_pause_frames, metric::k_pfc_tx_pause_frames};

// Whether a probe reads the NIC metric `name` at `priority` when RoCE runs on `roce_priority`.
// tests/fabrics/reads_test.cc checks it on every fixture: the probes answer the same without
// the counters this says are not read, and not without the every-priority ones.
bool probes_read_priority(std::string_view name, int priority, int roce_priority);

// Whether a probe (or the fabric picture) reads the switch port interface metric `metric`
// (show interfaces counters: rx_bps, rx_errors, rx_drops, ...; model/fabric.h SwitchPort).
// Nothing reads the packets a port received or sent (RX_OK, TX_OK: IF-MIB's six packet
// counters), so a remote source does not fetch them.
bool probes_read_switch_interface_metric(std::string_view metric);

// Whether a probe reads a switch port's PFC counters at `priority`: pfc-pause reads what each
// port receives and sends on the RoCE priority, and nothing reads the others.
bool probes_read_switch_pfc_priority(int priority, int roce_priority);

// The switch queue counters a probe reads: drops-buffers the dropped and sent packets of each
// queue, switch-topology the bytes sent (where the port has no rate gauge). Nothing reads the
// dropped bytes.
inline constexpr std::array<std::string_view, 3> k_switch_queue_metrics_read = {
    metric::k_sw_queue_tx_packets, metric::k_sw_queue_tx_bytes, metric::k_sw_queue_drop_packets};
bool probes_read_switch_queue_metric(std::string_view name);

// Of those, the traffic a queue sent is read on a port only where its other counters leave a
// probe needing it, so that a remote source may fetch it afterwards for the ports that do (at
// 4,096 hosts the switches' queue series are a third of what diagnose --prometheus reads):
// - drops-buffers reads a queue's sent packets only as the share of its traffic a port dropped,
//   so a port none of whose queues dropped needs none of them. `drops` holds each queue's
//   dropped-packet counter over the samples in time order; a counter that held one value over
//   two or more samples, or read 0 in its only one, dropped nothing a probe can see.
// - switch-topology reads the bytes a port's queues sent only for a port without a sending rate
//   of its own (`port_has_rate`: TX_BPS or TX_UTIL in some sample).
// tests/fabrics/reads_test.cc checks it on every fixture as for the priorities.
struct QueueTrafficReads {
  bool packets = false;  // queue_tx_packets
  bool bytes = false;    // queue_tx_bytes
};
QueueTrafficReads probes_read_queue_traffic(const std::vector<std::vector<double>>& drops,
                                            bool port_has_rate);

}  // namespace netdoctor::probes
