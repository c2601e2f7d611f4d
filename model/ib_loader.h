// load_ib_fabric: the InfiniBand subnet model (model/ib_fabric.h, Fabric::ib) from the fabric
// samples of a bundle (fabric/<sample>/, spec/bundle.md 1.1), after the hosts are loaded:
//   1. each sample's views read and parsed (model/ib_views.h): ibnetdiscover (both forms),
//      iblinkinfo, ibswitches/ibhosts/ibnodes, every perfquery file, ibqueryerrors, sminfo;
//   2. one node per GUID from all of them, named, cabled both ways (model/ib_topology.h);
//   3. per sample: PMA counters onto ports (model/ib_counters.h) and the subnet managers;
//   4. HCAs joined with the hosts' own view of them (model/ib_host_join.h).
// Nothing here fails: an unreadable or unparsable file is a Problem naming it (and Malformed /
// Unreadable in IbFabric::sources); the rest loads. A withheld source is not touched. Without
// fabric samples Fabric::ib stays empty.
#pragma once

#include "base/bundle.h"
#include "model/counter_table.h"
#include "model/fabric.h"
#include "model/source_filter.h"

namespace netdoctor::model {

void load_ib_fabric(const Bundle& bundle, const SourceFilter& filter, const CounterTable& counters,
                    Fabric& fabric);

}  // namespace netdoctor::model
