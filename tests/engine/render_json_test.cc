#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "engine/render.h"

namespace netdoctor::engine {
namespace {

Diagnosis sample_diagnosis() {
  Diagnosis diagnosis;
  diagnosis.symptom = "slowdown";
  diagnosis.verdict = Verdict::RootCauseFound;
  RankedCause cause;
  cause.id = "pfc-storm";
  cause.title = "PFC storm";
  cause.confidence = 0.94;
  cause.entities = {"nic:node07/mlx5_2", "port:leaf2/Ethernet28"};
  EvidenceItem item;
  item.probe = "pfc-pause";
  item.signal = "pfc-storm-origin";
  item.summary = "node07/mlx5_2 sends 41k pause frames/s on priority 3";
  item.weight = 5.0;
  item.value = 41000.0;
  item.fleet_normal = 200.0;
  item.unit = "frames/s";
  cause.evidence.push_back(item);
  cause.remediation = {"drain node07"};
  cause.next_change =
      NextChange{"nic:node07/mlx5_2", "pfc-storm-origin isolated", "in service", "drained",
                 "drain it",          "re-run pfc-pause"};
  diagnosis.causes.push_back(cause);
  diagnosis.probes.push_back({"pfc-pause", "ran", "", 12.5});
  diagnosis.probes.push_back({"perftest-baseline", "skipped", "no perftest runs in bundle", 0.0});
  diagnosis.data_problems.push_back("host:node03: ethtool -S: unreadable");
  return diagnosis;
}

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) {
    keys.insert(key);
  }
  return keys;
}

TEST(RenderJson, TopLevelMatchesTheSpecKeyByKey) {
  auto json = nlohmann::json::parse(render_json(sample_diagnosis()));
  EXPECT_EQ(json.at("format"), "netdoctor-diagnosis");
  EXPECT_EQ(json.at("version"), 1);
  EXPECT_TRUE(json.at("version").is_number_integer());
  EXPECT_EQ(json.at("symptom"), "slowdown");
  EXPECT_EQ(json.at("verdict"), "root-cause-found");
  EXPECT_TRUE(json.at("causes").is_array());
  EXPECT_TRUE(json.at("probes").is_array());
  const std::set<std::string> allowed = {"format",    "version",       "symptom",
                                         "verdict",   "causes",        "probes",
                                         "ruled_out", "data_problems", "explain"};
  for (const auto& key : keys_of(json)) {
    EXPECT_TRUE(allowed.count(key)) << key;
  }
  EXPECT_FALSE(json.contains("explain"));  // only with --explain
}

TEST(RenderJson, CauseCarriesIdConfidenceEntitiesEvidenceRemediation) {
  auto json = nlohmann::json::parse(render_json(sample_diagnosis()));
  const auto& cause = json.at("causes").at(0);
  EXPECT_EQ(cause.at("id"), "pfc-storm");
  EXPECT_TRUE(cause.at("confidence").is_number());
  EXPECT_DOUBLE_EQ(cause.at("confidence").get<double>(), 0.94);
  EXPECT_EQ(cause.at("entities"), nlohmann::json({"nic:node07/mlx5_2", "port:leaf2/Ethernet28"}));
  const auto& evidence = cause.at("evidence").at(0);
  EXPECT_EQ(evidence.at("probe"), "pfc-pause");
  EXPECT_TRUE(evidence.at("summary").is_string());
  EXPECT_EQ(cause.at("remediation"), nlohmann::json({"drain node07"}));
  EXPECT_EQ(cause.at("next_change").at("verify"), "re-run pfc-pause");
  EXPECT_EQ(cause.at("title"), "PFC storm");
}

TEST(RenderJson, ProbesKeepRunOrderAndReasonOnlyWhenSkippedOrFailed) {
  auto json = nlohmann::json::parse(render_json(sample_diagnosis()));
  const auto& probes = json.at("probes");
  ASSERT_EQ(probes.size(), 2u);
  EXPECT_EQ(probes[0].at("id"), "pfc-pause");
  EXPECT_EQ(probes[0].at("status"), "ran");
  EXPECT_FALSE(probes[0].contains("reason"));
  EXPECT_DOUBLE_EQ(probes[0].at("duration_ms").get<double>(), 12.5);
  EXPECT_EQ(probes[1].at("status"), "skipped");
  EXPECT_EQ(probes[1].at("reason"), "no perftest runs in bundle");
  for (const auto& probe : probes) {
    std::set<std::string> allowed = {"id", "status", "reason", "duration_ms"};
    for (const auto& key : keys_of(probe)) {
      EXPECT_TRUE(allowed.count(key)) << key;
    }
  }
}

TEST(RenderJson, HealthyHasEmptyCausesAndExplainOnRequest) {
  Diagnosis diagnosis;
  diagnosis.symptom = "timeouts";
  diagnosis.verdict = Verdict::Healthy;
  diagnosis.explain.push_back({"clock-skew", "clock", "clock-ok", -5.0, "clearing"});
  RenderOptions options;
  options.explain = true;
  auto json = nlohmann::json::parse(render_json(diagnosis, options));
  EXPECT_EQ(json.at("verdict"), "healthy");
  EXPECT_TRUE(json.at("causes").empty());
  ASSERT_EQ(json.at("explain").size(), 1u);
  EXPECT_EQ(json.at("explain")[0].at("delta"), -5.0);
}

TEST(RenderText, FirstLineNamesVerdictCulpritAndCause) {
  RenderOptions options;
  options.incident = "42";
  std::string text = render_text(sample_diagnosis(), options);
  std::string first = text.substr(0, text.find('\n'));
  EXPECT_NE(first.find("ROOT CAUSE"), std::string::npos);
  EXPECT_NE(first.find("pfc-storm"), std::string::npos);
  EXPECT_NE(first.find("nic:node07/mlx5_2"), std::string::npos);
  EXPECT_NE(text.find("fleet normal 200 frames/s"), std::string::npos);
  EXPECT_NE(text.find("netdoctor change record --incident 42 --entity nic:node07/mlx5_2 --var "
                      "'pfc-storm-origin isolated' --from 'in service' --to drained"),
            std::string::npos);
  // Data problems come last.
  EXPECT_GT(text.find("Data problems"), text.find("Probes"));
}

TEST(RenderMarkdown, HasTablesAndTheChangeCommandInACodeBlock) {
  std::string markdown = render_markdown(sample_diagnosis());
  EXPECT_NE(markdown.find("| probe | evidence | value | fleet normal |"), std::string::npos);
  EXPECT_NE(markdown.find("```sh\nnetdoctor change record"), std::string::npos);
  EXPECT_NE(markdown.find("| perftest-baseline | skipped |"), std::string::npos);
}

TEST(RenderText, ChangeRecordCommandQuotesOnlyWhatNeedsIt) {
  // '@', '%' and '+' are quoted here although a shell would take them bare (base's default):
  // the rendered diagnoses have always quoted them.
  NextChange change{"nic:a/mlx5_0", "two words", "it's", "a+b@c%d", "", ""};
  EXPECT_EQ(change_record_command(change, "7"),
            "netdoctor change record --incident 7 --entity nic:a/mlx5_0 --var 'two words' "
            "--from 'it'\\''s' --to 'a+b@c%d'");
  change.to = "";
  EXPECT_EQ(change_record_command(change, "<N>"),
            "netdoctor change record --incident '<N>' --entity nic:a/mlx5_0 --var 'two words' "
            "--from 'it'\\''s' --to ''");
}

}  // namespace
}  // namespace netdoctor::engine
