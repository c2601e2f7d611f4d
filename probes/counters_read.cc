#include "probes/counters_read.h"

#include <algorithm>
#include <array>

namespace netdoctor::probes {

namespace {
namespace m = metric;
// Every host NIC metric of probes/metric_names.h. Of the InfiniBand PMA metrics an HCA's sysfs
// counters also become, those read on a NIC: link-errors falls back to symbol errors and link
// downs, the fabric picture adds receive errors and recoveries to a NIC's link errors and takes
// its traffic from the data counters when ethtool has none. The InfiniBand probes read the
// others (XmitWait, discards, ...) of the subnet's ports, from perfquery or ibdiagnet, not of
// a NIC's samples.
constexpr auto k_nic_metrics_read = std::to_array<std::string_view>({
    m::k_pfc_rx_pause_frames,
    m::k_pfc_tx_pause_frames,
    m::k_pfc_rx_pause_us,
    m::k_pfc_tx_pause_us,
    m::k_pause_storm_warning_events,
    m::k_pause_storm_error_events,
    m::k_port_rx_discards,
    m::k_prio_rx_discards,
    m::k_rx_out_of_buffer,
    m::k_fcs_errors,
    m::k_symbol_errors,
    m::k_fec_corrected_bits,
    m::k_fec_uncorrectable,
    m::k_link_down_events,
    m::k_ib_symbol_errors,
    m::k_ib_link_downed,
    m::k_ib_link_error_recovery,
    m::k_ib_rcv_errors,
    m::k_netdev_rx_crc_errors,
    m::k_rx_bits,
    m::k_prio_rx_bytes,
    m::k_prio_tx_bytes,
    m::k_prio_rx_packets,
    m::k_prio_tx_packets,
    m::k_port_rx_bytes,
    m::k_port_tx_bytes,
    m::k_port_rx_packets,
    m::k_port_tx_packets,
    m::k_rdma_rx_bytes,
    m::k_rdma_tx_bytes,
    m::k_ecn_marked_packets,
    m::k_cnp_sent,
    m::k_cnp_handled,
    m::k_cnp_ignored,
    m::k_out_of_sequence,
    m::k_seq_err_naks,
    m::k_ack_timeouts,
    m::k_retransmits,
    m::k_duplicate_requests,
    m::k_ib_tx_bytes,
    m::k_ib_rx_bytes,
    // The fabric picture's link-error cell adds it to the others.
    "pcs_symbol_errors",
});
}  // namespace

bool probes_read_nic_metric(std::string_view metric) {
  return std::find(k_nic_metrics_read.begin(), k_nic_metrics_read.end(), metric) !=
         k_nic_metrics_read.end();
}

bool probes_read_priority(std::string_view name, int priority, int roce_priority) {
  return priority == roce_priority ||
         std::find(k_read_on_every_priority.begin(), k_read_on_every_priority.end(), name) !=
             k_read_on_every_priority.end();
}

bool probes_read_switch_interface_metric(std::string_view metric) {
  // link-errors reads the receive errors, switch-topology the rates; the fabric picture adds
  // the sent errors and both directions' drops.
  static constexpr auto k_read = std::to_array<std::string_view>(
      {m::k_sw_rx_errors, "tx_errors", m::k_sw_rx_drops, m::k_sw_tx_drops, m::k_sw_rx_bps,
       m::k_sw_tx_bps, m::k_sw_rx_util_pct, m::k_sw_tx_util_pct});
  return std::find(k_read.begin(), k_read.end(), metric) != k_read.end();
}

bool probes_read_switch_pfc_priority(int priority, int roce_priority) {
  return priority == roce_priority;
}

bool probes_read_switch_queue_metric(std::string_view name) {
  return std::find(k_switch_queue_metrics_read.begin(), k_switch_queue_metrics_read.end(), name) !=
         k_switch_queue_metrics_read.end();
}

namespace {
bool dropped(const std::vector<double>& counter) {
  if (counter.size() == 1) {
    return counter.front() != 0.0;
  }
  return std::adjacent_find(counter.begin(), counter.end(), [](double a, double b) {
           return !(a == b);  // NaN counts as a change: nothing is assumed of it
         }) != counter.end();
}
}  // namespace

QueueTrafficReads probes_read_queue_traffic(const std::vector<std::vector<double>>& drops,
                                            bool port_has_rate) {
  return {std::any_of(drops.begin(), drops.end(), dropped), !port_has_rate};
}

}  // namespace netdoctor::probes
