// When each reported cause began, for a capture of three samples or more (two intervals or
// more). The cause's deciding signal - of the evidence found from counters
// (model::source::moving_sources), the item that weighed most - is looked for again in each
// interval's view of the fabric (model/interval_view.h) by running its probe there; the cause
// shows in an interval when the probe reports that signal for one of the cause's entities. The
// first interval where it shows is its onset; the first interval itself means it was there
// before the capture began. Each interval's deciding figure is kept as the cause's timeline: the
// rate per interval that a whole-window rate averages away.
//
// Cost: one run of each such probe per interval, so linear in the samples. Causes found only
// from configuration, perftest or logs get no onset: those figures do not move inside a capture.
#pragma once

#include <vector>

#include "engine/diagnosis.h"
#include "model/fabric.h"
#include "model/interval_view.h"
#include "probes/probe.h"

namespace netdoctor::engine {

// `views` are the capture's intervals (shared with engine/latest_interval: the frame they copy
// from the fabric is built once per diagnosis).
void find_onsets(const model::IntervalViews& views, const probes::ProbeRegistry& registry,
                 const probes::ProbeOptions& options, std::vector<RankedCause>& causes);
// The same, the views built here.
void find_onsets(const model::Fabric& fabric, const probes::ProbeRegistry& registry,
                 const probes::ProbeOptions& options, std::vector<RankedCause>& causes);

}  // namespace netdoctor::engine
