// `netdoctor diagnose` on bundles that `netdoctor collect` captured live from ibsim with one
// fault injected the way it happens on a real subnet. Each test names the cause the diagnosis
// must rank first and the culprit entity it must blame (spec/bundle.md "Entity names": a switch
// is its description without "MF0;" and ":<model>/<unit>", or 0x<guid> when not unique).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/ibsim/collect_run.h"

namespace netdoctor::testing {
namespace {

struct Diagnosis {
  std::string top_cause;
  std::vector<std::string> culprits;  // the top cause's entities
  std::string text;                   // the whole JSON, for failure messages
};

Diagnosis diagnose(const IbsimFabric& fabric, const std::string& bundle) {
  RunOptions options;
  options.sandbox = fabric.dir();
  options.timeout_s = 120;
  const RunOutput run = run_netdoctor(
      {"diagnose", "--bundle", bundle, "--symptom", "slowdown", "--format", "json", "--no-record"},
      options);
  Diagnosis diagnosis;
  diagnosis.text = run.out + run.err;
  const auto json = nlohmann::json::parse(run.out, nullptr, false);
  if (json.is_discarded() || !json.contains("causes") || json["causes"].empty()) {
    ADD_FAILURE() << "no causes in the diagnosis:\n" << diagnosis.text;
    return diagnosis;
  }
  const auto& top = json["causes"][0];
  diagnosis.top_cause = top.value("id", "");
  for (const auto& entity : top.value("entities", nlohmann::json::array())) {
    diagnosis.culprits.push_back(entity.get<std::string>());
  }
  return diagnosis;
}

bool blames(const Diagnosis& diagnosis, const std::string& entity) {
  return std::find(diagnosis.culprits.begin(), diagnosis.culprits.end(), entity) !=
         diagnosis.culprits.end();
}

std::string port_counter(const std::string& node, int port, const std::string& assignment) {
  return "PerformanceSet \"" + node + "\"[" + std::to_string(port) + "] PortCounters." + assignment;
}

TEST(IbsimDiagnose, SymbolErrorsClimbingOnASwitchPortAreLinkErrorsThere) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const auto collected = collect_with_change(fabric, 4, [&] {
    fabric.console(port_counter(leaf_description(2), 3, "SymbolErrorCounter=5000"));
    fabric.console(port_counter(leaf_description(2), 3, "PortRcvErrors=800"));
  });
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "link-errors") << diagnosis.text;
  EXPECT_TRUE(blames(diagnosis, "port:leaf-02/3")) << diagnosis.text;
}

TEST(IbsimDiagnose, XmitWaitTreeRootedAtOneHostIsCongestionOfThatHca) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  // node01 receives slowly: its leaf's port toward it waits most, the spines' ports toward that
  // leaf wait too (the tree of victims behind the root), with data flowing.
  const auto collected = collect_with_change(fabric, 4, [&] {
    fabric.console(port_counter(leaf_description(1), 1, "PortXmitWait=400000000"));
    fabric.console(port_counter(leaf_description(1), 1, "PortXmitData=900000000"));
    for (int spine = 1; spine <= 2; ++spine) {
      fabric.console(port_counter(spine_description(spine), 1, "PortXmitWait=150000000"));
      fabric.console(port_counter(spine_description(spine), 1, "PortXmitData=400000000"));
    }
  });
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "ib-congestion") << diagnosis.text;
  EXPECT_TRUE(blames(diagnosis, "nic:node01/mlx5_0")) << diagnosis.text;
  EXPECT_FALSE(blames(diagnosis, "port:spine-01/1")) << "a victim, not the root";
}

TEST(IbsimDiagnose, APortTrainedAt1xIsLinkDegradedThere) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const unsigned leaf = fabric.lid_of(leaf_description(2));
  ASSERT_GT(leaf, 0u);
  ASSERT_EQ(fabric.run({"ibportstate", std::to_string(leaf), "3", "width", "1"}).exit_code, 0);
  const auto collected = collect(fabric, {"--fabric"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "link-degraded") << diagnosis.text;
  EXPECT_TRUE(blames(diagnosis, "port:leaf-02/3")) << diagnosis.text;
}

// A host's cable pulled before the capture: the HCA is in no view of the subnet, its leaf port
// Down / Polling like an unused one; the leaf, one HCA short of the others with a gap in its
// block of HCA ports, names the port.
TEST(IbsimDiagnose, AnHcaCableUnlinkedIsLinkDegradedAtItsLeafPort) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  fabric.console("Unlink \"" + leaf_description(3) + "\"[3]");
  const auto collected = collect(fabric, {"--fabric"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "link-degraded") << diagnosis.text;
  EXPECT_TRUE(blames(diagnosis, "port:leaf-03/3")) << diagnosis.text;
}

TEST(IbsimDiagnose, NoSubnetManagerLeavesPortsInitializeAndIsSubnetManager) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  const auto collected = collect(fabric, {"--fabric"});  // opensm never started
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "subnet-manager") << diagnosis.text;
  // No SM to blame: the switches whose ports wait in Initialize are named.
  EXPECT_TRUE(blames(diagnosis, "switch:leaf-01")) << diagnosis.text;
}

TEST(IbsimDiagnose, AMasterSmThatDiedIsSubnetManagerOnItsHost) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));  // opensm runs on node01's HCA
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const auto collected = collect_with_change(fabric, 4, [&] { fabric.stop_opensm(); });
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "subnet-manager") << diagnosis.text;
  EXPECT_TRUE(blames(diagnosis, "nic:node01/mlx5_0")) << diagnosis.text;
}

TEST(IbsimDiagnose, SwitchesSharingADescriptionAreNamedByGuid) {
  SKIP_WITHOUT_IBSIM();
  // Two leaves both described "MF0;leaf:MQM8700/U1" (ibsim takes a node's description from the
  // header's "# ..." comment, its id stays unique): the second leaf's port is blamed by GUID
  // (ibsim numbers switch GUIDs from 0x200000 in file order: the spine, then the leaves).
  std::string netfile = fat_tree_netfile(FatTree{1, 2, 2});
  for (int leaf = 1; leaf <= 2; ++leaf) {
    const std::string header = "Switch\t40 \"" + leaf_description(leaf) + "\"\n";
    const auto at = netfile.find(header);
    ASSERT_NE(at, std::string::npos);
    netfile.insert(at + header.size() - 1, "\t# \"MF0;leaf:MQM8700/U1\"");
  }
  IbsimFabric fabric(netfile);
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const auto collected = collect_with_change(fabric, 4, [&] {
    fabric.console(port_counter(leaf_description(2), 1, "SymbolErrorCounter=5000"));
  });
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto diagnosis = diagnose(fabric, collected.bundle);
  EXPECT_EQ(diagnosis.top_cause, "link-errors") << diagnosis.text;
  EXPECT_TRUE(blames(diagnosis, "port:0x0000000000200002/1")) << diagnosis.text;
}

}  // namespace
}  // namespace netdoctor::testing
