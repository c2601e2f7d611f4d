// CounterTable: the vendor counter names of model/counters.tsv mapped to canonical metrics.
// Lookups run for every counter of every sample, so the table is expanded once ({p} -> 0..7)
// into one hash map per (vendor, source): a lookup is one hash of the counter name.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "model/metric.h"
#include "model/metric_names.h"

namespace netdoctor::model {

// Where a counter was read (the tsv's "source" column).
// Perfquery: the PMA counter names infiniband-diags prints (perfquery, ibqueryerrors), read
// from the fabric views of an InfiniBand subnet.
enum class CounterSource {
  Ethtool = 0,
  HwCounters = 1,
  IbCounters = 2,
  NetdevStats = 3,
  Perfquery = 4
};
inline constexpr std::size_t k_counter_source_count = 5;
const char* to_string(CounterSource source);  // "ethtool", "hw_counters", ...
std::optional<CounterSource> parse_counter_source(std::string_view text);

struct CounterMapping {
  MetricKey key;
  double scale = 1.0;  // raw value x scale = value in `unit`
  std::string unit;
  // key.name's place among the known metric names (model/metric_names.h), looked up once here
  // rather than for every value loaded.
  std::optional<KnownMetricId> known_name;
  // Rows of one vendor and source that share a metric are alternatives in table order: the
  // number of such rows above this one (0 = the preferred counter).
  int rank = 0;
};

// The rows that apply to one vendor and source: the vendor's own rows over the "any" rows.
class CounterMap {
 public:
  const CounterMapping* find(std::string_view counter) const;
  std::size_t size() const { return m_rows.size(); }

 private:
  friend class CounterTable;
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };
  std::unordered_map<std::string, CounterMapping, NameHash, std::equal_to<>> m_rows;
};

class CounterTable {
 public:
  // Parses the tsv text; a bad row fails with "<file_name>:<line>: why".
  static Result<CounterTable> parse(std::string_view text, std::string_view file_name);
  // The table compiled into the binary (model/counters.tsv).
  static Result<CounterTable> builtin();

  // Never fails: a vendor without rows of its own gets the "any" rows.
  const CounterMap& map_for(std::string_view vendor, CounterSource source) const;
  // One counter: nullopt when the table does not know it (unknown counters are ignored).
  std::optional<std::pair<MetricKey, double>> map(std::string_view vendor, CounterSource source,
                                                  std::string_view counter,
                                                  std::uint64_t raw) const;
  std::vector<std::string> vendors() const;  // vendors with rows of their own, and "any"
  // Every counter name some vendor's rows of `source` know ({p} expanded), sorted: what a
  // remote source need fetch (diagnose --prometheus asks only for these ethtool stats).
  std::vector<std::string> counter_names(CounterSource source) const;
  // Those whose metric `wanted` accepts (for some vendor's row).
  std::vector<std::string> counter_names(CounterSource source,
                                         const std::function<bool(const MetricKey&)>& wanted) const;
  std::size_t row_count() const { return m_row_count; }

 private:
  using SourceMaps = std::array<CounterMap, k_counter_source_count>;
  std::map<std::string, SourceMaps, std::less<>> m_by_vendor;  // merged with "any"
  CounterMap m_empty;
  std::size_t m_row_count = 0;
};

}  // namespace netdoctor::model
