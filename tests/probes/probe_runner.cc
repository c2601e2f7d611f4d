#include "tests/probes/probe_runner.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/pipeline.h"
#include "engine/thresholds.h"

namespace netdoctor::testing {

namespace {
const probes::ProbeRegistry& registry() {
  static const probes::ProbeRegistry instance = [] {
    probes::ProbeRegistry r;
    probes::register_builtin_probes(r);
    return r;
  }();
  return instance;
}
}  // namespace

probes::ThresholdBook kb_thresholds(const std::map<std::string, double, std::less<>>& site) {
  static const kb::ProbeEntrySet entries = [] {
    auto loaded = kb::ProbeEntrySet::load_embedded(engine::known_probes(registry()));
    EXPECT_TRUE(loaded.ok()) << loaded.error().describe();
    return loaded.ok() ? std::move(loaded).value() : kb::ProbeEntrySet();
  }();
  return engine::resolve_thresholds(entries, site);
}

probes::ProbeResult run_probe(const std::string& id, const model::Fabric& fabric,
                              probes::ProbeOptions options,
                              const std::map<std::string, double, std::less<>>& site) {
  options.thresholds = kb_thresholds(site);
  const probes::Probe* probe = registry().find(id);
  if (probe == nullptr) {
    ADD_FAILURE() << "no probe " << id;
    return {};
  }
  probes::ProbeContext context{fabric, options};
  probes::ProbeResult result = probe->run(context);
  EXPECT_EQ(result.probe_id, id);
  EXPECT_TRUE(undeclared_signals(id, result).empty());
  return result;
}

const std::set<std::string>& clearing_signals() {
  static const std::set<std::string> signals = [] {
    std::set<std::string> out;
    for (const probes::Probe* probe : registry().all()) {
      out.insert(probe->spec().clearing);
    }
    return out;
  }();
  return signals;
}

std::vector<std::string> registered_ids() {
  std::vector<std::string> ids;
  for (const probes::Probe* probe : registry().all()) {
    ids.push_back(probe->id());
  }
  return ids;
}

std::vector<probes::Finding> with_signal(const probes::ProbeResult& result,
                                         const std::string& signal) {
  std::vector<probes::Finding> out;
  std::copy_if(result.findings.begin(), result.findings.end(), std::back_inserter(out),
               [&](const probes::Finding& f) { return f.signal == signal; });
  return out;
}

bool names(const probes::Finding& finding, const std::string& entity) {
  return std::find(finding.entities.begin(), finding.entities.end(), entity) !=
         finding.entities.end();
}

std::vector<std::string> undeclared_signals(const std::string& id,
                                            const probes::ProbeResult& result) {
  std::vector<std::string> out;
  const probes::Probe* probe = registry().find(id);
  if (probe == nullptr) {
    return out;
  }
  auto declared = probe->signals();
  for (const auto& finding : result.findings) {
    if (std::find(declared.begin(), declared.end(), finding.signal) == declared.end()) {
      out.push_back(finding.signal);
    }
    EXPECT_GE(finding.strength, 0.0);
    EXPECT_LE(finding.strength, 1.0);
    EXPECT_FALSE(finding.summary.empty());
  }
  return out;
}

}  // namespace netdoctor::testing
