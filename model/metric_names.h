// The canonical metric names known when netdoctor was built (model/counters.tsv and the switch
// port metrics of model::SwitchPort), in name order. A metric value stores its name as a
// position in this table, so millions of values hold no copy of their names; a name missing
// here (a custom counter table) still works, held as text by the sample that uses it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace netdoctor::model {

using KnownMetricId = std::uint16_t;

// Position of `name` in the table; nullopt for a name it does not hold.
std::optional<KnownMetricId> known_metric_id(std::string_view name);
std::string_view known_metric_name(KnownMetricId id);
std::size_t known_metric_count();

}  // namespace netdoctor::model
