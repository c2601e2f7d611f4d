#include "plan/plan_file.h"

#include <gtest/gtest.h>

namespace netdoctor::plan {
namespace {

TEST(PlanFile, ReadsEveryKeyWithDashesOrUnderscores) {
  const auto in = parse_plan_file(R"(
nodes = 32
gpus-per-node = 8
nic_gbps = 200
nics_per_node = 8
leaf_ports = 64
leaf-port-gbps = 400
breakout = 2
oversubscription = "1:3"
spare = "25%"
rail_optimized = true
nodes_per_leaf = 8
spines = 4
spine_ports = 128
)",
                                  "plan.toml");
  ASSERT_TRUE(in.ok()) << in.error().describe();
  EXPECT_EQ(in->nodes, 32);
  EXPECT_EQ(in->gpus_per_node, 8);
  EXPECT_DOUBLE_EQ(in->nic_gbps, 200);
  EXPECT_EQ(in->leaf_ports, 64);
  EXPECT_DOUBLE_EQ(in->leaf_port_gbps, 400);
  EXPECT_EQ(in->breakout, 2);
  EXPECT_DOUBLE_EQ(in->oversubscription, 3.0);
  EXPECT_DOUBLE_EQ(in->spare, 0.25);
  EXPECT_TRUE(in->rail_optimized);
  EXPECT_EQ(in->nodes_per_leaf, 8);
  EXPECT_EQ(in->spines, 4);
  EXPECT_EQ(in->spine_ports, 128);
}

TEST(PlanFile, AcceptsAFabricTableAndNumericRatio) {
  const auto in = parse_plan_file(
      "[fabric]\nnodes = 4\nnic_gbps = 400\noversubscription = 2\n"
      "spare = 0.1\n",
      "p.toml");
  ASSERT_TRUE(in.ok()) << in.error().describe();
  EXPECT_DOUBLE_EQ(in->oversubscription, 2.0);
  EXPECT_DOUBLE_EQ(in->spare, 0.1);
}

TEST(PlanFile, RejectsUnknownKeysBadValuesAndBrokenToml) {
  auto typo = parse_plan_file("nodes = 4\nnic_gbps = 200\nleaf_prots = 64\n", "p.toml");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.error().message.find("leaf_prots"), std::string::npos);
  EXPECT_EQ(typo.error().context, "p.toml");
  EXPECT_FALSE(parse_plan_file("nodes = -4\nnic_gbps = 200\n", "p.toml").ok());
  EXPECT_FALSE(parse_plan_file("nodes = 4\nnic_gbps = 200\noversubscription = \"x\"\n", "p").ok());
  auto broken = parse_plan_file("nodes = = 4\n", "p.toml");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("line 1"), std::string::npos);
  EXPECT_FALSE(parse_plan_file("gpus_per_node = 8\n", "p.toml").ok());  // no nodes, no NIC speed
}

TEST(PlanFile, WrittenPlanReadsBackTheSame) {
  FabricInputs in;
  in.nodes = 64;
  in.nic_gbps = 400;
  in.leaf_ports = 128;
  in.leaf_port_gbps = 800;
  in.breakout = 2;
  in.oversubscription = 3;
  in.spare = 0.3;
  in.rail_optimized = true;
  const auto back = parse_plan_file(write_plan_file(in), "written");
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->nodes, 64);
  EXPECT_DOUBLE_EQ(back->leaf_port_gbps, 800);
  EXPECT_DOUBLE_EQ(back->oversubscription, 3.0);
  EXPECT_DOUBLE_EQ(back->spare, 0.3);
  EXPECT_TRUE(back->rail_optimized);
}

}  // namespace
}  // namespace netdoctor::plan
