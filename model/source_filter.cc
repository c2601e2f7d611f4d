#include "model/source_filter.h"

#include "model/source_names.h"

namespace netdoctor::model {

SourceFilter::SourceFilter(const std::optional<std::set<std::string>>& only)
    : m_only(only ? &*only : nullptr) {}

bool SourceFilter::admits(const std::string& source) const {
  return m_only == nullptr || m_only->count(source) != 0 ||
         source::inventory_sources().count(source) != 0;
}

}  // namespace netdoctor::model
