// Acceptance: every example scenario of shared/scenarios diagnoses to its expected cause,
// culprit and verdict (expected.json). Nothing in the engine or kb is particular to them.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "engine/render.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

struct Expectation {
  std::string scenario;
  std::string symptom;
  std::string cause;  // empty for healthy
  std::string verdict;
  std::vector<std::string> culprits_any;
  std::string bundle;
};

// gtest prints a failing parameter with this instead of its bytes.
void PrintTo(const Expectation& expectation, std::ostream* out) {
  *out << expectation.scenario;
}

std::vector<Expectation> expectations() {
  std::vector<Expectation> out;
  auto json = nlohmann::json::parse(
      netdoctor::testing::read_text(netdoctor::testing::shared_dir() + "/scenarios/expected.json"));
  for (const auto& entry : json) {
    Expectation e;
    e.scenario = entry.at("scenario").get<std::string>();
    e.symptom = entry.at("symptom").get<std::string>();
    e.cause = entry.at("cause").is_null() ? "" : entry.at("cause").get<std::string>();
    e.verdict = entry.at("verdict").get<std::string>();
    e.culprits_any = entry.at("culprits_any").get<std::vector<std::string>>();
    e.bundle = entry.at("bundle").get<std::string>();
    out.push_back(std::move(e));
  }
  return out;
}

class Scenario : public ::testing::TestWithParam<Expectation> {};

TEST_P(Scenario, DiagnosesExpectedCauseCulpritAndVerdict) {
  const Expectation& expected = GetParam();
  DiagnoseOptions options;
  options.symptom = expected.symptom;
  auto diagnosis =
      diagnose_bundle(netdoctor::testing::shared_dir() + "/scenarios/" + expected.bundle, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string text = render_text(*diagnosis);
  EXPECT_EQ(to_string(diagnosis->verdict), expected.verdict) << text;
  if (expected.cause.empty()) {
    EXPECT_TRUE(diagnosis->causes.empty()) << text;
    return;
  }
  ASSERT_FALSE(diagnosis->causes.empty()) << text;
  const RankedCause& top = diagnosis->causes.front();
  EXPECT_EQ(top.id, expected.cause) << text;
  if (!expected.culprits_any.empty()) {
    bool named = std::any_of(expected.culprits_any.begin(), expected.culprits_any.end(),
                             [&top](const std::string& culprit) {
                               return std::find(top.entities.begin(), top.entities.end(),
                                                culprit) != top.entities.end();
                             });
    EXPECT_TRUE(named) << text;
  }
}

std::string scenario_name(const ::testing::TestParamInfo<Expectation>& param_info) {
  std::string name = param_info.param.scenario;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Shared, Scenario, ::testing::ValuesIn(expectations()), scenario_name);

}  // namespace
}  // namespace netdoctor::engine
