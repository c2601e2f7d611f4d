// A NIC's counters in one sample, mapped to canonical metrics by the vendor's rows of the
// counter table: ethtool -S, /sys/class/net/<netdev>/statistics, and the RDMA port's
// hw_counters and counters directories; where a port's hw_counters directory was not captured,
// the same counters from iproute2's `rdma statistic show` (the table's hw_counters rows: the
// tool prints the kernel's names). Counters the table does not map are not even read.
#pragma once

#include <optional>

#include "base/sample_source.h"
#include "model/counter_table.h"
#include "model/fabric.h"
#include "model/source_reading.h"
#include "parsers/rdma_statistic.h"

namespace netdoctor::model {

// The host-wide counter outputs of one sample, read once and only when a NIC needs them:
// `rdma statistic show`, the alternative to sysfs hw_counters. Its outcome is recorded into
// the host's sources.
class HostCounterOutputs {
 public:
  HostCounterOutputs(SourceLog& log, const SampleSource& sample, SourceMap& host_sources)
      : m_log(log), m_sample(sample), m_host_sources(host_sources) {}
  // nullptr when not captured, withheld, unreadable or malformed.
  const parsers::RdmaStatistics* rdma_statistic();

 private:
  SourceLog& m_log;
  const SampleSource& m_sample;
  SourceMap& m_host_sources;
  bool m_read = false;
  std::optional<parsers::RdmaStatistics> m_statistics;
};

// The NIC's sample at `captured_at`, each source's outcome recorded into nic.sources.
// REQUIRES: nic.vendor, device, port and netdev filled; `host` reads the same `sample`.
CounterSample read_nic_counters(SourceLog& log, const SampleSource& sample,
                                const CounterTable& table, double captured_at, Nic& nic,
                                HostCounterOutputs& host);

}  // namespace netdoctor::model
