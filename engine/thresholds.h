// The numbers the probes judge by: each threshold's value from its kb entry
// (kb/probes/<probe>.toml, kb/probes/fleet.toml), replaced by the site's value where the site
// configuration set one (keyed by the threshold's setting key, "pfc-pause.min_pause_rate").
#pragma once

#include <map>
#include <string>

#include "kb/probe_entry.h"
#include "probes/probe.h"

namespace netdoctor::engine {

using ThresholdSettings = std::map<std::string, double, std::less<>>;

probes::ThresholdBook resolve_thresholds(const kb::ProbeEntrySet& entries,
                                         const ThresholdSettings& site);

}  // namespace netdoctor::engine
