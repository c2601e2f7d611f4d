// A SONiC switch's PFC watchdog in one sample: `show pfcwd stats` (storms detected and restored,
// packets dropped per port and queue) and `show pfcwd config` (action and timers per port).
// Both are read under source::k_show_pfcwd.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/metric_values.h"
#include "model/source_reading.h"
#include "model/switch_ports.h"

namespace netdoctor::model {

// The sample's metric builder of a port, by name (adding the port when new).
using PortValues = std::function<MetricValues::Builder&(const std::string& port)>;

// `show pfcwd stats` (else its older spelling `pfcwd show stats`) of one sample: per queue q,
// pfcwd_storms_detected[q], pfcwd_storms_restored[q], pfcwd_tx_drops[q], pfcwd_rx_drops[q] into
// `values`; each port's PfcWatchdog queues and stormed queues replaced by this sample's. A
// config table in the same output fills ports whose config is not known yet.
void read_pfcwd_stats(SourceLog& log, const SampleSource& sample, PortIndex& ports, Switch& sw,
                      const PortValues& values);

// `show pfcwd config`: each listed port's action and timers. Read from the latest sample.
void read_pfcwd_config(SourceLog& log, const SampleSource& sample, PortIndex& ports, Switch& sw);

}  // namespace netdoctor::model
