// Properties every probe shares: a healthy fleet yields only clearing signals; a capture
// without the probe's data yields Skipped with a reason and never a clearing signal.
#include <gtest/gtest.h>

#include <set>

#include "probes/probe.h"
#include "tests/probes/fabric_builder.h"
#include "tests/probes/probe_runner.h"

namespace netdoctor::testing {
namespace {

const std::set<std::string> k_clearing = {
    "pfc-quiet",      "drops-clear",         "ecn-active",         "retransmits-clear",
    "link-clean",     "link-speed-ok",       "ecmp-balanced",      "capacity-balanced",
    "mtu-consistent", "firmware-consistent", "qos-consistent",     "isolation-ok",
    "clock-ok",       "addressing-ok",       "packet-size-normal", "perftest-ok"};

std::vector<std::string> all_ids() {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  std::vector<std::string> ids;
  for (const auto* probe : registry.all()) {
    ids.push_back(probe->id());
  }
  return ids;
}

TEST(AllProbes, RegistryListsEveryProbeOfTheContract) {
  auto ids = all_ids();
  std::set<std::string> set(ids.begin(), ids.end());
  for (const char* id :
       {"pfc-pause", "drops-buffers", "ecn-cnp", "retransmits", "link-errors", "link-speed",
        "utilization-ecmp", "oversubscription", "mtu", "firmware", "qos-config",
        "traffic-isolation", "clock", "addressing", "packet-size", "perftest-baseline"}) {
    EXPECT_TRUE(set.count(id)) << id;
  }
  EXPECT_EQ(ids.size(), 16u);
}

class EveryProbe : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryProbe, HealthyFleetGivesOnlyClearingSignals) {
  model::Fabric fabric = healthy_fleet();
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
