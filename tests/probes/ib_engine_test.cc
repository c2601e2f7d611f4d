// The whole engine on the hand-built InfiniBand fat tree: every probe stays quiet on a healthy
// pure-IB fabric (hosts whose HCAs run link layer InfiniBand, no Ethernet switch data), the auto
// sweep finds no cause, and a slowdown with a congestion root is diagnosed as ib-congestion
// naming the receiver and its leaf port, its victims not blamed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "engine/pipeline.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

constexpr double k_hdr_tick_s = 8.0 * 8.0 / 50e9;

engine::Diagnosis diagnose(const model::Fabric& fabric, const std::string& symptom) {
  engine::DiagnoseOptions options;
  options.symptom = symptom;
  auto diagnosis = engine::diagnose_fabric(fabric, options);
  EXPECT_TRUE(diagnosis.ok()) << (diagnosis.ok() ? "" : diagnosis.error().describe());
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
  return out;
}

class EveryProbeOnInfiniband : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryProbeOnInfiniband, AHealthyFatTreeRaisesNothing) {
  const auto result = run_probe(GetParam(), ib_fat_tree());
  for (const auto& finding : result.findings) {
    EXPECT_TRUE(clearing_signals().count(finding.signal))
        << GetParam() << " raised " << finding.signal << ": " << finding.summary;
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Builtin, EveryProbeOnInfiniband, ::testing::ValuesIn(registered_ids()),
                         test_name);

// The sweep finds nothing and the IB probes clear it. Its verdict is not "healthy" yet: on a
// pure-IB fabric most of the RoCE probes (PFC, ECN, QoS, GIDs, ...) have no data, more than
// the probes that ran, and the verdict rule (engine/verdict.cc) then says "inconclusive".
TEST(IbEngine, TheAutoSweepFindsNothingOnAHealthyFatTree) {
  const engine::Diagnosis diagnosis = diagnose(ib_fat_tree(), "auto");
  EXPECT_NE(diagnosis.verdict, engine::Verdict::RootCauseFound) << described(diagnosis);
  EXPECT_TRUE(diagnosis.causes.empty()) << described(diagnosis);
  for (const char* id : {"ib-congestion", "ib-routing"}) {
    const auto run = std::find_if(diagnosis.probes.begin(), diagnosis.probes.end(),
                                  [id](const engine::ProbeRun& r) { return r.id == id; });
    ASSERT_NE(run, diagnosis.probes.end()) << id;
    EXPECT_EQ(run->status, "ran") << id;
  }
}

TEST(IbEngine, ASlowdownWithACongestionRootIsIbCongestionAtTheReceiver) {
  model::Fabric fabric = ib_fat_tree();
  set_ib_rate(ib_switch_port(fabric, "leaf-01", 1), "ib_xmit_wait", 0.30 / k_hdr_tick_s, 5e9);
  set_ib_rate(ib_switch_port(fabric, "spine-01", 1), "ib_xmit_wait", 0.15 / k_hdr_tick_s, 5e9);
  set_ib_rate(ib_switch_port(fabric, "leaf-02", 9), "ib_xmit_wait", 0.10 / k_hdr_tick_s, 5e9);
  set_ib_rate(ib_ca(fabric, "node05", "mlx5_0").ports.front(), "ib_xmit_wait", 0.08 / k_hdr_tick_s,
              5e9);
  set_ib_rate(ib_ca(fabric, "node01", "mlx5_0").ports.front(), "ib_rx_bytes", 12e9 / 8.0, 4e14);

  const engine::Diagnosis diagnosis = diagnose(fabric, "slowdown");
  ASSERT_EQ(diagnosis.verdict, engine::Verdict::RootCauseFound) << described(diagnosis);
  ASSERT_FALSE(diagnosis.causes.empty());
  const auto& top = diagnosis.causes.front();
  EXPECT_EQ(top.id, "ib-congestion") << described(diagnosis);
  ASSERT_GE(top.entities.size(), 2u) << described(diagnosis);
  EXPECT_EQ(top.entities[0], "nic:node01/mlx5_0") << described(diagnosis);
  EXPECT_EQ(top.entities[1], "port:leaf-01/1") << described(diagnosis);
  for (const char* victim : {"port:spine-01/1", "port:leaf-02/9", "nic:node05/mlx5_0"}) {
    EXPECT_EQ(std::find(top.entities.begin(), top.entities.end(), victim), top.entities.end())
        << victim << " blamed: " << described(diagnosis);
  }
  ASSERT_TRUE(top.next_change.has_value());
  EXPECT_FALSE(top.remediation.empty());
}

}  // namespace
}  // namespace netdoctor::testing
