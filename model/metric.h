// Canonical metrics: the vendor-neutral names every counter is mapped to (the mapping is data,
// in model/counters.tsv). A metric may be qualified by an index: a priority (0..7) for PFC and
// per-priority traffic, a queue number for switch queues.
//
// NIC vocabulary (the full list heads model/counters.tsv): PFC pfc_{rx,tx}_pause_frames[p],
// pfc_{rx,tx}_pause_us[p], pause_storm_{warning,error}_events; drops port_rx_discards,
// prio_rx_discards[p], rx_out_of_buffer; link fcs_errors, symbol_errors, pcs_symbol_errors,
// fec_corrected_bits, fec_uncorrectable_blocks, rx_bits, link_down_events; traffic
// port_{rx,tx}_{bytes,packets}, prio_{rx,tx}_{bytes,packets}[p], rdma_{rx,tx}_{bytes,packets};
// ECN/CC ecn_marked_packets, cnp_sent, cnp_handled, cnp_ignored; RDMA out_of_sequence,
// seq_err_naks, ack_timeouts, implied_nak_seq_err, duplicate_requests, rnr_naks, retransmits;
// IB PMA ib_* (ib_rx_bytes in bytes, ib_xmit_wait, ib_symbol_errors, ...); netdev_* from
// /sys/class/net statistics. Switch port metrics are listed at model::SwitchPort.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/metric_key.h"
#include "model/metric_values.h"

namespace netdoctor::model {

// One reading of a machine's counters at one instant (its own clock).
struct CounterSample {
  double captured_at = 0.0;
  MetricValues values;  // absent key = not captured (never "zero")
  std::optional<double> get(const MetricKey& key) const;
};

// How a rate came out of a sample series.
enum class RateStatus {
  Ok,            // delta / time over the window
  SingleSample,  // one sample: only the absolute value is known
  Reset,         // the counter went down (reset or wrap) in every interval: no rate
  Absent,        // the counter was not in every sample
  BadWindow,     // captured_at did not increase
};
const char* to_string(RateStatus status);

struct Rate {
  RateStatus status = RateStatus::Absent;
  double per_second = 0.0;  // valid when status == Ok
  double delta = 0.0;       // last - first, valid when status == Ok
  double window_s = 0.0;
  double last = 0.0;  // latest absolute value, valid unless Absent
  // Intervals left out of delta and window_s because the counter went down in them.
  std::size_t resets = 0;
  bool ok() const { return status == RateStatus::Ok; }
};

// Rate of `key` over the whole series (first to last sample). A decrease between two consecutive
// samples (the counter was cleared - a driver reload, a `perfquery -R` - or wrapped) leaves that
// interval's increase unknown: it is left out, and the rate is the other intervals' increase
// over their own time (`resets` counts those left out). Not Prometheus's increase(), which counts
// from zero after a decrease: that reads a wrap as a tiny increase and a clear followed by a
// restart as the whole count. Reset when no interval is left (two samples and a decrease).
Rate rate_of(const std::vector<CounterSample>& samples, const MetricKey& key);

}  // namespace netdoctor::model
