// kb/map/map.toml: what parse_map_rules refuses (and that it names the file and line), and that
// the embedded rules load and name only causes of the catalog.
#include "report/map_rules.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/pipeline.h"
#include "probes/probe.h"
#include "tests/report/report_test_util.h"

namespace netdoctor::testing {
namespace {

constexpr const char* k_file = "map-test.toml";

std::string one_cause(const std::string& body) {
  return "default_metric = \"utilisation\"\n\n[[cause]]\nid = \"pfc-storm\"\n" + body;
}

constexpr const char* k_storm_body =
    "metric = \"pause-tx\"\nvictims = \"pause-rx\"\nvictim_floor = 100.0\nvictim_ratio = 3.0\n"
    "why = \"w\"\nsource = \"s\"\n";

TEST(MapRules, AWellFormedCauseParses) {
  auto rules = report::parse_map_rules(one_cause(k_storm_body), k_file);
  ASSERT_TRUE(rules.ok()) << rules.error().describe();
  const auto& storm = rules->causes.at("pfc-storm");
  EXPECT_EQ(storm.metric, report::MetricId::PauseTx);
  ASSERT_TRUE(storm.victims.has_value());
  EXPECT_EQ(*storm.victims, report::MetricId::PauseRx);
  EXPECT_DOUBLE_EQ(storm.victim_floor, 100.0);
  EXPECT_DOUBLE_EQ(storm.victim_ratio, 3.0);
  EXPECT_EQ(rules->default_metric, report::MetricId::Utilisation);
}

void expect_refused(const std::string& text, const std::string& says, int line) {
  auto rules = report::parse_map_rules(text, k_file);
  ASSERT_FALSE(rules.ok()) << text;
  const std::string described = rules.error().describe();
  EXPECT_TRUE(has(described, says)) << described;
  EXPECT_TRUE(has(described, std::string(k_file) + ":" + std::to_string(line))) << described;
}

TEST(MapRules, AnUnknownMetricIdIsRefusedWithItsLine) {
  expect_refused(one_cause("metric = \"pause-sent\"\nwhy = \"w\"\nsource = \"s\"\n"), "pause-sent",
                 5);
  expect_refused("default_metric = \"bandwidth\"\n", "bandwidth", 1);
  expect_refused(one_cause("metric = \"drops\"\nvictims = \"victims\"\nvictim_floor = 1.0\n"
                           "victim_ratio = 2.0\nwhy = \"w\"\nsource = \"s\"\n"),
                 "victims", 6);
}

TEST(MapRules, ACauseListedTwiceIsRefused) {
  const std::string text = one_cause(k_storm_body) + "\n[[cause]]\nid = \"pfc-storm\"\n" +
                           "metric = \"drops\"\nwhy = \"w\"\nsource = \"s\"\n";
  auto rules = report::parse_map_rules(text, k_file);
  ASSERT_FALSE(rules.ok());
  EXPECT_TRUE(has(rules.error().describe(), "pfc-storm")) << rules.error().describe();
  EXPECT_TRUE(has(rules.error().describe(), "twice")) << rules.error().describe();
  EXPECT_TRUE(has(rules.error().describe(), k_file)) << rules.error().describe();
}

TEST(MapRules, VictimsNeedBothFloorAndRatio) {
  for (const char* missing : {"victim_floor", "victim_ratio"}) {
    std::string body = "metric = \"pause-tx\"\nvictims = \"pause-rx\"\n";
    if (std::string(missing) != "victim_floor") {
      body += "victim_floor = 100.0\n";
    }
    if (std::string(missing) != "victim_ratio") {
      body += "victim_ratio = 3.0\n";
    }
    body += "why = \"w\"\nsource = \"s\"\n";
    auto rules = report::parse_map_rules(one_cause(body), k_file);
    ASSERT_FALSE(rules.ok()) << missing;
    EXPECT_TRUE(has(rules.error().describe(), "victim_floor and victim_ratio"))
        << rules.error().describe();
    EXPECT_TRUE(has(rules.error().describe(), k_file)) << rules.error().describe();
  }
}

TEST(MapRules, AFloorOrRatioWithoutVictimsIsRefused) {
  for (const char* line : {"victim_floor = 100.0\n", "victim_ratio = 3.0\n"}) {
    auto rules = report::parse_map_rules(
        one_cause(std::string("metric = \"pause-tx\"\n") + line + "why = \"w\"\nsource = \"s\"\n"),
        k_file);
    ASSERT_FALSE(rules.ok()) << line;
    EXPECT_TRUE(has(rules.error().describe(), "no victims")) << rules.error().describe();
  }
}

TEST(MapRules, AnUnknownKeyIsRefusedNamingFileAndLine) {
  expect_refused(one_cause(std::string(k_storm_body) + "victim_metric = \"pause-rx\"\n"),
                 "victim_metric", 11);
  expect_refused("default_metric = \"utilisation\"\ncolour = \"red\"\n", "colour", 2);
}

TEST(MapRules, TheEmbeddedRulesLoadAndNameOnlyCatalogCauses) {
  auto rules = report::load_map_rules();
  ASSERT_TRUE(rules.ok()) << rules.error().describe();
  EXPECT_FALSE(rules->causes.empty());
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  auto knowledge = engine::load_knowledge_base(registry);
  ASSERT_TRUE(knowledge.ok()) << knowledge.error().describe();
  for (const auto& [id, view] : rules->causes) {
    EXPECT_NE(knowledge->catalog.find(id), nullptr) << id << " is not in kb/causes/";
    if (view.victims) {
      EXPECT_GT(view.victim_ratio, 0.0) << id;
      EXPECT_GE(view.victim_floor, 0.0) << id;
    }
  }
}

}  // namespace
}  // namespace netdoctor::testing
