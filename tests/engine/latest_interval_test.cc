// A long capture is judged over its latest interval as well as its whole window: what the
// latest interval shows beyond the whole window joins the evidence, a whole-window "quiet" it
// contradicts goes, and nothing changes for a capture of two samples, a probe that reads no
// counters, or a fault the whole window already shows as strongly.
#include "engine/latest_interval.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "fake_probes.h"
#include "model/source_names.h"
#include "tests/kb/registered.h"

namespace netdoctor::engine {
namespace {

using testing::finding;

// Stands for the pfc-pause probe: over a view whose first sample is at or after `storm_from`, the
// storm is all it sees (strength 1); over a window that only ends in it, the storm is averaged
// down to `diluted` (0: the window reads quiet).
class StormFromProbe final : public probes::Probe {
 public:
  StormFromProbe(double storm_from, double diluted, std::vector<std::string> reads,
                 probes::CostClass cost = probes::CostClass::Passive)
      : m_storm_from(storm_from), m_diluted(diluted) {
    m_spec.id = "pfc-pause";
    m_spec.description = "storm from a time";
    m_spec.cost = cost;
    m_spec.reads = std::move(reads);
    m_spec.findings = {"pfc-storm-origin", "pfc-pause-victim"};
    m_spec.clearing = "pfc-quiet";
  }

  const probes::ProbeSpec& spec() const override { return m_spec; }

  probes::ProbeResult run(const probes::ProbeContext& context) const override {
    ++runs;
    probes::ProbeResult result;
    result.probe_id = m_spec.id;
    const std::vector<double>& times = context.fabric.hosts.front().captured_at;
    const double share = times.front() >= m_storm_from ? 1.0 : m_diluted;
    if (share > 0.0) {
      result.findings.push_back(finding("pfc-storm-origin", {"h1/mlx5_0"}, share,
                                        "h1/mlx5_0 sends pause at " + std::to_string(share)));
    } else {
      result.findings.push_back(finding("pfc-quiet", {}, 1.0, "no NIC pausing"));
    }
    return result;
  }

  mutable int runs = 0;

 private:
  probes::ProbeSpec m_spec;
  double m_storm_from;
  double m_diluted;
};

// One host sampled every 30 s from t=1000.
model::Fabric fabric_of(std::size_t samples) {
  model::Fabric fabric;
  model::Host host;
  host.name = "h1";
  for (std::size_t s = 0; s < samples; ++s) {
    host.captured_at.push_back(1000.0 + 30.0 * static_cast<double>(s));
  }
  fabric.hosts.push_back(std::move(host));
  return fabric;
}

const std::vector<std::string> k_counters = {model::source::k_ethtool_stats};

probes::ProbeResult whole_run(const StormFromProbe& probe, const model::Fabric& fabric) {
  return probe.run(probes::ProbeContext{fabric, {}});
}

// The whole-window run over `samples` samples with the latest interval folded in.
probes::ProbeResult folded(std::size_t samples, const StormFromProbe& probe) {
  const kb::Catalog catalog = kb::testing::embedded_catalog();
  const model::Fabric fabric = fabric_of(samples);
  probes::ProbeResult result = whole_run(probe, fabric);
  LatestInterval(fabric).fold_into(probe, {}, catalog, result);
  return result;
}

bool has_signal(const probes::ProbeResult& result, const std::string& signal) {
  for (const probes::Finding& f : result.findings) {
    if (f.signal == signal) {
      return true;
    }
  }
  return false;
}

TEST(LatestInterval, AStormOfTheLastIntervalAloneIsFoundAndTheAveragedQuietGoes) {
  const kb::Catalog catalog = kb::testing::embedded_catalog();
  const model::Fabric fabric = fabric_of(20);  // the last interval starts at 1000 + 18 * 30
  const StormFromProbe probe(1540.0, 0.0, k_counters);
  probes::ProbeResult result = whole_run(probe, fabric);
  ASSERT_TRUE(has_signal(result, "pfc-quiet"));

  const LatestInterval latest(fabric);
  ASSERT_TRUE(latest.has_view());
  latest.fold_into(probe, {}, catalog, result);
  EXPECT_EQ(probe.runs, 2);
  ASSERT_TRUE(has_signal(result, "pfc-storm-origin"));
  EXPECT_FALSE(has_signal(result, "pfc-quiet"));
  const probes::Finding& added = result.findings.back();
  EXPECT_EQ(added.entities, std::vector<std::string>{"h1/mlx5_0"});
  EXPECT_EQ(added.strength, 1.0);
  EXPECT_NE(added.summary.find("in the latest interval (1970-01-01T00:25:40Z to "),
            std::string::npos)
      << added.summary;
}

TEST(LatestInterval, AFindingTheWindowDilutedIsAddedAtItsPresentStrength) {
  const probes::ProbeResult result = folded(10, StormFromProbe(1240.0, 0.2, k_counters));
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].strength, 0.2);  // the whole window's figure is kept beside
  EXPECT_EQ(result.findings[1].strength, 1.0);
}

TEST(LatestInterval, AFaultAsStrongOverTheWholeWindowAddsNothing) {
  // Storming before the capture began.
  const probes::ProbeResult result = folded(5, StormFromProbe(0.0, 1.0, k_counters));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].summary.find("latest interval"), std::string::npos);
}

TEST(LatestInterval, AStormThatStoppedStaysFoundFromTheWholeWindow) {
  // Storming in the window on average, quiet in its latest interval: only positives are added.
  const probes::ProbeResult result = folded(6, StormFromProbe(1e12, 0.6, k_counters));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].signal, "pfc-storm-origin");
}

TEST(LatestInterval, TwoSamplesOrNoCountersOrAnActiveTestLeaveTheResultAlone) {
  const kb::Catalog catalog = kb::testing::embedded_catalog();
  {
    const model::Fabric fabric = fabric_of(2);  // one interval: it is the whole window
    const StormFromProbe probe(1030.0, 0.0, k_counters);
    probes::ProbeResult result = whole_run(probe, fabric);
    const LatestInterval latest(fabric);
    EXPECT_FALSE(latest.has_view());
    latest.fold_into(probe, {}, catalog, result);
    EXPECT_EQ(probe.runs, 1);
    EXPECT_TRUE(has_signal(result, "pfc-quiet"));
  }
  const model::Fabric fabric = fabric_of(8);
  const LatestInterval latest(fabric);
  {
    const StormFromProbe probe(1180.0, 0.0, {model::source::k_ip_address});  // configuration only
    probes::ProbeResult result = whole_run(probe, fabric);
    latest.fold_into(probe, {}, catalog, result);
    EXPECT_EQ(probe.runs, 1);
  }
  {
    const StormFromProbe probe(1180.0, 0.0, k_counters, probes::CostClass::Active);
    probes::ProbeResult result = whole_run(probe, fabric);
    latest.fold_into(probe, {}, catalog, result);
    EXPECT_EQ(probe.runs, 1);
  }
}

}  // namespace
}  // namespace netdoctor::engine
