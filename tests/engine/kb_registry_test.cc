// The embedded kb and playbooks against the real probe registry.
#include <gtest/gtest.h>

#include "engine/pipeline.h"

namespace netdoctor::engine {
namespace {

TEST(KbAgainstRegistry, EveryCauseAndPlaybookReferencesOnlyRegisteredProbesAndSignals) {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  ASSERT_FALSE(registry.all().empty());
  auto knowledge = load_knowledge_base(registry);
  ASSERT_TRUE(knowledge.ok()) << knowledge.error().describe();
  EXPECT_EQ(knowledge->entries.entries().size(), registry.all().size());
  for (const auto& playbook : knowledge->playbooks.playbooks()) {
    for (const auto& step : playbook.steps) {
      EXPECT_NE(registry.find(step.probe), nullptr) << playbook.file << ":" << step.line;
    }
    for (const auto& id : playbook.candidates) {
      EXPECT_NE(knowledge->catalog.find(id), nullptr) << playbook.file;
    }
  }
}

TEST(KbAgainstRegistry, EverySignalAProbeEmitsIsWeighedBySomeCause) {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  auto knowledge = load_knowledge_base(registry);
  ASSERT_TRUE(knowledge.ok()) << knowledge.error().describe();
  for (const probes::Probe* probe : registry.all()) {
    for (const auto& signal : probe->signals()) {
      bool weighed = false;
      for (const auto& cause : knowledge->catalog.causes()) {
        for (const auto& rule : cause.supports) {
          weighed = weighed || (rule.probe == probe->id() && rule.signal == signal);
        }
        for (const auto& rule : cause.against) {
          weighed = weighed || (rule.probe == probe->id() && rule.signal == signal);
        }
      }
      EXPECT_TRUE(weighed) << probe->id() << " / " << signal << " moves no score";
    }
  }
}

}  // namespace
}  // namespace netdoctor::engine
