// ib-link-state on the hand-built InfiniBand fat tree: degraded, down and never-activated ports,
// each cable reported once, unused switch ports left alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

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

// Takes the cable at leaf-02's uplink `port` down at both ends and out of every view.
std::uint32_t unplug(model::Fabric& fabric, std::uint32_t port) {
  model::IbPort& leaf_end = ib_switch_port(fabric, "leaf-02", port);
  model::IbPort& spine_end = ib_peer(fabric, leaf_end);
  const std::uint32_t spine_port = spine_end.number;
  for (model::IbPort* end : {&leaf_end, &spine_end}) {
    end->state = model::RdmaPortState::Down;
    end->phys = model::PhysState::Polling;
    end->width.reset();
    end->data_gbps.reset();
    end->peer_guid.reset();
    end->peer_port.reset();
  }
  return spine_port;
}

// The spine port numbers leaf-02's uplinks land on, by leaf port.
std::map<std::uint32_t, std::uint32_t> uplink_peers(model::Fabric& fabric) {
  std::map<std::uint32_t, std::uint32_t> out;
  for (const auto& port : ib_node_named(fabric, "leaf-02").ports) {
    const model::IbNode* peer = fabric.ib.peer_of(port);
    if (peer != nullptr && peer->kind == model::IbNodeKind::Switch) {
      out[port.number] = *port.peer_port;
    }
  }
  return out;
}

// A leaf-spine cable down at both ends is in no view: each switch is one link short of its
// tier with a Down port inside its block of switch links, and those two ports are its ends.
TEST(IbLinkState, ACableDownAtBothEndsIsFoundByItsTierAndNamedByBothEnds) {
  IbSpec spec;
  spec.leaves = 3;
  spec.spines = 3;
  model::Fabric fabric = ib_fat_tree(spec);
  const auto peers = uplink_peers(fabric);
  ASSERT_GE(peers.size(), 3u);
  // An uplink inside leaf-02's block whose spine port is inside the spine's block too.
  std::uint32_t leaf_port = 0;
  for (auto it = std::next(peers.begin()); it != std::prev(peers.end()); ++it) {
    if (it->second > 1 && it->second < static_cast<std::uint32_t>(spec.leaves * 2)) {
      leaf_port = it->first;
      break;
    }
  }
  ASSERT_NE(leaf_port, 0u);
  const std::uint32_t spine_port = unplug(fabric, leaf_port);
  const auto result = run_probe(k_probe, fabric);
  const auto found = with_signal(result, "ib-link-down");
  ASSERT_EQ(found.size(), 1u) << result.findings.front().summary;
  EXPECT_EQ(found[0].entities.at(0), "port:leaf-02/" + std::to_string(leaf_port));
  EXPECT_NE(found[0].entities.at(1).find("/" + std::to_string(spine_port)), std::string::npos)
      << found[0].entities.at(1);
  EXPECT_NEAR(found[0].strength, 0.9, 1e-9);
  EXPECT_NE(found[0].summary.find("two ends of one cable"), std::string::npos) << found[0].summary;
  EXPECT_TRUE(with_signal(result, "ib-link-state-ok").empty());
}

// At the edge of its block a Down port is like the unused ports beside it: with leaf-02's last
// uplink unplugged, only the spine's end, inside its block, is named, and weighs less.
TEST(IbLinkState, ACableWhoseFarEndIsNotLocatedNamesTheEndThatIs) {
  IbSpec spec;
  spec.leaves = 3;
  spec.spines = 3;
  model::Fabric fabric = ib_fat_tree(spec);
  const std::uint32_t last = uplink_peers(fabric).rbegin()->first;
  const std::string spine =
      fabric.ib.peer_of(*ib_node_named(fabric, "leaf-02").find_port(last))->name;
  const std::uint32_t spine_port = unplug(fabric, last);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-down");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities,
            std::vector<std::string>{"port:" + spine + "/" + std::to_string(spine_port)});
  EXPECT_NEAR(found[0].strength, 0.6, 1e-9);
}

// A leaf built with one uplink fewer than the others (the port absent on both switches): no
// Down port inside a block, nothing to point at; the fabric is not blamed.
TEST(IbLinkState, AnUnevenTierWithoutAGapIsLeftAlone) {
  IbSpec spec;
  spec.leaves = 3;
  spec.spines = 3;
  model::Fabric fabric = ib_fat_tree(spec);
  auto& leaf = ib_node_named(fabric, "leaf-02");
  const std::uint32_t last = uplink_peers(fabric).rbegin()->first;
  model::IbNode& spine = ib_node_named(fabric, fabric.ib.peer_of(*leaf.find_port(last))->name);
  const std::uint32_t spine_port = *leaf.find_port(last)->peer_port;
  // Neither switch has the port at all: a fabric built so.
  std::erase_if(leaf.ports, [last](const model::IbPort& port) { return port.number == last; });
  std::erase_if(spine.ports,
                [spine_port](const model::IbPort& port) { return port.number == spine_port; });
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-down").empty())
      << with_signal(result, "ib-link-down").at(0).summary;
}

// An HCA whose port is down on both ends drops out of the subnet views; its host still lists
// it, Down / Polling, beside its other HCA on the subnet.
TEST(IbLinkState, AnHcaMissingFromTheSubnetButDownOnItsHostIsALinkDown) {
  model::Fabric fabric = ib_fat_tree();
  auto& nodes = fabric.ib.nodes;
  const model::IbNode& gone = ib_ca(fabric, "node03", "mlx5_1");
  model::IbPort& leaf_end = ib_peer(fabric, gone.ports[0]);
  leaf_end.peer_guid.reset();
  leaf_end.peer_port.reset();
  leaf_end.state = model::RdmaPortState::Down;
  leaf_end.phys = model::PhysState::Polling;
  std::erase_if(nodes, [](const model::IbNode& node) { return node.name == "node03/mlx5_1"; });
  fabric.ib.reindex();
  for (auto& host : fabric.hosts) {
    for (auto& nic : host.nics) {
      if (host.name == "node03" && nic.device == "mlx5_1") {
        nic.state = model::RdmaPortState::Down;
        nic.phys_state = model::PhysState::Polling;
      }
    }
  }
  const std::string leaf_port = "port:leaf-01/" + std::to_string(leaf_end.number);
  auto result = run_probe(k_probe, fabric);
  auto found = with_signal(result, "ib-link-down");
  // The host's view and the gap in the leaf's HCA block are the two ends of one cable.
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, (std::vector<std::string>{"nic:node03/mlx5_1", leaf_port}));
  EXPECT_NE(found[0].summary.find("missing from the subnet views"), std::string::npos)
      << found[0].summary;

  // Without the host's view the leaf's gap alone names the port, weighing less.
  model::Fabric subnet_only = fabric;
  subnet_only.hosts.clear();
  found = with_signal(run_probe(k_probe, subnet_only), "ib-link-down");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities, std::vector<std::string>{leaf_port});
  EXPECT_NEAR(found[0].strength, 0.6, 1e-9);

  // A host none of whose HCAs is on this subnet may sit on another one: its HCA is not judged
  // (the leaf's gap still is, on its own).
  std::erase_if(nodes, [](const model::IbNode& node) { return node.name == "node03/mlx5_0"; });
  fabric.ib.reindex();
  result = run_probe(k_probe, fabric);
  for (const auto& finding : with_signal(result, "ib-link-down")) {
    EXPECT_EQ(std::find(finding.entities.begin(), finding.entities.end(), "nic:node03/mlx5_1"),
              finding.entities.end())
        << finding.summary;
  }
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
