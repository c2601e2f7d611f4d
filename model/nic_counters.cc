#include "model/nic_counters.h"

#include <algorithm>
#include <vector>

#include "base/strings.h"
#include "model/source_names.h"
#include "model/sysfs_paths.h"
#include "parsers/ethtool_stats.h"

namespace netdoctor::model {
namespace {

// Room for a NIC sample's values up front (a simulated mlx5 or bnxt NIC maps about 130).
constexpr std::size_t k_values_per_sample = 160;

void add_mapped(MetricValues::Builder& values, const CounterMapping& mapping, std::uint64_t raw) {
  const double value = static_cast<double>(raw) * mapping.scale;
  if (mapping.known_name) {
    values.add(*mapping.known_name, mapping.key.index, value);
  } else {
    values.add(mapping.key.name, mapping.key.index, value);
  }
}

// Counters mapped to a NIC sample's values. Of rows sharing a metric the table's first wins
// wherever the capture has its counter, whatever order the capture lists them in: the
// alternatives (rank > 0) are added last, in rank order, and the builder keeps the first.
class MappedValues {
 public:
  explicit MappedValues(MetricValues::Builder& values) : m_values(values) {}
  void add(const CounterMapping& mapping, std::uint64_t raw) {
    if (mapping.rank == 0) {
      add_mapped(m_values, mapping, raw);
    } else {
      m_later.push_back({&mapping, raw});
    }
  }
  // Adds the alternatives, once every source was read.
  void finish() {
    std::stable_sort(m_later.begin(), m_later.end(), [](const Later& a, const Later& b) {
      return a.mapping->rank < b.mapping->rank;
    });
    for (const Later& later : m_later) {
      add_mapped(m_values, *later.mapping, later.raw);
    }
    m_later.clear();
  }

 private:
  struct Later {
    const CounterMapping* mapping;
    std::uint64_t raw;
  };
  MetricValues::Builder& m_values;
  std::vector<Later> m_later;
};

// Whether the directory was listed.
bool read_counter_dir(SourceLog& log, const SampleSource& sample, const std::string& dir,
                      const CounterMap& map, const std::string& source, Nic& nic,
                      MappedValues& out) {
  auto entries = list_dir(log, sample, dir, source, nic.sources);
  if (!entries) {
    return false;
  }
  record_source(nic.sources, source, Availability::Observed);
  std::string path = dir + "/";
  const auto base_size = path.size();
  for (const auto& entry : *entries) {
    const auto* mapping = map.find(entry.name);
    if (mapping == nullptr) {
      continue;  // not a counter we reason about: not even read
    }
    path.resize(base_size);
    path += entry.name;
    auto text = log.read_file(sample, path, source, nic.sources);
    if (!text) {
      continue;
    }
    auto value = parse_u64(trim(*text));
    if (!value) {
      log.malformed(source, sample.display_path(path),
                    make_error(ErrorCode::Parse, "counter is not an unsigned integer"),
                    nic.sources);
      continue;
    }
    out.add(*mapping, *value);
  }
  return true;
}

// The port's record of `rdma statistic show`, mapped by the hw_counters rows.
void read_rdma_statistic(const CounterTable& table, Nic& nic, HostCounterOutputs& host,
                         MappedValues& out) {
  const parsers::RdmaStatistics* statistics = host.rdma_statistic();
  if (statistics == nullptr) {
    return;
  }
  const parsers::RdmaStatisticLink* link =
      statistics->find(nic.device, static_cast<std::uint32_t>(nic.port));
  if (link == nullptr) {
    return;
  }
  record_source(nic.sources, source::k_rdma_statistic, Availability::Observed);
  const auto& map = table.map_for(nic.vendor, CounterSource::HwCounters);
  for (const auto& [name, value] : link->counters) {
    if (const auto* mapping = map.find(name)) {
      out.add(*mapping, value);
    }
  }
}

void read_ethtool_stats(SourceLog& log, const SampleSource& sample, const CounterTable& table,
                        Nic& nic, MappedValues& values) {
  const std::vector<std::string> argv = {"ethtool", "-S", nic.netdev};
  auto text = log.command(sample, argv, source::k_ethtool_stats, nic.sources);
  if (!text) {
    return;
  }
  // Mapped line by line: the full EthtoolStats (every counter, twice) is not needed here.
  const auto& map = table.map_for(nic.vendor, CounterSource::Ethtool);
  const Status parsed =
      parsers::for_each_ethtool_stat(*text, [&](std::string_view name, std::uint64_t value) {
        if (const auto* mapping = map.find(name)) {
          values.add(*mapping, value);
        }
      });
  if (!parsed.ok()) {
    log.malformed(source::k_ethtool_stats, sample.display_command(argv), parsed.error(),
                  nic.sources);
  }
}

void read_nic_sources(SourceLog& log, const SampleSource& sample, const CounterTable& table,
                      Nic& nic, HostCounterOutputs& host, MappedValues& values) {
  if (!nic.netdev.empty()) {
    read_ethtool_stats(log, sample, table, nic, values);
    read_counter_dir(log, sample, k_sysfs_net + nic.netdev + "/statistics",
                     table.map_for(nic.vendor, CounterSource::NetdevStats), source::k_sysfs_net,
                     nic, values);
  }
  if (!nic.device.empty()) {
    const std::string port = k_sysfs_ib + nic.device + "/ports/" + std::to_string(nic.port);
    if (!read_counter_dir(log, sample, port + "/hw_counters",
                          table.map_for(nic.vendor, CounterSource::HwCounters),
                          source::k_sysfs_hw_counters, nic, values)) {
      read_rdma_statistic(table, nic, host, values);
    }
    read_counter_dir(log, sample, port + "/counters",
                     table.map_for(nic.vendor, CounterSource::IbCounters), source::k_sysfs_counters,
                     nic, values);
  }
}

}  // namespace

const parsers::RdmaStatistics* HostCounterOutputs::rdma_statistic() {
  if (!m_read) {
    m_read = true;
    m_statistics = parse_command<parsers::RdmaStatistics>(
        m_log, m_sample, {"rdma", "statistic", "show"}, source::k_rdma_statistic, m_host_sources,
        parsers::parse_rdma_statistic);
  }
  return m_statistics ? &*m_statistics : nullptr;
}

CounterSample read_nic_counters(SourceLog& log, const SampleSource& sample,
                                const CounterTable& table, double captured_at, Nic& nic,
                                HostCounterOutputs& host) {
  MetricValues::Builder values;
  values.reserve(k_values_per_sample);
  MappedValues mapped(values);
  read_nic_sources(log, sample, table, nic, host, mapped);
  mapped.finish();
  return CounterSample{captured_at, std::move(values).finish()};
}

}  // namespace netdoctor::model
