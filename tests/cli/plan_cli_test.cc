// `netdoctor plan ...` run in-process through run_cli, as a user would type it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

CliRun run(std::vector<std::string> args) {
  args.insert(args.begin(), "netdoctor");
  std::ostringstream out;
  std::ostringstream err;
  CliRun r;
  r.code = run_cli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string scenario(const std::string& name) {
  return netdoctor::testing::shared_dir() + "/scenarios/" + name + ".tar.gz";
}

TEST(PlanCli, FabricArticleExampleTextNamesCorrectCountsAndTheUndercount) {
  const CliRun r = run({"plan", "fabric", "--nodes", "32", "--gpus-per-node", "8", "--nic-gbps",
                        "200", "--nodes-per-leaf", "8", "--spines", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "4 leaves of 8 nodes, 4 spines")) << r.out;
  EXPECT_TRUE(has(r.out, "64 x 200G on 32 ports (breakout 2)")) << r.out;
  EXPECT_TRUE(has(r.out, "32 x 400G (= 64 x 200G)")) << r.out;
  EXPECT_TRUE(has(r.out, "source article")) << r.out;
  EXPECT_TRUE(has(r.out, "Next growth step (64 nodes)")) << r.out;
  EXPECT_TRUE(has(r.out, "Assumptions")) << r.out;
}

TEST(PlanCli, FabricJsonCarriesTheFiguresAndTheGrowthStep) {
  const CliRun r = run({"plan", "fabric", "--nodes", "32", "--nic-gbps", "200", "--nodes-per-leaf",
                        "8", "--spines", "4", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["leaves"], 4);
  EXPECT_EQ(j["leaf"]["downlinks"], 8 * 8);
  EXPECT_EQ(j["leaf"]["uplinks"], 8 * 8 * 200 / 400);
  EXPECT_EQ(j["spines"], 4);
  EXPECT_EQ(j["spine_ports_used"], 4 * 32 / 4);
  EXPECT_EQ(j["growth"]["nodes"], 64);
  EXPECT_EQ(j["growth"]["added_leaves"], 4);
}

TEST(PlanCli, FabricOneToThreeAndRailOptimized) {
  const CliRun three = run({"plan", "fabric", "--nodes", "32", "--nic-gbps", "200",
                            "--oversubscription", "1:3", "--format", "json"});
  ASSERT_EQ(three.code, 0) << three.err;
  const auto j = nlohmann::json::parse(three.out);
  EXPECT_LE(j["leaf"]["oversubscription"].get<double>(), 3.0);
  EXPECT_GT(j["leaf"]["oversubscription"].get<double>(), 1.0);
  const CliRun rail =
      run({"plan", "fabric", "--nodes", "32", "--nic-gbps", "200", "--rail-optimized"});
  ASSERT_EQ(rail.code, 0) << rail.err;
  EXPECT_TRUE(has(rail.out, "Rail-optimized: 1 rail group(s) of 32 nodes x 8 rail leaves"))
      << rail.out;
}

TEST(PlanCli, FabricImpossibleDesignExitsOneWithTheReason) {
  const CliRun r = run({"plan", "fabric", "--nodes", "1000", "--nic-gbps", "400"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "third tier")) << r.err;
}

TEST(PlanCli, FabricBadFlagsExitTwo) {
  EXPECT_EQ(
      run({"plan", "fabric", "--nodes", "32", "--nic-gbps", "200", "--oversubscription", "fast"})
          .code,
      2);
  EXPECT_EQ(run({"plan", "fabric", "--nodes", "0", "--nic-gbps", "200"}).code, 2);
  EXPECT_EQ(run({"plan", "fabric", "--nic-gbps", "200"}).code, 2);
  EXPECT_EQ(run({"plan", "fabric", "--nodes", "4", "--nic-gbps", "200", "--spare", "150%"}).code,
            2);
}

TEST(PlanCli, TrafficJsonMatchesHandArithmetic) {
  const CliRun r = run({"plan", "traffic", "--params", "70e9", "--dtype", "bf16", "--parallelism",
                        "dp=32,tp=1,pp=1", "--zero", "3", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // 70e9 x 2 bytes = 140 GB; ZeRO-3 over 32 ranks: 3 x 31/32 x 140 GB per GPU.
  EXPECT_DOUBLE_EQ(j["model_bytes"].get<double>(), 140e9);
  ASSERT_EQ(j["collectives"].size(), 1u);
  EXPECT_DOUBLE_EQ(j["collectives"][0]["bytes_per_gpu"].get<double>(), 3.0 * 31 / 32 * 140e9);
  EXPECT_TRUE(j["collectives"][0]["crosses_network"].get<bool>());
}

TEST(PlanCli, TrafficTextStatesFormulasAndPlacement) {
  const CliRun r = run({"plan", "traffic", "--params", "70e9", "--parallelism", "dp=32,tp=8,pp=1",
                        "--tokens", "16384", "--hidden", "8192", "--layers", "80"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "2 x (n-1)/n x S = 2 x 31/32 x 17.5 GB")) << r.out;
  EXPECT_TRUE(has(r.out, "inside the node (NVLink/PCIe)")) << r.out;
  EXPECT_TRUE(has(r.out, "headroom")) << r.out;
}

TEST(PlanCli, TrafficBadParallelismExitsTwo) {
  EXPECT_EQ(run({"plan", "traffic", "--params", "70e9", "--parallelism", "dp=zero"}).code, 2);
  EXPECT_EQ(
      run({"plan", "traffic", "--params", "70e9", "--parallelism", "dp=2", "--dtype", "int3"}).code,
      2);
}

TEST(PlanCli, CheckFlagsTheOversubscribedLeafOfTheScenario) {
  const CliRun r =
      run({"plan", "check", "--bundle", scenario("oversubscription"), "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> flagged;
  for (const auto& f : j["findings"]) {
    if (f["code"] == "oversubscribed") {
      flagged.push_back(f["entity"]);
    }
  }
  EXPECT_EQ(flagged, std::vector<std::string>{"switch:leaf1"});
  ASSERT_EQ(j["leaves"].size(), 2u);
  for (const auto& leaf : j["leaves"]) {
    EXPECT_FALSE(leaf["oversubscription"].is_null()) << leaf["name"];
  }
}

TEST(PlanCli, CheckHealthyScenarioHasNoProblem) {
  const CliRun r = run({"plan", "check", "--bundle", scenario("healthy")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "0 problem(s)")) << r.out;
  EXPECT_TRUE(has(r.out, "leaf1")) << r.out;
}

TEST(PlanCli, CheckAgainstAPlanFile) {
  const std::string dir = netdoctor::testing::make_temp_dir("plan_cli");
  const std::string good = dir + "/plan.toml";
  {
    std::ofstream f(good);
    f << "nodes = 8\ngpus_per_node = 4\nnic_gbps = 200\nleaf_ports = 32\nleaf_port_gbps = 400\n"
         "nodes_per_leaf = 4\nspines = 2\n";
  }
  const CliRun r =
      run({"plan", "check", "--bundle", scenario("healthy"), "--plan", good, "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["from_plan"].get<bool>());
  // 16 x 200G on 8 ports + 8 uplinks = 16 of 32 ports: 50 % spare.
  EXPECT_DOUBLE_EQ(j["leaves"][0]["spare_fraction"].get<double>(), 0.5);
  EXPECT_EQ(j["problems"], 0);

  const std::string bad = dir + "/bad.toml";
  {
    std::ofstream f(bad);
    f << "nodes = 8\nnic_gbps = 200\nleaf_prots = 32\n";
  }
  const CliRun e = run({"plan", "check", "--bundle", scenario("healthy"), "--plan", bad});
  EXPECT_EQ(e.code, 2);
  EXPECT_TRUE(has(e.err, "leaf_prots")) << e.err;
}

TEST(PlanCli, CheckMissingBundleExitsOne) {
  EXPECT_EQ(run({"plan", "check", "--bundle", "/nonexistent/bundle.tar.gz"}).code, 1);
}

}  // namespace
}  // namespace netdoctor::cli
