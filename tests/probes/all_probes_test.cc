// Properties every probe shares: a healthy fleet yields only clearing signals; a capture
// without the probe's data yields Skipped with a reason and never a clearing signal.
#include <gtest/gtest.h>

#include <set>

#include "engine/pipeline.h"
#include "probes/probe.h"
#include "tests/probes/fabric_builder.h"
#include "tests/probes/ib_fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

// Each probe's clearing signal comes from its spec: nothing here lists the probes by hand.
const std::set<std::string>& k_clearing = clearing_signals();

std::vector<std::string> all_ids() {
  return registered_ids();
}

TEST(AllProbes, EveryRegisteredProbeHasItsEntryAndRunsInTheSweep) {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  ASSERT_FALSE(registry.all().empty());
  auto knowledge = engine::load_knowledge_base(registry);
  ASSERT_TRUE(knowledge.ok()) << knowledge.error().describe();
  const kb::Playbook* sweep = knowledge->playbooks.find("auto");
  ASSERT_NE(sweep, nullptr);
  std::set<std::string> swept;
  for (const auto& step : sweep->steps) {
    swept.insert(step.probe);
  }
  for (const probes::Probe* probe : registry.all()) {
    EXPECT_NE(knowledge->entries.find(probe->id()), nullptr) << probe->id();
    EXPECT_EQ(swept.count(probe->id()), 1u) << probe->id();
    EXPECT_EQ(k_clearing.count(probe->spec().clearing), 1u) << probe->id();
  }
}

class EveryProbe : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryProbe, HealthyFleetGivesOnlyClearingSignals) {
  model::Fabric fabric = healthy_fleet();
  fabric.ib = ib_fat_tree().ib;  // a healthy InfiniBand subnet beside it, for the IB probes
  probes::ProbeResult result = run_probe(GetParam(), fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Ran) << result.reason;
  ASSERT_FALSE(result.findings.empty());
  for (const auto& finding : result.findings) {
    EXPECT_TRUE(k_clearing.count(finding.signal))
        << GetParam() << " raised " << finding.signal << ": " << finding.summary;
  }
}

TEST_P(EveryProbe, LargerFleetWithTwoSamplesStaysQuiet) {
  FleetSpec spec;
  spec.hosts = 64;
  spec.nics_per_host = 8;
  spec.leaves = 8;
  model::Fabric fabric = healthy_fleet(spec);
  fabric.ib = ib_fat_tree(IbSpec{.leaves = 8, .spines = 4, .hosts_per_leaf = 8}).ib;
  probes::ProbeResult result = run_probe(GetParam(), fabric);
  for (const auto& finding : result.findings) {
    EXPECT_TRUE(k_clearing.count(finding.signal))
        << GetParam() << " raised " << finding.signal << ": " << finding.summary;
  }
}

TEST_P(EveryProbe, EmptyCaptureIsSkippedWithAReasonNeverCleared) {
  model::Fabric fabric;
  probes::ProbeResult result = run_probe(GetParam(), fabric);
  EXPECT_EQ(result.status, probes::ProbeStatus::Skipped) << GetParam();
  EXPECT_FALSE(result.reason.empty());
  for (const auto& finding : result.findings) {
    EXPECT_FALSE(k_clearing.count(finding.signal)) << GetParam();
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  for (char& c : name) {
    if (c == '-') {
      c = '_';
    }
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Builtin, EveryProbe, ::testing::ValuesIn(all_ids()), test_name);

TEST(AllProbes, CounterProbesSkipWhenNoCounterWasCaptured) {
  model::Fabric fabric = healthy_fleet();
  clear_nic_counters(fabric);
  for (auto& sw : fabric.switches) {
    for (auto& port : sw.ports) {
      for (auto& sample : port.samples) {
        sample.values.clear();
      }
    }
  }
  for (const char* id : {"pfc-pause", "drops-buffers", "ecn-cnp", "retransmits", "link-errors",
                         "traffic-isolation", "packet-size", "utilization-ecmp"}) {
    probes::ProbeResult result = run_probe(id, fabric);
    EXPECT_EQ(result.status, probes::ProbeStatus::Skipped) << id;
    EXPECT_NE(result.reason.find("no data for"), std::string::npos) << id << ": " << result.reason;
    for (const auto& finding : result.findings) {
      EXPECT_FALSE(k_clearing.count(finding.signal)) << id;
    }
  }
}

}  // namespace
}  // namespace netdoctor::testing
