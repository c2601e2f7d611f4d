// The whole diagnosis pipeline, reusable by `diagnose`, `change verify` and the runbook:
// open the bundle, load the fabric model, build the probe registry, load and validate the
// kb and playbooks against it, run the engine. Data problems go into the Diagnosis; only a
// failure that leaves no diagnosis (bundle missing, kb invalid) is an Error.
#pragma once

#include <string>

#include "base/bundle.h"
#include "base/result.h"
#include "engine/diagnosis.h"
#include "engine/engine.h"
#include "kb/catalog.h"
#include "kb/known_probes.h"
#include "kb/playbook.h"
#include "kb/probe_entry.h"
#include "model/fabric.h"
#include "probes/probe.h"

namespace netdoctor::engine {

// What the kb validates against: every registered probe, its cost class and signals.
kb::KnownProbes known_probes(const probes::ProbeRegistry& registry);

struct KnowledgeBase {
  kb::ProbeEntrySet entries;  // each probe's thresholds, signal weights and manual
  kb::Catalog catalog;
  kb::PlaybookSet playbooks;
};

// The embedded kb (probe entries, causes) and playbooks, validated against `registry`.
Result<KnowledgeBase> load_knowledge_base(const probes::ProbeRegistry& registry);

// Runs the built-in probes over an already loaded fabric, with the kb's thresholds and the
// options' threshold settings.
Result<Diagnosis> diagnose_fabric(const model::Fabric& fabric, const DiagnoseOptions& options);

// Opens `bundle_path` (directory or tar), loads it and diagnoses it.
// `load_threads` > 1 loads hosts in parallel.
Result<Diagnosis> diagnose_bundle(const std::string& bundle_path, const DiagnoseOptions& options,
                                  int load_threads = 1);

// Several bundles diagnosed as one fabric (base/bundle.h open_bundles).
Result<Diagnosis> diagnose_bundles(const std::vector<std::string>& bundle_paths,
                                   const DiagnoseOptions& options, int load_threads = 1);

// The same for a bundle already open (one synthesized in memory from Prometheus).
Result<Diagnosis> diagnose_opened_bundle(const Bundle& bundle, const DiagnoseOptions& options,
                                         int load_threads = 1);

// The same for a fabric already loaded from `bundle` (the bundle's own problems are added).
Result<Diagnosis> diagnose_loaded_bundle(const Bundle& bundle, const model::Fabric& fabric,
                                         const DiagnoseOptions& options);

// The kind of fabric a capture shows, for a runbook written for it: "ib" when it has only
// InfiniBand (model::has_infiniband), "roce" when only Ethernet, "" for both or neither.
std::string fabric_kind(const model::Fabric& fabric);

}  // namespace netdoctor::engine
