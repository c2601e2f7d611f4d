#include "kb/playbook.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "documented_probes.h"

namespace netdoctor::kb {
namespace {

using testing::documented_probes;

Catalog embedded_catalog() {
  auto catalog = Catalog::load_embedded(documented_probes());
  EXPECT_TRUE(catalog.ok()) << catalog.error().describe();
  return catalog.ok() ? std::move(catalog).value() : Catalog();
}

std::string playbook_text(const std::string& candidates, const std::string& probe,
                          const std::string& cost) {
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
         "cost = \"" +
         cost + "\"\n";  // 8
}

TEST(Playbooks, EveryEmbeddedPlaybookLoadsOnePerSymptom) {
  Catalog catalog = embedded_catalog();
  auto set = PlaybookSet::load_embedded(catalog, documented_probes());
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
  auto set = PlaybookSet::load_embedded(catalog, documented_probes());
  ASSERT_TRUE(set.ok());
  auto rank = [](const std::string& cost) {
    return cost == "passive" ? 0 : cost == "config" ? 1 : 2;
  };
  for (const auto& playbook : set->playbooks()) {
    // high-latency checks MTU and firmware first, as the article says; elsewhere counters
    // come before configuration and active tests come last.
    if (playbook.symptom == "high-latency") {
      continue;
    }
    for (std::size_t i = 1; i < playbook.steps.size(); ++i) {
      EXPECT_LE(rank(playbook.steps[i - 1].cost), rank(playbook.steps[i].cost))
          << playbook.file << ":" << playbook.steps[i].line;
    }
  }
}

TEST(Playbooks, AutoPlaybookConsidersEveryCause) {
  Catalog catalog = embedded_catalog();
  auto set = PlaybookSet::load_embedded(catalog, documented_probes());
  ASSERT_TRUE(set.ok());
  const Playbook* sweep = set->find("auto");
  ASSERT_NE(sweep, nullptr);
  for (const auto& id : spec_cause_ids()) {
    EXPECT_NE(std::find(sweep->candidates.begin(), sweep->candidates.end(), id),
              sweep->candidates.end())
        << id;
  }
}

TEST(Playbooks, UnknownProbeIsRejectedWithFileAndLine) {
  Catalog catalog = embedded_catalog();
  auto playbook = parse_playbook(playbook_text("\"clock-skew\"", "ntp-probe", "passive"),
                                 "playbooks/timeouts.toml", catalog, documented_probes());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:7");
  EXPECT_NE(playbook.error().message.find("ntp-probe"), std::string::npos);
}

TEST(Playbooks, UnknownCauseIsRejectedWithFileAndLine) {
  Catalog catalog = embedded_catalog();
  auto playbook = parse_playbook(playbook_text("\"clock-skew\", \"gremlins\"", "clock", "passive"),
                                 "playbooks/timeouts.toml", catalog, documented_probes());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:4");
  EXPECT_NE(playbook.error().message.find("gremlins"), std::string::npos);
}

TEST(Playbooks, CostClassMustMatchTheProbe) {
  Catalog catalog = embedded_catalog();
  auto playbook = parse_playbook(playbook_text("\"clock-skew\"", "clock", "active"),
                                 "playbooks/timeouts.toml", catalog, documented_probes());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:8");
}

TEST(Playbooks, UnknownKeyIsRejectedWithFileAndLine) {
  Catalog catalog = embedded_catalog();
  std::string text = playbook_text("\"clock-skew\"", "clock", "passive") + "timeout = 5\n";
  auto playbook = parse_playbook(text, "playbooks/timeouts.toml", catalog, documented_probes());
  ASSERT_FALSE(playbook.ok());
  EXPECT_EQ(playbook.error().context, "playbooks/timeouts.toml:9");
  EXPECT_NE(playbook.error().message.find("timeout"), std::string::npos);
}

TEST(Playbooks, StopRuleDefaultsAndOverrides) {
  Catalog catalog = embedded_catalog();
  std::string text =
      playbook_text("\"clock-skew\"", "clock", "passive") + "\n[stop]\nmin_score = 4.5\n";
  auto playbook = parse_playbook(text, "playbooks/timeouts.toml", catalog, documented_probes());
  ASSERT_TRUE(playbook.ok()) << playbook.error().describe();
  EXPECT_DOUBLE_EQ(playbook->stop.min_score, 4.5);
  EXPECT_DOUBLE_EQ(playbook->stop.min_margin, StopRule{}.min_margin);
}

}  // namespace
}  // namespace netdoctor::kb
