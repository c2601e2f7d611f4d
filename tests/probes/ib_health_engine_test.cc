// The whole engine on hand-built InfiniBand fat trees: one fault each, diagnosed and localized
// by the InfiniBand probes; a healthy tree found healthy.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "engine/pipeline.h"
#include "tests/probes/fabric_builder.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

engine::Diagnosis diagnose(const model::Fabric& fabric, const std::string& symptom) {
  engine::DiagnoseOptions options;
  options.symptom = symptom;
  auto diagnosis = engine::diagnose_fabric(fabric, options);
  EXPECT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  return diagnosis.ok() ? std::move(diagnosis).value() : engine::Diagnosis{};
}

std::string described(const engine::Diagnosis& diagnosis) {
  std::string out = engine::to_string(diagnosis.verdict);
  for (const auto& cause : diagnosis.causes) {
    out += "\n  " + cause.id + " " + std::to_string(cause.confidence) + ":";
    for (const auto& entity : cause.entities) {
      out += " " + entity;
    }
  }
  for (const auto& run : diagnosis.probes) {
    out += "\n  probe " + run.id + " " + run.status + " " + run.reason;
  }
  for (const auto& problem : diagnosis.data_problems) {
    out += "\n  problem " + problem;
  }
  return out;
}

TEST(IbHealthEngine, ErrorsOnOneCableAreLinkErrorsNamingThatPortFirst) {
  for (const std::string symptom : {"auto", "slowdown", "timeouts"}) {
    model::Fabric fabric = ib_fat_tree();
    set_ib_rate(ib_switch_port(fabric, "spine-01", 3), "ib_symbol_errors", 20.0);
    const auto diagnosis = diagnose(fabric, symptom);
    ASSERT_FALSE(diagnosis.causes.empty()) << symptom << ": " << described(diagnosis);
    const auto& top = diagnosis.causes.front();
    EXPECT_EQ(top.id, "link-errors") << symptom << ": " << described(diagnosis);
    ASSERT_FALSE(top.entities.empty());
    EXPECT_EQ(top.entities.front(), "port:spine-01/3") << described(diagnosis);
    EXPECT_EQ(diagnosis.verdict, engine::Verdict::RootCauseFound) << described(diagnosis);
    // The advice is the subnet's own (perfquery), not a RoCE host's ethtool.
    ASSERT_TRUE(top.next_change.has_value());
    EXPECT_NE(top.next_change->verify.find("perfquery"), std::string::npos)
        << top.next_change->verify;
    EXPECT_NE(top.next_change->action.find("spine-01/3"), std::string::npos)
        << top.next_change->action;
  }
}

TEST(IbHealthEngine, ALinkAt1xIsLinkDegraded) {
  for (const std::string symptom : {"auto", "slowdown", "asymmetric-bandwidth"}) {
    model::Fabric fabric = ib_fat_tree();
    model::IbPort& port = ib_switch_port(fabric, "leaf-02", 11);
    for (model::IbPort* end : {&port, &ib_peer(fabric, port)}) {
      end->width = 1;
      end->data_gbps = 50.0;
    }
    const auto diagnosis = diagnose(fabric, symptom);
    ASSERT_FALSE(diagnosis.causes.empty()) << symptom << ": " << described(diagnosis);
    EXPECT_EQ(diagnosis.causes.front().id, "link-degraded")
        << symptom << ": " << described(diagnosis);
    EXPECT_EQ(diagnosis.verdict, engine::Verdict::RootCauseFound) << described(diagnosis);
    ASSERT_TRUE(diagnosis.causes.front().next_change.has_value());
    EXPECT_NE(diagnosis.causes.front().next_change->verify.find("ib-link-state"),
              std::string::npos);
  }
}

TEST(IbHealthEngine, NoSubnetManagerIsSubnetManager) {
  for (const std::string symptom : {"auto", "timeouts", "slowdown", "low-utilization"}) {
    IbSpec spec;
    spec.subnet_manager = false;
    model::Fabric fabric = ib_fat_tree(spec);
    const auto diagnosis = diagnose(fabric, symptom);
    ASSERT_FALSE(diagnosis.causes.empty()) << symptom << ": " << described(diagnosis);
    EXPECT_EQ(diagnosis.causes.front().id, "subnet-manager")
        << symptom << ": " << described(diagnosis);
    EXPECT_EQ(diagnosis.verdict, engine::Verdict::RootCauseFound) << described(diagnosis);
    ASSERT_TRUE(diagnosis.causes.front().next_change.has_value());
    EXPECT_NE(diagnosis.causes.front().next_change->action.find("opensm"), std::string::npos);
  }
}

