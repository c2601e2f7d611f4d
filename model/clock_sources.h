// A host's clock from whichever view of it was captured. chronyc tracking is the system
// clock's own account and comes first; then linuxptp (phc2sys steering the system clock, or
// ptp4l's servo, from their logs; pmc's TIME_STATUS_NP / CURRENT_DATA_SET); then the source
// tables of chronyc sources and ntpq -p, whose selected source's offset stands for the host's.
// ClockState::source says which view was used.
#pragma once

#include "base/sample_source.h"
#include "model/fabric.h"
#include "model/source_reading.h"
#include "parsers/chronyc_tracking.h"

namespace netdoctor::model {

// Fills `clock` from `tracking` when captured, else from the first other view that parses.
void read_clock(SourceLog& log, const SampleSource& sample,
                const std::optional<parsers::ChronyTracking>& tracking, SourceMap& sources,
                ClockState& clock);

}  // namespace netdoctor::model
