// ib-link-errors on the hand-built InfiniBand fat tree: growth in the window against the BER
// budget, never history; both ends and the link named; saturated counters as history.
#include <gtest/gtest.h>

#include "model/entity_names.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

const std::string k_probe = "ib-link-errors";

// leaf-01 port 3 faces node02/mlx5_0 (two HCAs per host, in order).
const std::string k_port = "port:leaf-01/3";
const std::string k_hca = "nic:node02/mlx5_0";

TEST(IbLinkErrors, HealthyFatTreeWithFrozenHistoryIsClean) {
  // Every port carries small frozen error counts (3 symbol errors, a link-down since boot).
  const auto result = run_probe(k_probe, ib_fat_tree());
  ASSERT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_EQ(result.findings.size(), 1u) << result.findings.front().summary;
  EXPECT_EQ(result.findings.front().signal, "ib-link-errors-ok");
}

TEST(IbLinkErrors, SymbolErrorsBeyondTheBudgetNameThePortAndItsLink) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_switch_port(fabric, "leaf-01", 3), "ib_symbol_errors", 10.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-errors");
  ASSERT_EQ(found.size(), 1u);
  // The port that counts the errors, then the cable (whose name holds the peer).
  EXPECT_EQ(found[0].entities,
            (std::vector<std::string>{k_port, model::link_entity(k_port, k_hca)}));
  EXPECT_NEAR(*found[0].value, 300.0, 1.0);        // 10/s over 30 s
  EXPECT_NEAR(*found[0].fleet_normal, 6.0, 1e-9);  // 200 Gb/s x 1e-12 x 30 s
  EXPECT_GT(found[0].strength, 0.9);
}

TEST(IbLinkErrors, SymbolErrorsWithinTheBudgetAreHealthy) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_switch_port(fabric, "leaf-01", 3), "ib_symbol_errors", 0.1);  // 3 in 30 s
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-errors").empty());
  EXPECT_EQ(with_signal(result, "ib-link-errors-ok").size(), 1u);
}

TEST(IbLinkErrors, TheBudgetFollowsTheLinkRate) {
  // 9 symbol errors in 30 s: over an HDR link's budget (6), within an NDR link's (12).
  for (const char* speed : {"HDR", "NDR"}) {
    IbSpec spec;
    spec.speed = speed;
    model::Fabric fabric = ib_fat_tree(spec);
    set_ib_rate(ib_switch_port(fabric, "spine-01", 1), "ib_symbol_errors", 0.3);
    const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-errors");
    EXPECT_EQ(found.size(), std::string(speed) == "HDR" ? 1u : 0u) << speed;
  }
}

TEST(IbLinkErrors, ASiteTunedBerLimitChangesTheBudget) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_switch_port(fabric, "leaf-01", 3), "ib_symbol_errors", 10.0);
  EXPECT_EQ(with_signal(run_probe(k_probe, fabric), "ib-link-errors").size(), 1u);
  const auto tuned = run_probe(k_probe, fabric, {}, {{"ib-link-errors.ber_limit", 1e-10}});
  EXPECT_TRUE(with_signal(tuned, "ib-link-errors").empty());  // budget 600
}

TEST(IbLinkErrors, ReceiveErrorsGrowingAreDamage) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_switch_port(fabric, "spine-02", 2), "ib_local_link_integrity_errors", 0.2, 0.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-errors");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), "port:spine-02/2");
  EXPECT_NE(found[0].summary.find("LocalLinkIntegrityErrors"), std::string::npos);
  EXPECT_NEAR(*found[0].value, 6.0, 1.0);  // 0.2/s over 30 s; a healthy port has none
  EXPECT_EQ(*found[0].fleet_normal, 0.0);
}

TEST(IbLinkErrors, ALinkDownSeenByBothEndsIsOneFlap) {
  model::Fabric fabric = ib_fat_tree();
  model::IbPort& port = ib_switch_port(fabric, "leaf-02", 9);
  set_ib_rate(port, "ib_link_downed", 2.0 / 30.0, 1.0);
  set_ib_rate(ib_peer(fabric, port), "ib_link_downed", 2.0 / 30.0, 1.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-flap");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(names(found[0], "port:leaf-02/9"));
  EXPECT_EQ(found[0].entities.back().rfind("link:", 0), 0u);
}

TEST(IbLinkErrors, RetrainsAreFlapsToo) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_ca(fabric, "node04", "mlx5_1").ports[0], "ib_link_error_recovery", 0.1, 1.0);
  const auto found = with_signal(run_probe(k_probe, fabric), "ib-link-flap");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), "nic:node04/mlx5_1");
}

TEST(IbLinkErrors, RemotePhysicalErrorsBlameTheFarEndFirst) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_switch_port(fabric, "leaf-01", 3), "ib_rcv_remote_physical_errors", 1.0, 0.0);
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-errors").empty());
  const auto found = with_signal(result, "ib-remote-errors");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].entities.front(), k_hca);
  EXPECT_TRUE(names(found[0], k_port));
}

TEST(IbLinkErrors, ASaturatedCounterIsHistoryNeverARate) {
  model::Fabric fabric = ib_fat_tree();
  model::IbPort& port = ib_switch_port(fabric, "leaf-01", 3);
  set_ib_rate(port, "ib_symbol_errors", 1000.0, 60000.0);
  saturate(port, "ib_symbol_errors", 1);  // at 65535 in the second sample
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-errors").empty());
  const auto history = with_signal(result, "ib-error-history");
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].entities.front(), k_port);
  EXPECT_NE(history[0].summary.find("at least 65535"), std::string::npos) << history[0].summary;
  EXPECT_LT(history[0].strength, 0.5);
}

TEST(IbLinkErrors, UnusedSwitchPortsAreLeftAlone) {
  model::Fabric fabric = ib_fat_tree();
  model::IbPort unused = ib_switch_port(fabric, "leaf-01", 1);
  unused.number = 40;
  unused.peer_guid.reset();
  unused.peer_port.reset();
  unused.state = model::RdmaPortState::Down;
  unused.phys = model::PhysState::Polling;
  set_ib_rate(unused, "ib_symbol_errors", 100.0);
  ib_node_named(fabric, "leaf-01").ports.push_back(unused);
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-errors").empty());
  EXPECT_TRUE(result.reason.empty()) << result.reason;  // not counted as a gap either
}

TEST(IbLinkErrors, ClearedCountersAreNotedNotJudged) {
  model::Fabric fabric = ib_fat_tree();
  model::IbPort& port = ib_switch_port(fabric, "leaf-01", 3);
  set_ib_rate(port, "ib_symbol_errors", -1000.0, 50000.0);  // perfquery -R between the reads
  const auto result = run_probe(k_probe, fabric);
  EXPECT_TRUE(with_signal(result, "ib-link-errors").empty());
  EXPECT_NE(result.reason.find("cleared on 1 IB ports"), std::string::npos) << result.reason;
}

TEST(IbLinkErrors, OneSampleHasNoGrowthAndIsSkipped) {
  IbSpec spec;
  spec.samples = 1;
  const auto result = run_probe(k_probe, ib_fat_tree(spec));
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_TRUE(result.findings.empty());
}

TEST(IbLinkErrors, NoSubnetViewIsSkipped) {
  model::Fabric fabric = ib_fat_tree();
  fabric.ib = {};
  const auto result = run_probe(k_probe, fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped);
  EXPECT_EQ(result.reason.rfind("no ", 0), 0u) << result.reason;  // the usual no-data reason
}

}  // namespace
}  // namespace netdoctor::testing