TEST(IbHealthEngine, HcasHeldInInitializeAreSubnetManagerWithTheirOwnAdvice) {
  model::Fabric fabric = ib_fat_tree();
  for (const auto& [host, device] :
       {std::pair<std::string, std::string>{"node02", "mlx5_0"}, {"node03", "mlx5_1"}}) {
    auto& port = ib_ca(fabric, host, device).ports[0];
    port.state = model::RdmaPortState::Init;
    port.lid = 0;
  }
  const auto diagnosis = diagnose(fabric, "timeouts");
  ASSERT_FALSE(diagnosis.causes.empty()) << described(diagnosis);
  const auto& top = diagnosis.causes.front();
  EXPECT_EQ(top.id, "subnet-manager") << described(diagnosis);
  EXPECT_TRUE(std::find(top.entities.begin(), top.entities.end(), "nic:node02/mlx5_0") !=
              top.entities.end())
      << described(diagnosis);
}

// No cause on the healthy tree, and a healthy verdict: the RoCE-only probes do not apply to a
// pure InfiniBand fabric (FabricScope), so their silence is not missing data.
TEST(IbHealthEngine, HealthyFatTreeIsHealthyAndEveryIbProbeRanAndCleared) {
  const model::Fabric fabric = ib_fat_tree();
  const auto diagnosis = diagnose(fabric, "auto");
  EXPECT_EQ(diagnosis.verdict, engine::Verdict::Healthy) << described(diagnosis);
  EXPECT_TRUE(diagnosis.causes.empty()) << described(diagnosis);
  const std::set<std::string> ours = {"ib-link-errors", "ib-link-state", "subnet-manager",
                                      "ib-config"};
  std::size_t ran = 0;
  for (const auto& run : diagnosis.probes) {
    if (ours.count(run.id) != 0) {
      EXPECT_EQ(run.status, "ran") << run.id << ": " << run.reason;
      ++ran;
    }
  }
  EXPECT_EQ(ran, ours.size());
}

// link-errors and link-speed see only the HCAs' ends of an InfiniBand subnet: their clearing
// weighs little there (it no longer rules a damaged switch link out before ib-link-errors runs),
// and a site can tune how little.
TEST(IbHealthEngine, HostSideLinkProbesClearOnlyWeaklyOnAnInfinibandSubnet) {
  // Their kb strengths on a subnet: link-speed's HCA ends are all in ib-link-state's view too.
  for (const auto& [probe, signal, strength] :
       {std::tuple<std::string, std::string, double>{"link-errors", "link-clean", 0.3},
        {"link-speed", "link-speed-ok", 0.1}}) {
    const auto roce = with_signal(run_probe(probe, healthy_fleet()), signal);
    const auto ib = with_signal(run_probe(probe, ib_fat_tree()), signal);
    ASSERT_EQ(roce.size(), 1u) << probe;
    ASSERT_EQ(ib.size(), 1u) << probe;
    EXPECT_GE(roce[0].strength, 0.8) << probe;
    EXPECT_NEAR(ib[0].strength, strength, 1e-9) << probe;
    EXPECT_NE(ib[0].summary.find("InfiniBand subnet's switch ports not seen"), std::string::npos);
    const auto tuned = with_signal(
        run_probe(probe, ib_fat_tree(), {}, {{probe + ".ib_subnet_strength", 0.05}}), signal);
    ASSERT_EQ(tuned.size(), 1u);
    EXPECT_NEAR(tuned[0].strength, 0.05, 1e-9) << probe;
  }
}

// What a runbook for a bundle is written for (netdoctor runbook --bundle).
TEST(IbHealthEngine, TheKindOfFabricIsReadFromTheCapture) {
  EXPECT_EQ(engine::fabric_kind(ib_fat_tree()), "ib");
  model::Fabric hosts_only = ib_fat_tree();
  hosts_only.ib = {};  // the hosts' HCAs alone say InfiniBand too
  EXPECT_EQ(engine::fabric_kind(hosts_only), "ib");
  EXPECT_EQ(engine::fabric_kind(healthy_fleet()), "roce");
  EXPECT_EQ(engine::fabric_kind(model::Fabric{}), "");
}

}  // namespace
}  // namespace netdoctor::testing
