// subnet-manager on the hand-built InfiniBand fat tree: no master, two masters, a hung master,
// ports without LIDs; a capture without sminfo is no data, never "no SM".
#include <gtest/gtest.h>

#include "model/source_names.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

const std::string k_probe = "subnet-manager";

// An SM running on `host`'s `device` in state `state`.
model::IbSubnetManager sm_on(model::Fabric& fabric, const std::string& host,
                             const std::string& device, std::uint32_t state,
                             std::uint64_t activity) {
  const model::IbPort& port = ib_ca(fabric, host, device).ports[0];
  return model::IbSubnetManager{.guid = port.guid,
                                .lid = port.lid,
                                .priority = 14,
                                .state = state,
                                .activity_count = activity,
                                .source = "sminfo"};
}

TEST(SubnetManager, OneMasterSweepingIsOk) {
  const auto result = run_probe(k_probe, ib_fat_tree());
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_EQ(result.findings.size(), 1u) << result.findings.front().summary;
  EXPECT_EQ(result.findings.front().signal, "sm-ok");
  EXPECT_GE(result.findings.front().strength, 0.8);
}

TEST(SubnetManager, SminfoReachingNoSmIsNoMaster) {
  IbSpec spec;
  spec.subnet_manager = false;
  const auto result = run_probe(k_probe, ib_fat_tree(spec));
  const auto found = with_signal(result, "sm-no-master");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_GT(found[0].strength, 0.9);
  EXPECT_NE(found[0].summary.find("2 of 2"), std::string::npos) << found[0].summary;
  EXPECT_TRUE(with_signal(result, "sm-ok").empty());
}

TEST(SubnetManager, OnlyAStandbySmIsNoMasterAndNamesIt) {
  model::Fabric fabric = ib_fat_tree();
  for (auto& sample : fabric.ib.samples) {
    sample.managers = {sm_on(fabric, "node05", "mlx5_0", 2, 100)};
  }
  const auto found = with_signal(run_probe(k_probe, fabric), "sm-no-master");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, std::vector<std::string>{"nic:node05/mlx5_0"});
  EXPECT_NE(found[0].summary.find("state 2"), std::string::npos) << found[0].summary;
}

TEST(SubnetManager, AMasterBackInTheLatestSampleIsAFailoverWeighingLess) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib.samples.front().managers.clear();
  fabric.ib.samples.front().sm_answered = false;
  const auto found = with_signal(run_probe(k_probe, fabric), "sm-no-master");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].strength, 0.5, 1e-9);
  const auto tuned = run_probe(k_probe, fabric, {}, {{"subnet-manager.failover_strength", 0.2}});
  EXPECT_NEAR(with_signal(tuned, "sm-no-master").at(0).strength, 0.2, 1e-9);
}

TEST(SubnetManager, AbsentSminfoIsNoDataNotNoSm) {
  IbSpec spec;
  spec.subnet_manager = false;
  model::Fabric fabric = ib_fat_tree(spec);
  fabric.ib.sources.erase(model::source::k_sminfo);
  for (auto& sample : fabric.ib.samples) {
    sample.sm_queried = false;
  }
  auto result = run_probe(k_probe, fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran);  // the LIDs still say something
  EXPECT_TRUE(with_signal(result, "sm-no-master").empty());
  const auto cleared = with_signal(result, "sm-ok");
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_LT(cleared[0].strength, 0.5);
  EXPECT_NE(result.reason.find("sminfo"), std::string::npos) << result.reason;

  // Without sminfo and without any LID view there is nothing to judge.
  fabric.ib.sources.erase(model::source::k_ibnetdiscover);
  for (auto& node : fabric.ib.nodes) {
    for (auto& port : node.ports) {
      port.lid.reset();
    }
  }
  result = run_probe(k_probe, fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_TRUE(result.findings.empty());
}

// One sample's sminfo file lost (the other sample's SM is master): that sample says nothing of
// the SM, so there is no "no master" in it, and the subnet is judged by the sample that asked.
TEST(SubnetManager, ASampleWhoseSminfoIsMissingIsNotASampleWithoutMaster) {
  model::Fabric fabric = ib_fat_tree();
  auto& lost = fabric.ib.samples.back();
  lost.managers.clear();
  lost.sm_answered = false;
  lost.sm_queried = false;
  auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "sm-no-master").empty());
  EXPECT_EQ(with_signal(result, "sm-ok").size(), 1u);

  lost.sm_queried = true;  // the same sample, had sminfo run and reached no SM
  result = run_probe(k_probe, fabric);
  EXPECT_EQ(with_signal(result, "sm-no-master").size(), 1u);
}

