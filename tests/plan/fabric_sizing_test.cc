#include "plan/fabric_sizing.h"

#include <gtest/gtest.h>

#include <string>

namespace netdoctor::plan {
namespace {

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& line : lines) {
    if (line.find(part) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// The source article's section 3: 32 nodes x 8 GPUs, one 200G NIC per GPU, 4 leaves of 8
// nodes, 1:1, 4 spines, leaves of 64 x 400G ports broken out 2 x 200G.
FabricInputs article_example() {
  FabricInputs in;
  in.nodes = 32;
  in.gpus_per_node = 8;
  in.nic_gbps = 200;
  in.leaf_ports = 64;
  in.leaf_port_gbps = 400;
  in.oversubscription = 1.0;
  in.nodes_per_leaf = 8;
  in.spines = 4;
  return in;
}

TEST(FabricSizing, ArticleExampleCountsEveryNicNotOnePortPerNode) {
  auto d = size_fabric(article_example());
  ASSERT_TRUE(d.ok()) << d.error().describe();
  EXPECT_EQ(d->leaves, 32 / 8);
  EXPECT_EQ(d->inputs.nics_per_node, 8);  // one NIC per GPU by default
  EXPECT_EQ(d->inputs.breakout, 400 / 200);
  // 8 nodes x 8 NICs = 64 downlinks of 200G per leaf (the article said 8).
  EXPECT_EQ(d->leaf.downlinks, 8 * 8);
  EXPECT_EQ(d->leaf.downlink_ports, 64 / 2);
  EXPECT_DOUBLE_EQ(d->leaf.downlink_gbps, 64 * 200.0);  // 12.8 Tb/s
  // 1:1 needs 12.8 Tb/s up = 64 x 200G = 32 x 400G.
  EXPECT_EQ(d->leaf.uplinks, 64 * 200 / 400);
  EXPECT_DOUBLE_EQ(d->leaf.uplink_gbps, 64 * 200.0);
  EXPECT_DOUBLE_EQ(d->leaf.oversubscription, 1.0);
  // 4 spines, each 4 leaves x 32 / 4 = 32 x 400G (= 64 x 200G).
  EXPECT_EQ(d->spines, 4);
  EXPECT_EQ(d->links_per_leaf_per_spine, 32 / 4);
  EXPECT_EQ(d->spine_ports_used, 4 * 32 / 4);
  EXPECT_EQ(d->spine_ports_used * 400, 64 * 200);
  // Cables: 256 NICs, 4 x 32 breakout cables, 4 x 32 leaf-spine links.
  EXPECT_EQ(d->host_cables, 32 * 8);
  EXPECT_EQ(d->breakout_cables, 4 * 32);
  EXPECT_EQ(d->leaf_spine_cables, 4 * 32);
  EXPECT_EQ(d->optics, 256 + 128 + 2 * 128);
  // 32 + 32 = all 64 ports of the leaf: nothing left of the 20 % spare.
  EXPECT_EQ(d->leaf.ports_used, 64);
  EXPECT_EQ(d->leaf.spare_ports, 0);
  EXPECT_FALSE(d->spare_met);
  EXPECT_TRUE(any_contains(d->warnings, "below the 20% target"));
  EXPECT_TRUE(any_contains(d->notes, "64 x 200G per leaf"));
  EXPECT_TRUE(any_contains(d->notes, "(8 x 200G, as the source article"));
  EXPECT_TRUE(any_contains(d->notes, "undercounts"));
}

TEST(FabricSizing, ArticleExampleOn200GPortsGives64DownAnd64UpAnd64PortSpines) {
  FabricInputs in = article_example();
  in.leaf_ports = 128;
  in.leaf_port_gbps = 200;
  auto d = size_fabric(in);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  EXPECT_EQ(d->inputs.breakout, 1);
  EXPECT_EQ(d->leaf.downlinks, 64);
  EXPECT_EQ(d->leaf.uplinks, 64);
  EXPECT_EQ(d->spines, 4);
  EXPECT_EQ(d->spine_ports_used, 4 * 64 / 4);
}

TEST(FabricSizing, AutomaticLayoutKeepsTheSpareTarget) {
  FabricInputs in = article_example();
  in.nodes_per_leaf = 0;
  in.spines = 0;
  auto d = size_fabric(in);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  // 64 ports, 20 % spare -> at most 64 - ceil(12.8) = 51 used; a node takes 8/2 = 4 down
  // ports and 8 x 200 / 400 = 4 uplinks, so 6 nodes (48 ports) per leaf, ceil(32 / 6) = 6 leaves.
  EXPECT_EQ(d->leaf.nodes, 6);
  EXPECT_EQ(d->leaves, 6);
  EXPECT_EQ(d->nodes_on_last_leaf, 32 - 5 * 6);
  EXPECT_EQ(d->leaf.ports_used, 48);
  EXPECT_TRUE(d->spare_met);
  // 6 leaves x 24 uplinks = 144 spine ports -> at least ceil(144 / 64) = 3 spines, 8 each.
  EXPECT_EQ(d->spines, 3);
  EXPECT_EQ(d->spine_ports_used, 6 * 24 / 3);
}

TEST(FabricSizing, OneToThreeDesignRoundsUplinksToSpreadOverSpines) {
  FabricInputs in = article_example();
  in.nodes_per_leaf = 0;
  in.spines = 0;
  auto ratio = parse_oversubscription("1:3");
  ASSERT_TRUE(ratio.ok());
  in.oversubscription = *ratio;
  EXPECT_DOUBLE_EQ(in.oversubscription, 3.0);
  auto d = size_fabric(in);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  // Per node: 4 down ports + 8 x 200 / (3 x 400) = 1.33 uplinks; 9 nodes = 36 + 12 = 48 fit,
  // 10 do not (40 + 14); ceil(32 / 9) = 4 leaves of ceil(32 / 4) = 8 nodes.
  EXPECT_EQ(d->leaves, 4);
  EXPECT_EQ(d->leaf.downlinks, 64);
  // 64 x 200 / (3 x 400) = 10.67 -> 11 uplinks, rounded to 12 to split over 2 spines.
  EXPECT_EQ(d->leaf.uplinks, 12);
  EXPECT_EQ(d->spines, 2);
  EXPECT_NEAR(d->leaf.oversubscription, 12800.0 / 4800.0, 1e-9);
  EXPECT_LE(d->leaf.oversubscription, 3.0);
  EXPECT_TRUE(d->warnings.empty());
}

TEST(FabricSizing, RailOptimizedPutsNicIOfEveryNodeOnRailLeafI) {
  FabricInputs in = article_example();
  in.nodes_per_leaf = 0;
  in.spines = 0;
  in.rail_optimized = true;
  auto d = size_fabric(in);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  // One rail group holds all 32 nodes (a rail leaf takes 1 downlink per node: 50 would fit).
  EXPECT_EQ(d->rail_groups, 1);
  EXPECT_EQ(d->leaves, 8);  // one leaf per rail = per NIC of a node
  EXPECT_EQ(d->leaf.downlinks, 32);
  EXPECT_EQ(d->leaf.downlinks * d->leaves, 32 * 8);  // every NIC still has its downlink
  EXPECT_EQ(d->leaf.uplinks, 32 * 200 / 400);
  EXPECT_EQ(d->spines, 2);
  EXPECT_EQ(d->spine_ports_used, 8 * 16 / 2);
  EXPECT_DOUBLE_EQ(d->leaf.oversubscription, 1.0);
}

TEST(FabricSizing, GrowthToSixtyFourNodesFillsTheSpinesWithoutRecabling) {
  auto d = size_fabric(article_example());
  ASSERT_TRUE(d.ok());
  const GrowthStep g = plan_growth(*d, 64);
  ASSERT_TRUE(g.possible) << g.refusal;
  EXPECT_EQ(g.design.leaves, 8);
  EXPECT_EQ(g.added_leaves, 4);
  // 8 leaves x 32 uplinks / 4 spines = 64: the spines' 64 ports are now full.
  EXPECT_EQ(g.added_spines, 0);
  EXPECT_EQ(g.design.spine_ports_used, 64);
  EXPECT_FALSE(g.recable_existing_uplinks);
  EXPECT_EQ(g.added_host_cables, 32 * 8);
  EXPECT_EQ(g.added_leaf_spine_cables, 4 * 32);
}

TEST(FabricSizing, GrowthThatNeedsMoreSpinesSaysExistingUplinksMove) {
  FabricInputs in = article_example();
  in.nodes_per_leaf = 0;
  in.spines = 0;
  in.rail_optimized = true;
  auto d = size_fabric(in);
  ASSERT_TRUE(d.ok());
  const GrowthStep g = plan_growth(*d, 64);
  ASSERT_TRUE(g.possible) << g.refusal;
  // 16 rail leaves x 16 uplinks = 256 spine ports: 2 spines of 64 are not enough, 4 are.
  EXPECT_EQ(g.design.leaves, 16);
  EXPECT_EQ(g.design.spines, 4);
  EXPECT_EQ(g.added_spines, 2);
  EXPECT_TRUE(g.recable_existing_uplinks);
}

TEST(FabricSizing, OneToOneBeyondTwoTiersIsRefusedWithThirdTierReason) {
  FabricInputs in;
  in.nodes = 1000;
  in.nic_gbps = 400;
  auto d = size_fabric(in);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::Refused);
  EXPECT_NE(d.error().message.find("third tier"), std::string::npos) << d.error().message;
}

TEST(FabricSizing, NicFasterThanLeafPortIsRefused) {
  FabricInputs in;
  in.nodes = 4;
  in.nic_gbps = 800;
  auto d = size_fabric(in);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::Refused);
  EXPECT_NE(d.error().message.find("800G"), std::string::npos);
}

TEST(FabricSizing, BreakoutBelowNicSpeedIsRefused) {
  FabricInputs in = article_example();
  in.breakout = 4;  // 4 x 100G legs cannot carry a 200G NIC
  auto d = size_fabric(in);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::Refused);
  EXPECT_NE(d.error().message.find("100G"), std::string::npos);
}

