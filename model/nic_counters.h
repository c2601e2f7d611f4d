// A NIC's counters in one sample, mapped to canonical metrics by the vendor's rows of the
// counter table: ethtool -S, /sys/class/net/<netdev>/statistics, and the RDMA port's
// hw_counters and counters directories. Counters the table does not map are not even read.
#pragma once

#include "base/sample_source.h"
#include "model/counter_table.h"
#include "model/fabric.h"
#include "model/source_reading.h"

namespace netdoctor::model {

// The NIC's sample at `captured_at`, each source's outcome recorded into nic.sources.
// REQUIRES: nic.vendor, device, port and netdev filled.
CounterSample read_nic_counters(SourceLog& log, const SampleSource& sample,
                                const CounterTable& table, double captured_at, Nic& nic);

}  // namespace netdoctor::model
