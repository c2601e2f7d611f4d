// The bundle's sweep/*.json files (docs/sweep.md: format "netdoctor-sweep", version 1) into
// the fabric's sweeps: what active tests concluded, for the probe that weighs them
// (probes/active_sweep.cc). A file that is not such a sweep is a problem naming it; the rest
// loads.
#pragma once

#include "base/bundle.h"
#include "model/fabric.h"
#include "model/source_filter.h"

namespace netdoctor::model {

// Fills fabric.sweeps (sorted by file). Does nothing when `filter` withholds source::k_sweep.
void load_sweeps(const Bundle& bundle, const SourceFilter& filter, Fabric& fabric);

}  // namespace netdoctor::model