// Ports LinkUp held in Armed: a master answers and sweeps, yet its work is unfinished, so the
// SM is not cleared (ib-link-state names the ports).
TEST(SubnetManager, PortsHeldShortOfActiveLeaveTheSmUncleared) {
  model::Fabric fabric = ib_fat_tree();
  ib_ca(fabric, "node02", "mlx5_1").ports[0].state = model::RdmaPortState::Armed;
  const auto result = run_probe(k_probe, fabric);
  const auto cleared = with_signal(result, "sm-ok");
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_NEAR(cleared[0].strength, 0.0, 1e-9);
  EXPECT_NE(cleared[0].summary.find("1 ports LinkUp are held"), std::string::npos)
      << cleared[0].summary;
}

TEST(SubnetManager, TwoMastersAreNamed) {
  model::Fabric fabric = ib_fat_tree();
  auto& latest = fabric.ib.samples.back();
  latest.managers = {sm_on(fabric, "node01", "mlx5_0", 3, 2000),
                     sm_on(fabric, "node05", "mlx5_0", 3, 500)};
  const auto found = with_signal(run_probe(k_probe, fabric), "sm-multiple-masters");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(names(found[0], "nic:node01/mlx5_0"));
  EXPECT_TRUE(names(found[0], "nic:node05/mlx5_0"));
}

TEST(SubnetManager, HostsPointingAtDifferentSmLidsAreTwoMasters) {
  model::Fabric fabric = ib_fat_tree();
  const auto lid_of = [&fabric](const std::string& host) {
    return *ib_ca(fabric, host, "mlx5_0").ports[0].lid;
  };
  for (const std::string host : {"node01", "node06"}) {
    fabric.ib.samples.back().managers.push_back(
        model::IbSubnetManager{.guid = 0,
                               .lid = lid_of(host),
                               .priority = std::nullopt,
                               .state = std::nullopt,
                               .activity_count = std::nullopt,
                               .source = "sysfs port"});
  }
  const auto found = with_signal(run_probe(k_probe, fabric), "sm-multiple-masters");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(names(found[0], "nic:node06/mlx5_0"));
}

TEST(SubnetManager, AMasterWhoseActivityStandsStillHasStalled) {
  model::Fabric fabric = ib_fat_tree();
  for (auto& sample : fabric.ib.samples) {
    sample.managers.front().activity_count = 1234;
  }
  const auto found = with_signal(run_probe(k_probe, fabric), "sm-stalled");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].summary.find("1234"), std::string::npos) << found[0].summary;
}

TEST(SubnetManager, ARestartedMasterIsNotStalled) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib.samples.back().managers.front().activity_count = 3;  // counted again from zero
  EXPECT_TRUE(with_signal(run_probe(k_probe, fabric), "sm-stalled").empty());
}

TEST(SubnetManager, HcaPortsUpWithoutALidWereNeverConfigured) {
  model::Fabric fabric = ib_fat_tree();
  ib_ca(fabric, "node02", "mlx5_1").ports[0].lid = 0;
  ib_ca(fabric, "node08", "mlx5_0").ports[0].lid.reset();  // ibnetdiscover gave it none
  const auto found = with_signal(run_probe(k_probe, fabric), "sm-lids-missing");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities,
            (std::vector<std::string>{"nic:node02/mlx5_1", "nic:node08/mlx5_0"}));
}

TEST(SubnetManager, NoSubnetViewIsSkipped) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib = {};
  const auto result = run_probe(k_probe, fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_EQ(result.reason.rfind("no ", 0), 0u) << result.reason;  // the usual no-data reason
}

}  // namespace
}  // namespace netdoctor::testing
