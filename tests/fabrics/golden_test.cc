// Golden diagnoses: the whole JSON diagnosis (with --explain's score movements) of every shared
// scenario and of a set of simulator fabrics, kept under tests/golden/ and reviewed like code.
// Any change to a verdict, cause, culprit, evidence line, weight or probe order fails here; a
// change made on purpose is re-blessed with scripts/bless-goldens and explained in its commit.
// Only what differs between runs is normalised: probe durations and the bundle's path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "base/json_text.h"
#include "engine/pipeline.h"
#include "engine/render.h"
#include "tests/fabrics/sim_bundle.h"
#include "tests/support/test_paths.h"

namespace netdoctor::engine {
namespace {

namespace fs = std::filesystem;

struct GoldenCase {
  std::string name;     // tests/golden/<name>.json
  std::string symptom;  // empty: the simulator's expected.json says
  std::string bundle;   // a shared scenario's tarball, or empty for a simulator fabric
  std::string sim_flags;
};

void PrintTo(const GoldenCase& golden, std::ostream* out) {
  *out << golden.name;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) {
    return;
  }
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
}

std::string normalised_json(const Diagnosis& diagnosis, const std::string& bundle_path) {
  RenderOptions options;
  options.explain = true;
  nlohmann::json json = to_json(diagnosis, options);
  for (auto& probe : json.at("probes")) {
    probe["duration_ms"] = 0;
  }
  std::string text = json_text(json, 2) + "\n";
  replace_all(text, bundle_path, "<bundle>");
  return text;
}

std::vector<GoldenCase> scenario_cases() {
  std::vector<GoldenCase> out;
  const std::string dir = netdoctor::testing::shared_dir() + "/scenarios";
  std::ifstream in(dir + "/expected.json");
  if (!in) {
    return out;  // ScenarioFixturesPresent reports it
  }
  for (const auto& entry : nlohmann::json::parse(in, nullptr, false)) {
    out.push_back(GoldenCase{"scenario-" + entry.value("scenario", std::string("?")),
                             entry.value("symptom", std::string()),
                             dir + "/" + entry.value("bundle", std::string()),
                             {}});
  }
  return out;
}

std::vector<GoldenCase> simulator_cases() {
  std::vector<GoldenCase> out;
  for (const std::string fault :
       {"pfc-storm", "ecmp-imbalance", "oversubscription", "mtu-mismatch", "firmware-mismatch",
        "link-errors", "link-degraded", "buffer-exhaustion", "ecn-misconfig", "lossy-roce",
        "traffic-isolation", "clock-skew", "addressing-conflict", "small-messages",
        "baseline-regression", "pcie-degraded", "gid-mismatch"}) {
    out.push_back(GoldenCase{"sim-wide-" + fault,
                             {},
                             {},
                             "--hosts 12 --nics 8 --hosts-per-leaf 3 --seed 11 --fault " + fault});
  }
  // Broadcom hosts (no mlnx_qos) and a mixed fleet with three samples, healthy and faulted.
  out.push_back(GoldenCase{"sim-bnxt-healthy",
                           {},
                           {},
                           "--hosts 16 --nics 2 --hosts-per-leaf 8 --vendors bnxt --seed 23 "
                           "--fault healthy"});
  out.push_back(GoldenCase{"sim-bnxt-lossy-roce",
                           {},
                           {},
                           "--hosts 16 --nics 2 --hosts-per-leaf 8 --vendors bnxt --seed 23 "
                           "--fault lossy-roce"});
  out.push_back(GoldenCase{"sim-mixed3-pfc-storm-and-link-errors",
                           {},
                           {},
                           "--hosts 8 --nics 4 --vendors mlx5,bnxt --samples 3 --seed 5 "
                           "--fault pfc-storm --fault link-errors"});
  return out;
}

std::vector<GoldenCase> all_cases() {
  auto out = scenario_cases();
  for (auto& sim : simulator_cases()) {
    out.push_back(std::move(sim));
  }
  return out;
}

std::string golden_path(const GoldenCase& golden) {
  return netdoctor::testing::source_dir() + "/tests/golden/" + golden.name + ".json";
}

bool blessing() {
  const char* bless = std::getenv("NETDOCTOR_BLESS_GOLDENS");
  return bless != nullptr && std::string(bless) == "1";
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, DiagnosisIsUnchanged) {
  const GoldenCase& golden = GetParam();
  std::string bundle_path = golden.bundle;
  std::string symptom = golden.symptom;
  if (bundle_path.empty()) {
    const auto sim = netdoctor::testing::simulate(golden.name, golden.sim_flags);
    ASSERT_FALSE(sim.expected.is_null()) << golden.sim_flags;
    bundle_path = sim.path;
    symptom = sim.expected.at("symptom").get<std::string>();
  }
  DiagnoseOptions options;
  options.symptom = symptom;
  auto diagnosis = diagnose_bundle(bundle_path, options);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  const std::string actual = normalised_json(*diagnosis, bundle_path);
  const std::string path = golden_path(golden);
  if (blessing()) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
    GTEST_SKIP() << "blessed " << path;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: run scripts/bless-goldens, review it";
  const std::string expected = netdoctor::testing::read_text(path);
  EXPECT_EQ(actual, expected)
      << golden.name
      << ": the diagnosis changed. If on purpose, run scripts/bless-goldens "
         "and explain the change in the commit.";
}

INSTANTIATE_TEST_SUITE_P(Every, Golden, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& param_info) {
                           std::string name = param_info.param.name;
                           for (char& c : name) {
                             if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
                               c = '_';
                             }
                           }
                           return name;
                         });

TEST(GoldenSet, EveryGoldenFileHasItsCase) {
  std::vector<std::string> names;
  for (const auto& golden : all_cases()) {
    names.push_back(golden.name + ".json");
  }
  EXPECT_EQ(scenario_cases().size(), 16U) << "the shared scenarios are not all there";
  for (const auto& entry :
       fs::directory_iterator(netdoctor::testing::source_dir() + "/tests/golden")) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() == ".json") {
      EXPECT_NE(std::find(names.begin(), names.end(), file), names.end())
          << file << " has no case any more: delete it or restore its case";
    }
  }
}

}  // namespace
}  // namespace netdoctor::engine
