// MetricKey: a canonical metric name (model/metric.h lists the vocabulary), qualified by an
// index where the metric has several: a priority (0..7) or a queue number.
#pragma once

#include <compare>
#include <string>

namespace netdoctor::model {

struct MetricKey {
  std::string name;  // e.g. "pfc_tx_pause_frames"
  int index = -1;    // priority or queue, -1 when not qualified
  auto operator<=>(const MetricKey&) const = default;
  std::string to_string() const;  // "pfc_tx_pause_frames[3]" or "rx_bytes"
};

}  // namespace netdoctor::model
