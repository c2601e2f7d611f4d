// The bundle's perftest output files into the fabric's perftest runs (load_perftest, declared
// in model/loader.h, reads one file).
#pragma once

#include <string>

#include "base/bundle.h"
#include "model/fabric.h"
#include "model/source_filter.h"

namespace netdoctor::model {

// The source a perftest file is recorded under: source::k_perftest_baseline for a baseline
// run, else source::k_perftest.
const std::string& perftest_source(const PerftestFile& file);

// Every perftest file of `bundle`, in bundle order, into fabric.perftests (problems into
// fabric.problems). A file whose source `filter` withholds is left out as if not captured, and
// recorded as withheld in its client host's SourceMap when that host is in the fabric.
// REQUIRES: fabric.hosts sorted by name.
void load_perftests(const Bundle& bundle, const SourceFilter& filter, Fabric& fabric);

}  // namespace netdoctor::model
