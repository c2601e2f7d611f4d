#include "model/ib_loader.h"

#include <utility>
#include <vector>

#include "model/ib_counters.h"
#include "model/ib_host_join.h"
#include "model/ib_topology.h"
#include "model/ib_views.h"
#include "model/source_names.h"
#include "model/source_reading.h"

namespace netdoctor::model {
namespace {

// Problems of the fabric views concern the subnet, not one host or switch.
constexpr const char* k_fabric_entity = "";

void add_topology(const IbSampleViews& views, IbTopologyBuilder& builder) {
  for (const auto& net : views.discovered) {
    builder.add_topology(net);
  }
  for (const auto& net : views.discovered) {
    builder.add_port_lines(net);
  }
  if (views.links) {
    builder.add_links(*views.links);
  }
  builder.add_nodes(views.nodes);
  if (views.errors) {
    builder.add_error_nodes(*views.errors);
  }
}

// Every port holds one (so far empty) CounterSample per fabric sample, at that sample's time.
void size_samples(IbFabric& ib) {
  for (auto& node : ib.nodes) {
    for (auto& port : node.ports) {
      port.samples.resize(ib.samples.size());
      for (std::size_t i = 0; i < ib.samples.size(); ++i) {
        port.samples[i].captured_at = ib.samples[i].captured_at;
      }
    }
  }
}

void add_managers(const IbSampleViews& views, IbFabricSample& sample) {
  sample.sm_queried = views.sminfo_ran;
  if (!views.sminfo) {
    return;  // not captured, withheld, or no SM answered
  }
  const auto& info = *views.sminfo;
  IbSubnetManager manager;
  manager.guid = info.sm_guid;
  manager.lid = info.sm_lid;
  manager.priority = info.priority;
  manager.state = info.state;
  manager.activity_count = info.activity_count;
  manager.source = source::k_sminfo;
  sample.managers.push_back(std::move(manager));
  sample.sm_answered = true;
}

}  // namespace

void load_ib_fabric(const Bundle& bundle, const SourceFilter& filter, const CounterTable& counters,
                    Fabric& fabric) {
  if (bundle.fabric_samples.empty()) {
    return;
  }
  IbFabric& ib = fabric.ib;
  SourceLog log(k_fabric_entity, fabric.problems, filter);
  std::vector<IbSampleViews> views;
  views.reserve(bundle.fabric_samples.size());
  for (const auto& sample : bundle.fabric_samples) {
    views.push_back(read_ib_views(sample, log, ib.sources));
  }
  IbTopologyBuilder builder;
  for (const auto& sample : views) {
    add_topology(sample, builder);
    IbFabricSample fabric_sample;
    fabric_sample.name = sample.name;
    fabric_sample.captured_at = sample.captured_at;
    ib.samples.push_back(std::move(fabric_sample));
  }
  ib.nodes = builder.finish();
  ib.reindex();
  size_samples(ib);
  const IbIndexes index{index_lids(ib.nodes), index_port_guids(ib.nodes), ib.captured_at()};
  const CounterMap& map = counters.map_for("any", CounterSource::Perfquery);
  for (std::size_t i = 0; i < views.size(); ++i) {
    apply_ib_counters(views[i], i, map, index, ib.nodes);
    add_managers(views[i], ib.samples[i]);
  }
  // After every sample's infiniband-diags counters (their values win, and the index above
  // stays valid): ibdiagnet may add nodes and re-sort them.
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (!views[i].diagnet.empty()) {
      apply_ibdiagnet(views[i].diagnet, i, ib, fabric.problems);
    }
  }
  join_ib_hosts(bundle, log, fabric);
}

}  // namespace netdoctor::model
