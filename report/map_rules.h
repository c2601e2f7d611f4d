// How the map of a diagnosis opens: the metric each root cause is seen in and which cells are
// its victims. Data: kb/map/map.toml (embedded), checked against the map's metric ids on load.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "base/result.h"
#include "report/map_metrics.h"

namespace netdoctor::report {

struct CauseView {
  MetricId metric = MetricId::Utilisation;
  std::optional<MetricId> victims;  // none: the cause has no victims to mark
  double victim_floor = 0.0;        // in the victim metric's unit
  double victim_ratio = 1.0;        // times the fleet's median
  std::string why;
};

struct MapRules {
  MetricId default_metric = MetricId::Utilisation;
  std::map<std::string, CauseView, std::less<>> causes;  // by cause id
};

// The embedded rules; an error names kb/map/map.toml and the line.
Result<MapRules> load_map_rules();
// Rules from TOML text (tests).
Result<MapRules> parse_map_rules(std::string_view text, const std::string& file);

}  // namespace netdoctor::report
