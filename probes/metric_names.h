// Every canonical metric name the probes read, in one place, so that a rename in
// model/counters.tsv (host metrics) or in the SwitchPort comment of model/fabric.h (switch
// metrics) is one edit here. Indexed metrics take a priority (host) or a queue (switch).
#pragma once

namespace netdoctor::probes::metric {

// Host NIC: PFC per priority, frames and microseconds paused.
inline constexpr const char* k_pfc_rx_pause_frames = "pfc_rx_pause_frames";
inline constexpr const char* k_pfc_tx_pause_frames = "pfc_tx_pause_frames";
inline constexpr const char* k_pfc_rx_pause_us = "pfc_rx_pause_us";
inline constexpr const char* k_pfc_tx_pause_us = "pfc_tx_pause_us";
inline constexpr const char* k_pause_storm_warning_events = "pause_storm_warning_events";
inline constexpr const char* k_pause_storm_error_events = "pause_storm_error_events";

// Host NIC: drops.
inline constexpr const char* k_port_rx_discards = "port_rx_discards";
inline constexpr const char* k_prio_rx_discards = "prio_rx_discards";
inline constexpr const char* k_rx_out_of_buffer = "rx_out_of_buffer";

// Host NIC: physical layer.
inline constexpr const char* k_fcs_errors = "fcs_errors";
inline constexpr const char* k_symbol_errors = "symbol_errors";
inline constexpr const char* k_fec_corrected_bits = "fec_corrected_bits";
inline constexpr const char* k_fec_uncorrectable = "fec_uncorrectable_blocks";
inline constexpr const char* k_link_down_events = "link_down_events";
// The same facts from other sources, used when the ethtool names are absent (IB PMA
// counters, generic netdev statistics).
inline constexpr const char* k_ib_symbol_errors = "ib_symbol_errors";
inline constexpr const char* k_ib_link_downed = "ib_link_downed";
inline constexpr const char* k_netdev_rx_crc_errors = "netdev_rx_crc_errors";
inline constexpr const char* k_rx_bits = "rx_bits";

// Host NIC: traffic.
inline constexpr const char* k_prio_rx_bytes = "prio_rx_bytes";
inline constexpr const char* k_prio_tx_bytes = "prio_tx_bytes";
inline constexpr const char* k_prio_rx_packets = "prio_rx_packets";
inline constexpr const char* k_prio_tx_packets = "prio_tx_packets";
inline constexpr const char* k_port_rx_bytes = "port_rx_bytes";
inline constexpr const char* k_port_tx_bytes = "port_tx_bytes";
inline constexpr const char* k_port_rx_packets = "port_rx_packets";
inline constexpr const char* k_port_tx_packets = "port_tx_packets";
inline constexpr const char* k_rdma_rx_bytes = "rdma_rx_bytes";
inline constexpr const char* k_rdma_tx_bytes = "rdma_tx_bytes";

// Host RDMA device: congestion control and transport.
inline constexpr const char* k_ecn_marked_packets = "ecn_marked_packets";
inline constexpr const char* k_cnp_sent = "cnp_sent";
inline constexpr const char* k_cnp_handled = "cnp_handled";
inline constexpr const char* k_cnp_ignored = "cnp_ignored";
inline constexpr const char* k_out_of_sequence = "out_of_sequence";
inline constexpr const char* k_seq_err_naks = "seq_err_naks";
inline constexpr const char* k_ack_timeouts = "ack_timeouts";
inline constexpr const char* k_retransmits = "retransmits";
inline constexpr const char* k_duplicate_requests = "duplicate_requests";

// Switch port (SONiC show tables), see SwitchPort in model/fabric.h.
inline constexpr const char* k_sw_rx_packets = "rx_packets";
inline constexpr const char* k_sw_tx_packets = "tx_packets";
inline constexpr const char* k_sw_rx_errors = "rx_errors";
inline constexpr const char* k_sw_rx_drops = "rx_drops";
inline constexpr const char* k_sw_tx_drops = "tx_drops";
inline constexpr const char* k_sw_rx_bps = "rx_bps";  // a gauge: bytes/s as shown
inline constexpr const char* k_sw_tx_bps = "tx_bps";  // a gauge: bytes/s as shown
inline constexpr const char* k_sw_rx_util_pct = "rx_util_pct";
inline constexpr const char* k_sw_tx_util_pct = "tx_util_pct";
inline constexpr const char* k_sw_pfc_rx_pause_frames = "pfc_rx_pause_frames";
inline constexpr const char* k_sw_pfc_tx_pause_frames = "pfc_tx_pause_frames";
inline constexpr const char* k_sw_queue_tx_packets = "queue_tx_packets";
inline constexpr const char* k_sw_queue_tx_bytes = "queue_tx_bytes";
inline constexpr const char* k_sw_queue_drop_packets = "queue_drop_packets";
inline constexpr const char* k_sw_queue_drop_bytes = "queue_drop_bytes";
// The PFC watchdog, per queue (show pfcwd stats).
inline constexpr const char* k_sw_pfcwd_storms_detected = "pfcwd_storms_detected";
inline constexpr const char* k_sw_pfcwd_storms_restored = "pfcwd_storms_restored";
inline constexpr const char* k_sw_pfcwd_tx_drops = "pfcwd_tx_drops";
inline constexpr const char* k_sw_pfcwd_rx_drops = "pfcwd_rx_drops";
// Multicast queues are stored as queue index + this offset.
inline constexpr int k_sw_multicast_queue_offset = 100;

// InfiniBand PMA counters of a subnet port (model/ib_fabric.h IbPort::samples): data in octets,
// XmitWait in ticks (a 32-bit counter in PortCounters), discards in packets.
inline constexpr const char* k_ib_tx_bytes = "ib_tx_bytes";
inline constexpr const char* k_ib_rx_bytes = "ib_rx_bytes";
inline constexpr const char* k_ib_xmit_wait = "ib_xmit_wait";
inline constexpr const char* k_ib_xmit_discards = "ib_xmit_discards";
// Their error counters (ib-link-errors), besides ib_symbol_errors and ib_link_downed above.
inline constexpr const char* k_ib_link_error_recovery = "ib_link_error_recovery";
inline constexpr const char* k_ib_rcv_remote_physical_errors = "ib_rcv_remote_physical_errors";
inline constexpr const char* k_ib_rcv_errors = "ib_rcv_errors";
inline constexpr const char* k_ib_local_link_integrity_errors = "ib_local_link_integrity_errors";
inline constexpr const char* k_ib_excessive_buffer_overrun = "ib_excessive_buffer_overrun";

}  // namespace netdoctor::probes::metric
