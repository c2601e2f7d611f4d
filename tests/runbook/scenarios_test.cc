// Acceptance: on every example scenario, the annotated runbook shows the deciding figure for
// the true cause (expected.json) with the fleet's normal beside it, at the step that found it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "runbook/annotate.h"
#include "runbook/library.h"
#include "runbook/render.h"
#include "runbook/runbook.h"
#include "tests/support/test_paths.h"

namespace netdoctor::runbook {
namespace {

struct Expectation {
  std::string scenario;
  std::string symptom;
  std::string cause;  // empty for healthy
  std::string bundle;
};

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
    e.bundle = entry.at("bundle").get<std::string>();
    out.push_back(std::move(e));
  }
  return out;
}

const Library& library() {
  static const auto k_library = [] {
    auto loaded = load_library();
    if (!loaded.ok()) {
      ADD_FAILURE() << loaded.error().describe();
      return std::unique_ptr<Library>();
    }
    return std::move(*loaded);
  }();
  return *k_library;
}

class AnnotatedScenario : public ::testing::TestWithParam<Expectation> {};

TEST_P(AnnotatedScenario, ShowsTheDecidingFigureBesideTheFleetNormal) {
  const Expectation& expected = GetParam();
  auto book = build_runbook(library(), expected.symptom);
  ASSERT_TRUE(book.ok()) << book.error().describe();
  engine::DiagnoseOptions options;
  options.symptom = expected.symptom;
  options.explain = true;
  auto diagnosis = engine::diagnose_bundle(
      netdoctor::testing::shared_dir() + "/scenarios/" + expected.bundle, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const AnnotatedRunbook annotated = annotate(std::move(*book), std::move(*diagnosis));
  const std::string text = render_text(annotated);
  const std::string markdown = render_markdown(annotated);
  ASSERT_EQ(annotated.steps.size(), annotated.runbook.steps.size());

  // Every step the engine ran is marked settled, every one it skipped stays open.
  for (std::size_t i = 0; i < annotated.steps.size(); ++i) {
    const StepAnnotation& note = annotated.steps[i];
    EXPECT_EQ(is_open(note.state), note.status != "ran")
        << annotated.runbook.steps[i].probe << " " << note.status;
  }

  if (expected.cause.empty()) {
    EXPECT_EQ(annotated.diagnosis.verdict, engine::Verdict::Healthy) << text;
    EXPECT_FALSE(annotated.deciding_step.has_value());
    EXPECT_NE(text.find("BUNDLE VERDICT: healthy"), std::string::npos);
    return;
  }
  ASSERT_FALSE(annotated.diagnosis.causes.empty()) << text;
  ASSERT_EQ(annotated.diagnosis.causes.front().id, expected.cause) << text;
  auto deciding = deciding_evidence(annotated.diagnosis);
  ASSERT_TRUE(deciding.has_value()) << text;
  ASSERT_TRUE(annotated.deciding_step.has_value()) << text;
  const RunbookStep& step = annotated.runbook.steps[*annotated.deciding_step];
  EXPECT_EQ(step.probe, deciding->probe);
  EXPECT_EQ(annotated.steps[*annotated.deciding_step].state, StepState::Decided);
  EXPECT_NE(text.find("DECIDING " + deciding->signal + " -> " + expected.cause), std::string::npos);

  EXPECT_TRUE(deciding->value.has_value())
      << "probe " << deciding->probe << " must fill value for signal " << deciding->signal;
  EXPECT_TRUE(deciding->fleet_normal.has_value())
      << "probe " << deciding->probe << " must fill fleet_normal for signal " << deciding->signal;

  // The figures appear side by side in both renderings.
  const std::string value = format_figure(deciding->value, deciding->unit);
  const std::string normal = format_figure(deciding->fleet_normal, deciding->unit);
  EXPECT_NE(text.find(fmt::format("value {} | fleet normal {}", value, normal)), std::string::npos)
      << text;
  EXPECT_NE(markdown.find(fmt::format("| {} | {} |", value, normal)), std::string::npos);
}

std::string scenario_name(const ::testing::TestParamInfo<Expectation>& param_info) {
  std::string name = param_info.param.scenario;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, AnnotatedScenario, ::testing::ValuesIn(expectations()),
                         scenario_name);

TEST(AnnotatedScenario, AllSixteenExamplesAreCovered) {
  EXPECT_EQ(expectations().size(), 16u);
}

TEST(CulpritCommand, FillsPlaceholdersFromEntityNames) {
  ManualCommand host{Side::Host, "ethtool -S <netdev> | grep -E 'prio3_pause'", "", 1};
  auto typed = culprit_command(
      host, {"nic:gpu-a001/mlx5_0", "netdev:gpu-a001/ens1f0np0", "port:leaf1/Ethernet0"});
  ASSERT_TRUE(typed.has_value());
  EXPECT_EQ(*typed, "gpu-a001$ ethtool -S ens1f0np0 | grep -E 'prio3_pause'");
  ManualCommand sw{Side::Switch, "show queue counters <port>", "", 1};
  auto on_switch = culprit_command(sw, {"nic:gpu-a001/mlx5_0", "port:leaf1/Ethernet0"});
  ASSERT_TRUE(on_switch.has_value());
  EXPECT_EQ(*on_switch, "leaf1# show queue counters Ethernet0");
  EXPECT_FALSE(culprit_command(sw, {"host:node02"}).has_value());
}

TEST(Annotate, StepsTheEngineSkippedStayOpen) {
  auto book = build_runbook(library(), "timeouts");
  ASSERT_TRUE(book.ok());
  engine::Diagnosis diagnosis;
  diagnosis.verdict = engine::Verdict::Inconclusive;
  diagnosis.probes.push_back({book->steps[0].probe, "ran", "", 1.0});
  diagnosis.probes.push_back({book->steps[1].probe, "skipped", "not needed: x is conclusive", 0});
  diagnosis.probes.push_back({book->steps[2].probe, "skipped", "no data for ethtool -S", 0});
  auto annotated = annotate(std::move(*book), diagnosis);
  EXPECT_EQ(annotated.steps[0].state, StepState::Quiet);
  EXPECT_EQ(annotated.steps[1].state, StepState::NotNeeded);
  EXPECT_EQ(annotated.steps[2].state, StepState::NoData);
  EXPECT_EQ(annotated.steps[3].state, StepState::NotRun);
  EXPECT_TRUE(is_open(annotated.steps[1].state));
  EXPECT_FALSE(is_open(annotated.steps[0].state));
}

}  // namespace
}  // namespace netdoctor::runbook
