// plan check on the example capture bundles (shared/scenarios), through the real loader.
#include <gtest/gtest.h>

#include <string>

#include "base/bundle.h"
#include "model/loader.h"
#include "plan/plan_check.h"
#include "tests/support/test_paths.h"

namespace netdoctor::plan {
namespace {

CheckReport check_scenario(const std::string& name) {
  const std::string path = netdoctor::testing::shared_dir() + "/scenarios/" + name + ".tar.gz";
  auto bundle = open_bundle(path);
  EXPECT_TRUE(bundle.ok()) << path;
  if (!bundle.ok()) {
    return {};
  }
  auto fabric = model::load_fabric(*bundle);
  EXPECT_TRUE(fabric.ok());
  if (!fabric.ok()) {
    return {};
  }
  return check_fabric(*fabric, {});
}

std::vector<std::string> flagged_leaves(const CheckReport& r) {
  std::vector<std::string> out;
  for (const CheckFinding& f : r.findings) {
    if (f.severity == Severity::Problem && f.code == "oversubscribed") {
      out.push_back(f.entity);
    }
  }
  return out;
}

TEST(PlanCheckScenarios, OversubscriptionScenarioFlagsLeaf1Only) {
  const CheckReport r = check_scenario("oversubscription");
  ASSERT_EQ(r.leaves.size(), 2u);
  for (const LeafFigures& leaf : r.leaves) {
    ASSERT_TRUE(leaf.oversubscription.has_value()) << leaf.name;
    // Every leaf's ratio is downlink capacity over uplink capacity as captured.
    EXPECT_DOUBLE_EQ(*leaf.oversubscription, leaf.downlink_gbps / leaf.uplink_gbps);
  }
  EXPECT_EQ(flagged_leaves(r), std::vector<std::string>{"switch:leaf1"});
  // leaf1: 16 x 200G down, 2 x 400G up -> 3.2 : 0.8 = 4:1.
  const LeafFigures& leaf1 = r.leaves[0].name == "leaf1" ? r.leaves[0] : r.leaves[1];
  EXPECT_EQ(leaf1.downlinks, 16);
  EXPECT_EQ(leaf1.uplinks, 2);
  EXPECT_DOUBLE_EQ(*leaf1.oversubscription, 4.0);
  // It also misses two of the four spines; no problem names the healthy leaf2.
  for (const CheckFinding& f : r.findings) {
    if (f.severity == Severity::Problem) {
      EXPECT_EQ(f.entity, "switch:leaf1") << f.message;
    }
  }
}

TEST(PlanCheckScenarios, HealthyScenarioFlagsNoLeaf) {
  const CheckReport r = check_scenario("healthy");
  ASSERT_EQ(r.leaves.size(), 2u);
  EXPECT_EQ(r.spines.size(), 2u);
  for (const LeafFigures& leaf : r.leaves) {
    ASSERT_TRUE(leaf.oversubscription.has_value()) << leaf.name;
    EXPECT_DOUBLE_EQ(*leaf.oversubscription, 1.0) << leaf.name;
  }
  EXPECT_TRUE(flagged_leaves(r).empty());
  EXPECT_EQ(r.problems(), 0) << (r.findings.empty() ? "" : r.findings[0].message);
}

}  // namespace
}  // namespace netdoctor::plan
