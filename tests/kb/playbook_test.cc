#include "kb/playbook.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/kb/registered.h"

namespace netdoctor::kb {
namespace {

using testing::embedded_catalog;
using testing::registered;

std::string playbook_text(const std::string& candidates, const std::string& probe,
                          const std::string& why = "why") {
  return "symptom = \"timeouts\"\n"  // 1
         "title = \"Timeouts\"\n"    // 2
         "source = \"DOMAIN.md\"\n"  // 3
         "candidates = [" +
         candidates +
         "]\n"         // 4
         "\n"          // 5
         "[[step]]\n"  // 6
         "probe = \"" +
         probe +
         "\"\n"  // 7
         "why = \"" +
         why + "\"\n";  // 8
}

TEST(Playbooks, EveryEmbeddedPlaybookLoadsOnePerSymptom) {
  Catalog catalog = embedded_catalog();
  auto set = PlaybookSet::load_embedded(catalog, registered());
  ASSERT_TRUE(set.ok()) << set.error().describe();
  for (const auto& symptom : spec_symptoms()) {
    const Playbook* playbook = set->find(symptom);
    ASSERT_NE(playbook, nullptr) << symptom;
    EXPECT_FALSE(playbook->steps.empty()) << symptom;
    EXPECT_FALSE(playbook->candidates.empty()) << symptom;
  }
}

TEST(Playbooks, StepsGoFromCheapToExpensiveWithinEachPlaybook) {
  Catalog catalog = embedded_catalog();
  auto set = PlaybookSet::load_embedded(catalog, registered());
  ASSERT_TRUE(set.ok());
  // The cost class is the probe's own (the registry's), never restated in a playbook.
  auto rank = [](const std::string& probe) {
    return static_cast<int>(find_probe(registered(), probe)->cost);
  };
  for (const auto& playbook : set->playbooks()) {
    // high-latency checks MTU and firmware first, as the article says; elsewhere counters
    // come before configuration and active tests come last.
    if (playbook.symptom == "high-latency") {
      continue;
    }
    for (std::size_t i = 1; i < playbook.steps.size(); ++i) {
      EXPECT_LE(rank(playbook.steps[i - 1].probe), rank(playbook.steps[i].probe))
          << playbook.file << ":" << playbook.steps[i].line;
    }
  }
}

TEST(Playbooks, AutoPlaybookConsidersEveryCause) {
  Catalog catalog = embedded_catalog();
  auto set = PlaybookSet::load_embedded(catalog, registered());
  ASSERT_TRUE(set.ok());
  const Playbook* sweep = set->find("auto");
  ASSERT_NE(sweep, nullptr);
  EXPECT_TRUE(sweep->sweep);
  for (const auto& cause : catalog.causes()) {
    EXPECT_NE(std::find(sweep->candidates.begin(), sweep->candidates.end(), cause.id),
              sweep->candidates.end())
        << cause.id;
  }
  // ... and runs every registered probe, whether its file lists it or not.
  for (const auto& probe : registered()) {
    EXPECT_TRUE(std::any_of(sweep->steps.begin(), sweep->steps.end(),
                            [&probe](const PlaybookStep& step) { return step.probe == probe.id; }))
        << probe.id;
  }
}

TEST(Playbooks, UnknownProbeIsRejectedWithFileAndLine) {
  Catalog catalog = embedded_catalog();
  auto playbook = parse_playbook(playbook_text("\"clock-skew\"", "ntp-probe"),
                                 "playbooks/timeouts.toml", catalog, registered());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:7");
  EXPECT_NE(playbook.error().message.find("ntp-probe"), std::string::npos);
}

TEST(Playbooks, UnknownCauseIsRejectedWithFileAndLine) {
  Catalog catalog = embedded_catalog();
  auto playbook = parse_playbook(playbook_text("\"clock-skew\", \"gremlins\"", "clock"),
                                 "playbooks/timeouts.toml", catalog, registered());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:4");
  EXPECT_NE(playbook.error().message.find("gremlins"), std::string::npos);
}

TEST(Playbooks, AStepRestatingTheProbesCostIsRejected) {
  // The cost class is the probe's own: a playbook that writes it again could only disagree.
  Catalog catalog = embedded_catalog();
  auto playbook = parse_playbook(playbook_text("\"clock-skew\"", "clock") + "cost = \"passive\"\n",
                                 "playbooks/timeouts.toml", catalog, registered());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:9");
}

TEST(Playbooks, ASweepAddsWhatItDoesNotListAfterItsCostClass) {
  Catalog catalog = embedded_catalog();
  std::string text = playbook_text("\"clock-skew\"", "mtu") + "\n";
  text.insert(text.find("candidates"), "sweep = true\n");
  auto playbook = parse_playbook(text, "playbooks/auto.toml", catalog, registered());
  ASSERT_TRUE(playbook.ok()) << playbook.error().describe();
  EXPECT_EQ(playbook->candidates.front(), "clock-skew");
  EXPECT_EQ(playbook->candidates.size(), catalog.causes().size());
  ASSERT_EQ(playbook->steps.size(), registered().size());
  // The passive probes come before the one listed config probe, the other config ones after.
  const auto listed = std::find_if(playbook->steps.begin(), playbook->steps.end(),
                                   [](const PlaybookStep& step) { return step.line > 0; });
  ASSERT_NE(listed, playbook->steps.end());
  EXPECT_EQ(listed->probe, "mtu");
  for (auto step = playbook->steps.begin(); step != listed; ++step) {
    EXPECT_EQ(find_probe(registered(), step->probe)->cost, ProbeCost::Passive) << step->probe;
  }
  for (auto step = listed + 1; step != playbook->steps.end(); ++step) {
    EXPECT_NE(find_probe(registered(), step->probe)->cost, ProbeCost::Passive) << step->probe;
  }
}

TEST(Playbooks, UnknownKeyIsRejectedWithFileAndLine) {
  Catalog catalog = embedded_catalog();
  std::string text = playbook_text("\"clock-skew\"", "clock") + "timeout = 5\n";
  auto playbook = parse_playbook(text, "playbooks/timeouts.toml", catalog, registered());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:9");
  EXPECT_NE(playbook.error().message.find("timeout"), std::string::npos);
}

TEST(Playbooks, StopRuleDefaultsAndOverrides) {
  Catalog catalog = embedded_catalog();
  std::string text = playbook_text("\"clock-skew\"", "clock") + "\n[stop]\nmin_score = 4.5\n";
  auto playbook = parse_playbook(text, "playbooks/timeouts.toml", catalog, registered());
  ASSERT_TRUE(playbook.ok()) << playbook.error().describe();
  EXPECT_DOUBLE_EQ(playbook->stop.min_score, 4.5);
  EXPECT_DOUBLE_EQ(playbook->stop.min_margin, StopRule{}.min_margin);
}

}  // namespace
}  // namespace netdoctor::kb
