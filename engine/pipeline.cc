#include "engine/pipeline.h"

#include <algorithm>

#include "base/bundle.h"
#include "engine/thresholds.h"
#include "model/loader.h"
#include "model/streamed_load.h"

namespace netdoctor::engine {

namespace {

kb::ProbeCost kb_cost(probes::CostClass cost) {
  switch (cost) {
    case probes::CostClass::Passive:
      return kb::ProbeCost::Passive;
    case probes::CostClass::Config:
      return kb::ProbeCost::Config;
    case probes::CostClass::Active:
      return kb::ProbeCost::Active;
  }
  return kb::ProbeCost::Active;
}

}  // namespace

kb::KnownProbes known_probes(const probes::ProbeRegistry& registry) {
  kb::KnownProbes out;
  for (const probes::Probe* probe : registry.all()) {
    out.push_back(
        {probe->id(), kb_cost(probe->cost()), probe->signals(), probe->spec().thresholds});
  }
  return out;
}

Result<KnowledgeBase> load_knowledge_base(const probes::ProbeRegistry& registry) {
  const kb::KnownProbes probes = known_probes(registry);
  ND_TRY_ASSIGN(kb::ProbeEntrySet entries, kb::ProbeEntrySet::load_embedded(probes));
  ND_TRY_ASSIGN(kb::Catalog catalog, kb::Catalog::load_embedded(entries));
  ND_TRY_ASSIGN(kb::PlaybookSet playbooks, kb::PlaybookSet::load_embedded(catalog, probes));
  return KnowledgeBase{std::move(entries), std::move(catalog), std::move(playbooks)};
}

Result<Diagnosis> diagnose_fabric(const model::Fabric& fabric, const DiagnoseOptions& options) {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  ND_TRY_ASSIGN(KnowledgeBase knowledge, load_knowledge_base(registry));
  DiagnoseOptions resolved = options;
  resolved.probe_options.thresholds =
      resolve_thresholds(knowledge.entries, options.threshold_settings);
  return diagnose(fabric, knowledge.catalog, knowledge.playbooks, registry, resolved);
}

Result<Diagnosis> diagnose_bundle(const std::string& bundle_path, const DiagnoseOptions& options,
                                  int load_threads) {
  model::LoadOptions load_options;
  load_options.threads = load_threads;
  ND_TRY_ASSIGN(model::LoadedBundle loaded, model::open_and_load_bundle(bundle_path, load_options));
  return diagnose_loaded_bundle(loaded.bundle, loaded.fabric, options);
}

Result<Diagnosis> diagnose_bundles(const std::vector<std::string>& bundle_paths,
                                   const DiagnoseOptions& options, int load_threads) {
  ND_TRY_ASSIGN(Bundle bundle, open_bundles(bundle_paths));
  return diagnose_opened_bundle(bundle, options, load_threads);
}

Result<Diagnosis> diagnose_opened_bundle(const Bundle& bundle, const DiagnoseOptions& options,
                                         int load_threads) {
  model::LoadOptions load_options;
  load_options.threads = load_threads;
  ND_TRY_ASSIGN(model::Fabric fabric, model::load_fabric(bundle, load_options));
  return diagnose_loaded_bundle(bundle, fabric, options);
}

Result<Diagnosis> diagnose_loaded_bundle(const Bundle& bundle, const model::Fabric& fabric,
                                         const DiagnoseOptions& options) {
  ND_TRY_ASSIGN(Diagnosis diagnosis, diagnose_fabric(fabric, options));
  // Problems met opening the bundle, unless the loader already carried them over.
  std::vector<std::string> bundle_problems;
  for (const auto& error : bundle.problems) {
    std::string text = error.describe();
    // The loader records them as the "bundle" source's problems (model/loader.cc).
    const auto& listed = diagnosis.data_problems;
    if (std::find(listed.begin(), listed.end(), text) == listed.end() &&
        std::find(listed.begin(), listed.end(), "bundle: " + text) == listed.end()) {
      bundle_problems.push_back(std::move(text));
    }
  }
  diagnosis.data_problems.insert(diagnosis.data_problems.begin(), bundle_problems.begin(),
                                 bundle_problems.end());
  return diagnosis;
}

std::string fabric_kind(const model::Fabric& fabric) {
  const bool infiniband = model::has_infiniband(fabric);
  const bool ethernet = model::has_ethernet(fabric);
  if (infiniband != ethernet) {
    return infiniband ? "ib" : "roce";
  }
  return {};  // both kinds, or neither: every command
}

}  // namespace netdoctor::engine
