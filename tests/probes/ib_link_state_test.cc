// ib-link-state on the hand-built InfiniBand fat tree: degraded, down and never-activated ports,
// each cable reported once, unused switch ports left alone.
#include <gtest/gtest.h>

#include "model/entity_names.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

const std::string k_probe = "ib-link-state";

// Trains both ends of a cable as `width` x `speed`.
void train(model::Fabric& fabric, model::IbPort& port, int width, const std::string& speed,
           double gbps) {
  for (model::IbPort* end : {&port, &ib_peer(fabric, port)}) {
    end->width = width;
    end->speed = speed;
    end->data_gbps = gbps;
  }
}

TEST(IbLinkState, HealthyFatTreeIsOk) {
  const auto result = run_probe(k_probe, ib_fat_tree());
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_EQ(result.findings.size(), 1u) << result.findings.front().summary;
  EXPECT_EQ(result.findings.front().signal, "ib-link-state-ok");
}

TEST(IbLinkState, ALinkTrainedAt1xIsDegradedOnceNamingBothEndsAndTheLink) {
  model::Fabric fabric = ib_fat_tree();
  train(fabric, ib_switch_port(fabric, "leaf-01", 3), 1, "HDR", 50.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-degraded");
  ASSERT_EQ(found.size(), 1u);  // both ends show it; one cable
  EXPECT_EQ(found[0].entities,
            (std::vector<std::string>{"port:leaf-01/3", "nic:node02/mlx5_0",
                                      model::link_entity("port:leaf-01/3", "nic:node02/mlx5_0")}));
  EXPECT_NE(found[0].summary.find("1x where both ends support 4x"), std::string::npos)
      << found[0].summary;
  EXPECT_EQ(*found[0].value, 50.0);
  EXPECT_EQ(*found[0].fleet_normal, 200.0);
  EXPECT_GT(found[0].strength, 0.9);
}

TEST(IbLinkState, NdrTrainedAsHdrIsDegraded) {
  IbSpec spec;
  spec.speed = "NDR";
  model::Fabric fabric = ib_fat_tree(spec);
  train(fabric, ib_switch_port(fabric, "spine-02", 2), 4, "HDR", 200.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-degraded");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), "port:leaf-01/14");  // the leaf end is met first
  EXPECT_TRUE(names(found[0], "port:spine-02/2"));
  EXPECT_EQ(*found[0].fleet_normal, 400.0);
}

TEST(IbLinkState, SlowerThanItsTierIsDegradedWhereNoViewSaysWhatItSupports) {
  model::Fabric fabric = ib_fat_tree();
  for (auto& node : fabric.ib.nodes) {
    for (auto& port : node.ports) {
      port.supported_width.reset();
      port.supported_speed.clear();
      port.supported_data_gbps.reset();
    }
  }
  train(fabric, ib_switch_port(fabric, "spine-01", 1), 4, "EDR", 100.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-degraded");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].summary.find("switch-switch links run 200 Gb/s"), std::string::npos)
      << found[0].summary;
}

TEST(IbLinkState, AnHcaAtTheMostItSupportsIsNotDegradedBesideFasterOnes) {
  IbSpec spec;
  spec.speed = "NDR";
  model::Fabric fabric = ib_fat_tree(spec);
  model::IbPort& hca = ib_ca(fabric, "node05", "mlx5_0").ports[0];
  hca.supported_speed = "HDR";
  hca.supported_data_gbps = 200.0;
  train(fabric, hca, 4, "HDR", 200.0);
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-degraded").empty());
  EXPECT_EQ(with_signal(result, "ib-link-state-ok").size(), 1u);
}

TEST(IbLinkState, ASiteTunedShareChangesWhatCountsAsDegraded) {
  model::Fabric fabric = ib_fat_tree();
  train(fabric, ib_switch_port(fabric, "spine-01", 1), 4, "EDR", 100.0);
  EXPECT_EQ(with_signal(run_probe(k_probe, fabric), "ib-link-degraded").size(), 1u);
  const auto tuned = run_probe(k_probe, fabric, {}, {{"ib-link-state.min_speed_share", 0.4}});
  EXPECT_TRUE(with_signal(tuned, "ib-link-degraded").empty());
}

TEST(IbLinkState, ACabledPortDownIsOneLinkDown) {
  model::Fabric fabric = ib_fat_tree();
  model::IbPort& port = ib_switch_port(fabric, "leaf-02", 10);
  for (model::IbPort* end : {&port, &ib_peer(fabric, port)}) {
    end->state = model::RdmaPortState::Down;
    end->phys = model::PhysState::Polling;
    end->width.reset();
    end->data_gbps.reset();
  }
  const auto result = run_probe(k_probe, fabric);
  const auto found = with_signal(result, "ib-link-down");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), "port:leaf-02/10");
  EXPECT_TRUE(with_signal(result, "ib-link-degraded").empty());
}

TEST(IbLinkState, UnusedSwitchPortsAreLeftAlone) {
  model::Fabric fabric = ib_fat_tree();
  model::IbPort unused;
  unused.number = 40;
  unused.state = model::RdmaPortState::Down;
  unused.phys = model::PhysState::Polling;
  unused.supported_width = 4;
  ib_node_named(fabric, "leaf-01").ports.push_back(unused);
  const auto result = run_probe(k_probe, fabric);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings.front().signal, "ib-link-state-ok");
}

TEST(IbLinkState, AnHcaLinkUpButInitializeWasNotActivatedByTheSm) {
  model::Fabric fabric = ib_fat_tree();
  ib_ca(fabric, "node03", "mlx5_1").ports[0].state = model::RdmaPortState::Init;
  ib_ca(fabric, "node07", "mlx5_0").ports[0].state = model::RdmaPortState::Armed;
  const auto result = run_probe(k_probe, fabric);
  const auto found = with_signal(result, "ib-port-not-active");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities,
            (std::vector<std::string>{"nic:node03/mlx5_1", "nic:node07/mlx5_0"}));
  EXPECT_EQ(*found[0].value, 2.0);
  EXPECT_TRUE(with_signal(result, "ib-link-down").empty());
}

TEST(IbLinkState, SwitchPortsWaitingInInitializeNameTheirSwitches) {
  model::Fabric fabric = ib_fat_tree();
  for (std::uint32_t port : {1u, 2u}) {
    ib_switch_port(fabric, "leaf-02", port).state = model::RdmaPortState::Init;
  }
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-port-not-active");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities,
            (std::vector<std::string>{"port:leaf-02/1", "port:leaf-02/2", "switch:leaf-02"}));
}

// Ports that advertise more than any link of the fabric runs (ibsim and some switches list
// 12x): a link at its tier's width and rate is not degraded for that; one below it still is.
TEST(IbLinkState, WhatPortsAdvertiseIsCappedByWhatTheirTierRuns) {
  model::Fabric fabric = ib_fat_tree();
  for (auto& node : fabric.ib.nodes) {
    for (auto& port : node.ports) {
      port.supported_width = 12;
      port.supported_data_gbps = 600.0;
    }
  }
  EXPECT_TRUE(with_signal(run_probe(k_probe, fabric), "ib-link-degraded").empty());
  train(fabric, ib_switch_port(fabric, "leaf-01", 3), 1, "HDR", 50.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-degraded");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(*found[0].fleet_normal, 200.0);
}

TEST(IbLinkState, NoSubnetViewIsSkipped) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib = {};
  const auto result = run_probe(k_probe, fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_EQ(result.reason.rfind("no ", 0), 0u) << result.reason;  // the usual no-data reason
}

}  // namespace
}  // namespace netdoctor::testing
