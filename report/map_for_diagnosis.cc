// The map of a diagnosis as `diagnose` makes it: the probe thresholds resolved as the diagnosis
// resolved them (the kb's values with the site's settings), so the XmitWait tick is the same.
#include "engine/pipeline.h"
#include "engine/thresholds.h"
#include "report/fabric_map.h"

namespace netdoctor::report {

Result<FabricMap> map_for_diagnosis(const model::Fabric& fabric, const engine::Diagnosis& diagnosis,
                                    const engine::DiagnoseOptions& options) {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  ND_TRY_ASSIGN(engine::KnowledgeBase knowledge, engine::load_knowledge_base(registry));
  MapOptions map_options;
  map_options.roce_priority = options.probe_options.roce_priority;
  map_options.thresholds =
      engine::resolve_thresholds(knowledge.entries, options.threshold_settings);
  return build_fabric_map(fabric, diagnosis, map_options);
}

}  // namespace netdoctor::report
