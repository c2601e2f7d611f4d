// Each probe on the shared example bundles: it fires on its scenario's culprit and raises no
// fault on the healthy bundle. The bundles are examples of formats, not tuning data: the
// probes' thresholds come from physics and fleet statistics, and these tests only check that
// the expected entity is among what the right signal names.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "base/bundle.h"
#include "model/loader.h"
#include "tests/probes/probe_runner.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {

struct Expectation {
  std::string probe;
  std::string signal;
};

const std::map<std::string, Expectation> k_by_cause = {
    {"pfc-storm", {"pfc-pause", "pfc-storm-origin"}},
    {"ecmp-imbalance", {"utilization-ecmp", "ecmp-imbalance"}},
    {"mtu-mismatch", {"mtu", "mtu-mismatch"}},
    {"firmware-mismatch", {"firmware", "firmware-mismatch"}},
    {"clock-skew", {"clock", "clock-offset"}},
    {"link-errors", {"link-errors", "link-errors"}},
    {"link-degraded", {"link-speed", "link-degraded"}},
    {"buffer-exhaustion", {"drops-buffers", "lossless-queue-drops"}},
    {"ecn-misconfig", {"ecn-cnp", "ecn-inactive"}},
    {"lossy-roce", {"qos-config", "pfc-disabled-on-roce-priority"}},
    {"traffic-isolation", {"traffic-isolation", "non-rdma-on-lossless"}},
    {"small-messages", {"packet-size", "small-packets"}},
    {"addressing-conflict", {"addressing", "duplicate-ip"}},
    {"oversubscription", {"oversubscription", "oversubscribed-leaf"}},
    {"baseline-regression", {"perftest-baseline", "perftest-regression"}},
};

const std::set<std::string>& k_clearing = clearing_signals();

std::optional<model::Fabric> load(const std::string& bundle_file) {
  auto bundle = open_bundle(shared_dir() + "/scenarios/" + bundle_file);
  if (!bundle) {
    ADD_FAILURE() << bundle.error().describe();
    return std::nullopt;
  }
  auto fabric = model::load_fabric(bundle.value());
  if (!fabric) {
    ADD_FAILURE() << fabric.error().describe();
    return std::nullopt;
  }
  return std::move(fabric.value());
}

nlohmann::json expectations() {
  return nlohmann::json::parse(read_text(shared_dir() + "/scenarios/expected.json"));
}

TEST(Scenarios, EachProbeFiresOnItsScenarioCulprit) {
  for (const auto& scenario : expectations()) {
    if (scenario["cause"].is_null()) {
      continue;
    }
    std::string cause = scenario["cause"];
    auto it = k_by_cause.find(cause);
    ASSERT_NE(it, k_by_cause.end()) << cause;
    SCOPED_TRACE(scenario["scenario"].get<std::string>());
    auto fabric = load(scenario["bundle"]);
    ASSERT_TRUE(fabric);
    auto result = run_probe(it->second.probe, *fabric);
    auto findings = with_signal(result, it->second.signal);
    ASSERT_FALSE(findings.empty())
        << it->second.probe << " gave no " << it->second.signal << " (status "
        << probes::to_string(result.status) << ", " << result.reason << ")";
    if (scenario["culprits_any"].empty()) {
      continue;
    }
    bool named = false;
    for (const auto& finding : findings) {
      for (const auto& culprit : scenario["culprits_any"]) {
        named = named || names(finding, culprit.get<std::string>());
      }
    }
    EXPECT_TRUE(named) << it->second.signal << ": " << findings[0].summary;
  }
}

TEST(Scenarios, HealthyBundleRaisesNoFault) {
  auto fabric = load("healthy.tar.gz");
  ASSERT_TRUE(fabric);
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  for (const auto* probe : registry.all()) {
    auto result = run_probe(probe->id(), *fabric);
    EXPECT_NE(result.status, probes::ProbeStatus::Failed) << probe->id();
    for (const auto& finding : result.findings) {
      EXPECT_TRUE(k_clearing.count(finding.signal))
          << probe->id() << " raised " << finding.signal << ": " << finding.summary;
    }
  }
}

}  // namespace
}  // namespace netdoctor::testing

namespace netdoctor::testing {
namespace {

// A diagnostic aid, not a check: prints every probe's non-clearing findings on every bundle
// (run with --gtest_also_run_disabled_tests --gtest_filter='*DumpFindings*').
TEST(Scenarios, DISABLED_DumpFindings) {
  probes::ProbeRegistry registry;
  probes::register_builtin_probes(registry);
  for (const auto& scenario : expectations()) {
    auto fabric = load(scenario["bundle"]);
    ASSERT_TRUE(fabric);
    std::printf("=== %s\n", scenario["scenario"].get<std::string>().c_str());
    for (const auto* probe : registry.all()) {
      auto result = run_probe(probe->id(), *fabric);
      if (!result.reason.empty()) {
        std::printf("  [%s] %s: %s\n", probe->id().c_str(), probes::to_string(result.status),
                    result.reason.c_str());
      }
      for (const auto& finding : result.findings) {
        if (!k_clearing.count(finding.signal)) {
          std::printf("  %-18s %-28s %.2f %s | %s\n", probe->id().c_str(), finding.signal.c_str(),
                      finding.strength,
                      finding.entities.empty() ? "-" : finding.entities[0].c_str(),
                      finding.summary.c_str());
        }
      }
    }
  }
}

}  // namespace
}  // namespace netdoctor::testing
