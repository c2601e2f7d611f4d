#include "model/metric_names.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace netdoctor::model {
namespace {

// Sorted (checked below): a position's order is its name's order, so values sort by name
// without reading the names. tests/model/metric_values_test.cc checks every metric of the
// built-in counters.tsv is here.
constexpr auto k_names = std::to_array<std::string_view>({
    "ack_timeouts",
    "cnp_handled",
    "cnp_ignored",
    "cnp_sent",
    "duplicate_requests",
    "ecn_marked_packets",
    "eth_ecn_marked_packets",
    "fcs_errors",
    "fec_corrected_bits",
    "fec_corrected_blocks",
    "fec_uncorrectable_blocks",
    "global_pause_rx_frames",
    "global_pause_tx_frames",
    "ib_excessive_buffer_overrun",
    "ib_link_downed",
    "ib_link_error_recovery",
    "ib_local_link_integrity_errors",
    "ib_rcv_errors",
    "ib_rcv_remote_physical_errors",
    "ib_rx_bytes",
    "ib_rx_packets",
    "ib_symbol_errors",
    "ib_tx_bytes",
    "ib_tx_packets",
    "ib_xmit_discards",
    "ib_xmit_wait",
    "icrc_errors",
    "implied_nak_seq_err",
    "length_error_frames",
    "link_down_events",
    "max_retry_exceeded",
    "netdev_rx_bytes",
    "netdev_rx_crc_errors",
    "netdev_rx_dropped",
    "netdev_rx_errors",
    "netdev_rx_packets",
    "netdev_tx_bytes",
    "netdev_tx_dropped",
    "netdev_tx_errors",
    "netdev_tx_packets",
    "out_of_sequence",
    "oversize_frames",
    "pause_ctrl_rx_frames",
    "pause_ctrl_tx_frames",
    "pause_storm_error_events",
    "pause_storm_warning_events",
    "pcs_symbol_errors",
    "pfc_rx_pause_frames",
    "pfc_rx_pause_transitions",
    "pfc_rx_pause_us",
    "pfc_tx_pause_frames",
    "pfc_tx_pause_us",
    "pfcwd_rx_drops",
    "pfcwd_storms_detected",
    "pfcwd_storms_restored",
    "pfcwd_tx_drops",
    "port_rx_bytes",
    "port_rx_discards",
    "port_rx_packets",
    "port_tx_bytes",
    "port_tx_discards",
    "port_tx_packets",
    "prio_ecn_marked",
    "prio_rx_buf_discards",
    "prio_rx_bytes",
    "prio_rx_cong_discards",
    "prio_rx_discards",
    "prio_rx_packets",
    "prio_tx_bytes",
    "prio_tx_packets",
    "queue_drop_bytes",
    "queue_drop_packets",
    "queue_tx_bytes",
    "queue_tx_packets",
    "rdma_out_of_buffer",
    "rdma_rx_bytes",
    "rdma_rx_discards",
    "rdma_rx_errors",
    "rdma_rx_packets",
    "rdma_tx_bytes",
    "rdma_tx_packets",
    "req_cqe_errors",
    "resp_cqe_errors",
    "retransmit_timeouts",
    "retransmits",
    "rnr_naks",
    "rx_bits",
    "rx_bps",
    "rx_buffer_passed_threshold",
    "rx_drops",
    "rx_errors",
    "rx_out_of_buffer",
    "rx_overruns",
    "rx_packets",
    "rx_util_pct",
    "seq_err_naks",
    "slow_restarts",
    "symbol_errors",
    "tx_bps",
    "tx_drops",
    "tx_errors",
    "tx_overruns",
    "tx_packets",
    "tx_util_pct",
});
static_assert(std::is_sorted(k_names.begin(), k_names.end()));
static_assert(k_names.size() < 0xffff);

// Every probe reading a counter looks its name up, millions of times a diagnosis: an open
// addressing hash table, built by the compiler, answers with one hash and one comparison.
constexpr std::size_t k_slots = 1024;  // a power of two, mostly empty: probes stay short
static_assert(k_slots > 4 * k_names.size());

constexpr std::size_t hash_of(std::string_view name) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (char c : name) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  return static_cast<std::size_t>(hash ^ (hash >> 32));
}

// Slot -> id + 1; 0 is empty.
constexpr auto k_table = [] {
  std::array<KnownMetricId, k_slots> table{};
  for (std::size_t id = 0; id < k_names.size(); ++id) {
    std::size_t slot = hash_of(k_names[id]) & (k_slots - 1);
    while (table[slot] != 0) {
      slot = (slot + 1) & (k_slots - 1);
    }
    table[slot] = static_cast<KnownMetricId>(id + 1);
  }
  return table;
}();

}  // namespace

std::optional<KnownMetricId> known_metric_id(std::string_view name) {
  for (std::size_t slot = hash_of(name) & (k_slots - 1); k_table[slot] != 0;
       slot = (slot + 1) & (k_slots - 1)) {
    const auto id = static_cast<KnownMetricId>(k_table[slot] - 1);
    if (k_names[id] == name) {
      return id;
    }
  }
  return std::nullopt;
}

std::string_view known_metric_name(KnownMetricId id) {
  return k_names[id];
}

std::size_t known_metric_count() {
  return k_names.size();
}

}  // namespace netdoctor::model
