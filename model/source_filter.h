// SourceFilter: which data sources (model/source_names.h) a load may read. By default every
// one. Narrowed to an allow-list (LoadOptions::only_sources), every other source is withheld:
// the loader treats it exactly as not captured, without touching the sample for it, records it
// in the entity's SourceMap as Absent with the detail "withheld", and never reports a Problem
// for it. The inventory sources (source::inventory_sources()) are always admitted, so a
// narrowed load still finds the same hosts, NICs, names, vendors and sample times.
//
// This exists to prove what a reader depends on: load with only the sources it declares and
// compare its results with a full load.
#pragma once

#include <optional>
#include <set>
#include <string>

namespace netdoctor::model {

class SourceFilter {
 public:
  // Admits every source.
  SourceFilter() = default;
  // Admits the sources of `only` and the inventory sources; every source when `only` is
  // nullopt. REQUIRES: `only` outlives this filter (it is not copied).
  explicit SourceFilter(const std::optional<std::set<std::string>>& only);

  bool admits(const std::string& source) const;

 private:
  const std::set<std::string>* m_only = nullptr;  // nullptr: every source
};

// The SourceMap detail of a withheld source.
inline constexpr const char* k_withheld = "withheld";

}  // namespace netdoctor::model