TEST(FabricSizing, PinnedLeafThatOverflowsItsPortsIsRefused) {
  FabricInputs in = article_example();
  in.nodes_per_leaf = 9;  // 36 down ports + 36 uplinks > 64
  auto d = size_fabric(in);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::Refused);
  EXPECT_NE(d.error().message.find("72 ports"), std::string::npos) << d.error().message;
}

TEST(FabricSizing, MeaninglessInputsAreInvalidArguments) {
  FabricInputs in = article_example();
  in.nodes = 0;
  EXPECT_EQ(size_fabric(in).error().code, ErrorCode::InvalidArgument);
  in = article_example();
  in.spare = 1.5;
  EXPECT_EQ(size_fabric(in).error().code, ErrorCode::InvalidArgument);
  EXPECT_FALSE(parse_oversubscription("fast").ok());
  EXPECT_FALSE(parse_oversubscription("1:0").ok());
  EXPECT_FALSE(parse_fraction("lots").ok());
}

TEST(FabricSizing, SmallClusterFitsOnOneLeafWithoutSpines) {
  FabricInputs in = article_example();
  in.nodes = 4;
  in.nodes_per_leaf = 0;
  in.spines = 0;
  auto d = size_fabric(in);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  EXPECT_EQ(d->leaves, 1);
  EXPECT_EQ(d->spines, 0);
  EXPECT_EQ(d->leaf.uplinks, 0);
  EXPECT_EQ(d->leaf.downlink_ports, 4 * 8 / 2);
}

TEST(FabricSizing, RatiosAndFractionsParse) {
  EXPECT_DOUBLE_EQ(parse_oversubscription("1:1").value(), 1.0);
  EXPECT_DOUBLE_EQ(parse_oversubscription("3:1").value(), 3.0);
  EXPECT_DOUBLE_EQ(parse_oversubscription("2").value(), 2.0);
  EXPECT_DOUBLE_EQ(parse_fraction("20%").value(), 0.2);
  EXPECT_DOUBLE_EQ(parse_fraction("0.25").value(), 0.25);
  EXPECT_DOUBLE_EQ(parse_fraction("15").value(), 0.15);
  EXPECT_EQ(format_ratio(4.0), "4:1");
  EXPECT_EQ(format_ratio(2.0 / 3.0 * 4.0), "2.67:1");
}

}  // namespace
}  // namespace netdoctor::plan
