// The switch side of a PFC storm on fabrics the engine has not seen: the simulator's leaf PFC
// watchdog detects the storm on the port facing the storming NIC, and the diagnosis carries
// that as evidence for pfc-storm, alone and beside a second fault; and a fabric whose hosts
// captured LLDP only in lldpcli's text form diagnoses as its JSON twin does.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/pipeline.h"
#include "engine/render.h"
#include "tests/fabrics/sim_bundle.h"

namespace netdoctor::engine {
namespace {

using netdoctor::testing::SimBundle;
using netdoctor::testing::simulate;

Diagnosis diagnose_sim(const SimBundle& bundle) {
  EXPECT_FALSE(bundle.expected.is_null());
  DiagnoseOptions options;
  options.symptom = bundle.expected.at("symptom").get<std::string>();
  auto diagnosis = diagnose_bundle(bundle.path, options);
  EXPECT_TRUE(diagnosis.ok()) << diagnosis.error().describe();
  return diagnosis.ok() ? std::move(diagnosis).value() : Diagnosis{};
}

const RankedCause* find_cause(const Diagnosis& diagnosis, const std::string& id) {
  for (const RankedCause& cause : diagnosis.causes) {
    if (cause.id == id) {
      return &cause;
    }
  }
  return nullptr;
}

// The pfc-storm culprits the simulator wrote: nic, netdev and the leaf port facing it.
std::vector<std::string> storm_culprits(const SimBundle& bundle) {
  for (const auto& fault : bundle.expected.at("faults")) {
    if (fault.at("id") == "pfc-storm") {
      return fault.at("culprits_any").get<std::vector<std::string>>();
    }
  }
  return {};
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// pfc-storm is reported on the storming NIC, with the watchdog evidence naming its port.
void expect_watchdog_evidence(const SimBundle& bundle, const std::string& flags) {
  const Diagnosis diagnosis = diagnose_sim(bundle);
  const std::string text = flags + "\n" + render_text(diagnosis);
  const RankedCause* storm = find_cause(diagnosis, "pfc-storm");
  ASSERT_NE(storm, nullptr) << text;
  const auto culprits = storm_culprits(bundle);
  ASSERT_EQ(culprits.size(), 3u) << bundle.expected.dump(1);
  EXPECT_TRUE(contains(storm->entities, culprits[0])) << text;  // nic:
  EXPECT_TRUE(contains(storm->entities, culprits[2])) << text;  // port:
  const std::string port_name = culprits[2].substr(culprits[2].find('/') + 1);
  const auto watchdog =
      std::find_if(storm->evidence.begin(), storm->evidence.end(),
                   [](const EvidenceItem& item) { return item.signal == "pfcwd-storm-detected"; });
  ASSERT_NE(watchdog, storm->evidence.end()) << text;
  EXPECT_GT(watchdog->weight, 0.0);
  EXPECT_NE(watchdog->summary.find(port_name + " queue 3"), std::string::npos) << watchdog->summary;
}

TEST(SimPfcwdFabric, BroadcomFabricStormCarriesTheLeafWatchdogEvidence) {
  const std::string flags =
      "--hosts 10 --nics 2 --hosts-per-leaf 5 --vendors bnxt --fault pfc-storm --seed 43";
  const SimBundle bundle = simulate("pfcwd-bnxt", flags);
  expect_watchdog_evidence(bundle, flags);
  EXPECT_EQ(diagnose_sim(bundle).causes.front().id, "pfc-storm");
}

TEST(SimPfcwdFabric, StormBesideASecondFaultKeepsTheWatchdogEvidence) {
  const std::string flags =
      "--hosts 12 --nics 4 --hosts-per-leaf 4 --vendors mlx5,bnxt --samples 3 --fault pfc-storm "
      "--fault mtu-mismatch --seed 47";
  const SimBundle bundle = simulate("pfcwd-two", flags);
  expect_watchdog_evidence(bundle, flags);
  EXPECT_NE(find_cause(diagnose_sim(bundle), "mtu-mismatch"), nullptr);
}

// Cause ids with their entities and confidence, in rank order.
std::vector<std::string> ranked(const Diagnosis& diagnosis) {
  std::vector<std::string> out;
  for (const RankedCause& cause : diagnosis.causes) {
    std::string line = cause.id + " " + std::to_string(cause.confidence);
    for (const std::string& entity : cause.entities) {
      line += " " + entity;
    }
    out.push_back(line);
  }
  return out;
}

TEST(SimLldpTextFabric, TextOnlyLldpDiagnosesLikeTheJsonTwin) {
  for (const std::string fault : {"pfc-storm", "link-errors", "healthy"}) {
    const std::string flags =
        "--hosts 8 --nics 4 --hosts-per-leaf 4 --fault " + fault + " --seed 19";
    const Diagnosis json = diagnose_sim(simulate("lldp-json", flags));
    const Diagnosis text = diagnose_sim(simulate("lldp-text", flags + " --lldp-view text"));
    EXPECT_EQ(to_string(text.verdict), to_string(json.verdict)) << flags;
    EXPECT_EQ(ranked(text), ranked(json)) << flags << "\n" << render_text(text);
    EXPECT_EQ(text.data_problems, json.data_problems) << flags;
  }
}

}  // namespace
}  // namespace netdoctor::engine
