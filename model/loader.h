// The fabric loader: builds the model (model/fabric.h) from a capture Bundle, or one Host /
// Switch from a list of samples (so `collect` and the Prometheus path reuse it). Every file is
// read at most once; counters are kept only as canonical metrics (model/counters.tsv).
// Nothing here fails for missing or broken files: they are recorded per entity in its
// SourceMap (Absent / Unreadable / Malformed) and, when not merely absent, in the problems.
#pragma once

#include <string>
#include <vector>

#include "base/bundle.h"
#include "base/result.h"
#include "model/counter_table.h"
#include "model/fabric.h"

namespace netdoctor::model {

struct LoadOptions {
  // Hosts and switches loaded in parallel. Above 1 the bundle's sample sources are read from
  // several threads at once (directory and tar trees allow it; MemTree does not).
  int threads = 1;
  // The counter table; nullptr means the built-in one.
  const CounterTable* counters = nullptr;
};

// Fails only when the counter table cannot be loaded; everything else becomes a problem.
Result<Fabric> load_fabric(const Bundle& bundle, const LoadOptions& options = {});

// One host from its samples in time order. Problems met are appended to `problems`.
Host load_host(const std::string& name, const std::vector<MachineSample>& samples,
               const CounterTable& counters, std::vector<Problem>& problems);

// One SONiC switch from its samples in time order.
Switch load_switch(const std::string& name, const std::vector<MachineSample>& samples,
                   std::vector<Problem>& problems);

// One perftest output file.
PerftestResult load_perftest(const PerftestFile& file, std::vector<Problem>& problems);

// Gives each NIC without a switch port from host LLDP the port whose LLDP table names it
// (RemoteDevice = host, RemotePortID or RemotePortDescr = netdev).
void cross_fill_switch_ports(Fabric& fabric);

}  // namespace netdoctor::model
