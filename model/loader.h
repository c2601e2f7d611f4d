// The fabric loader: builds the model (model/fabric.h) from a capture Bundle, or one Host /
// Switch from a list of samples (so `collect` and the Prometheus path reuse it). Every file is
// read at most once; counters are kept only as canonical metrics (model/counters.tsv).
// Nothing here fails for missing or broken files: they are recorded per entity in its
// SourceMap (Absent / Unreadable / Malformed) and, when not merely absent, in the problems.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/bundle.h"
#include "base/result.h"
#include "model/counter_table.h"
#include "model/fabric.h"
#include "model/source_filter.h"

namespace netdoctor::model {

struct LoadOptions {
  // Hosts and switches loaded in parallel. Above 1 the bundle's sample sources are read from
  // several threads at once (directory and tar trees allow it; MemTree does not).
  int threads = 1;
  // The counter table; nullptr means the built-in one.
  const CounterTable* counters = nullptr;
  // When set, the only sources read (names of model/source_names.h) besides the inventory
  // sources, which are always read: every other source is withheld, treated as not captured
  // without being touched, recorded in its entity's SourceMap as Absent "withheld" and never a
  // problem (model/source_filter.h). For tests that prove what a reader depends on.
  std::optional<std::set<std::string>> only_sources;
};

// Fails only when the counter table cannot be loaded; everything else becomes a problem.
Result<Fabric> load_fabric(const Bundle& bundle, const LoadOptions& options = {});

// Machines loaded before the rest of their bundle (model/streamed_load.h), each with the
// problems met loading it.
struct LoadedMachines {
  std::vector<std::pair<Host, std::vector<Problem>>> hosts;
  std::vector<std::pair<Switch, std::vector<Problem>>> switches;
};

// load_fabric for a bundle whose other machines are already `loaded`: the fabric (problems in
// the same order) that load_fabric gives when the bundle holds them all.
Result<Fabric> load_fabric(const Bundle& bundle, const LoadOptions& options, LoadedMachines loaded);

// The counter table of `options`, or the built-in one kept in `builtin`.
Result<const CounterTable*> counter_table(const LoadOptions& options,
                                          std::optional<CounterTable>& builtin);

// One host from its samples in time order, reading only what `filter` admits. Problems met are
// appended to `problems`.
Host load_host(const std::string& name, const std::vector<MachineSample>& samples,
               const CounterTable& counters, std::vector<Problem>& problems,
               const SourceFilter& filter = SourceFilter());

// One SONiC switch from its samples in time order, reading only what `filter` admits.
Switch load_switch(const std::string& name, const std::vector<MachineSample>& samples,
                   std::vector<Problem>& problems, const SourceFilter& filter = SourceFilter());

// One perftest output file.
PerftestResult load_perftest(const PerftestFile& file, std::vector<Problem>& problems);

// Gives each NIC without a switch port from host LLDP the port whose LLDP table names it
// (RemoteDevice = host, RemotePortID or RemotePortDescr = netdev).
void cross_fill_switch_ports(Fabric& fabric);

}  // namespace netdoctor::model
