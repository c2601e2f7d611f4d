// The bundle's nccl/<job>/ files (spec/bundle.md 1.1) into the fabric's NCCL jobs: every file
// of a job is read through the bundle's tree and given to both parsers, since nccl-tests run
// with NCCL_DEBUG=INFO prints its table amid the log lines. Per host: the HCAs NCCL used, the
// network, GPUDirect RDMA per HCA, channels by transport, NCCL_* settings and warnings; per job:
// the nccl-tests bus bandwidth. Hosts join to the fabric's by name (or short name); a file that
// is neither is a problem naming it, and the rest loads.
#pragma once

#include "base/bundle.h"
#include "model/fabric.h"
#include "model/source_filter.h"

namespace netdoctor::model {

// Fills fabric.nccl_jobs (sorted by name) and records the source nccl as Observed in each
// joined host's SourceMap. Does nothing when `filter` withholds source::k_nccl.
// REQUIRES: fabric.hosts sorted by name.
void load_nccl_jobs(const Bundle& bundle, const SourceFilter& filter, Fabric& fabric);

}  // namespace netdoctor::model
