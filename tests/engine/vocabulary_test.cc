// One vocabulary: probe ids, cost classes, reads, signals and threshold names are defined once,
// by the probes in the registry (their ProbeSpec). The kb entries describe exactly those (the
// loader refuses anything else), and nothing else lists them by hand.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "probes/probe.h"

namespace netdoctor::engine {
namespace {

probes::ProbeRegistry registry() {
  probes::ProbeRegistry out;
  probes::register_builtin_probes(out);
  return out;
}

TEST(Vocabulary, EveryProbesEntryDescribesExactlyItsSignalsAndThresholds) {
  const auto registered = registry();
  auto knowledge = load_knowledge_base(registered);
  ASSERT_TRUE(knowledge.ok()) << knowledge.error().describe();
  for (const probes::Probe* probe : registered.all()) {
    const kb::ProbeEntry* entry = knowledge->entries.find(probe->id());
    ASSERT_NE(entry, nullptr) << probe->id();
    std::vector<std::string> signals;
    for (const auto& signal : entry->signals) {
      signals.push_back(signal.id);
      EXPECT_FALSE(signal.means.empty()) << probe->id() << " / " << signal.id;
    }
    EXPECT_EQ(signals, probe->signals()) << probe->id();
    std::set<std::string> thresholds;
    for (const auto& threshold : entry->thresholds) {
      thresholds.insert(threshold.name);
    }
    const auto& declared = probe->spec().thresholds;
    EXPECT_EQ(thresholds, std::set<std::string>(declared.begin(), declared.end())) << probe->id();
  }
}

TEST(Vocabulary, ProbeIdsAreUniqueAndTheClearingSignalIsNotAFinding) {
  const auto registered = registry();
  std::set<std::string> ids;
  for (const probes::Probe* probe : registered.all()) {
    EXPECT_TRUE(ids.insert(probe->id()).second) << probe->id();
    const auto& spec = probe->spec();
    EXPECT_FALSE(spec.clearing.empty()) << probe->id();
    EXPECT_EQ(std::count(spec.findings.begin(), spec.findings.end(), spec.clearing), 0)
        << probe->id();
    EXPECT_FALSE(spec.reads.empty()) << probe->id();
  }
}

}  // namespace
}  // namespace netdoctor::engine
