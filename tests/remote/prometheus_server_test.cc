// Diagnose from a real Prometheus server (tests/remote/prometheus_fixture.h): a simulator fabric
// exported as node_exporter, snmp_exporter (if_mib), sonic-exporter and netdoctor textfile
// series, backfilled with promtool and served on 127.0.0.1. `diagnose --prometheus` must name
// the simulator's cause and culprit: a PFC storm from host series alone, an ECMP imbalance that
// only switch counters show; without switch series it still completes and says so.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/remote/prometheus_fixture.h"
#include "tests/remote/remote_test_support.h"
#include "tests/support/test_paths.h"

namespace netdoctor::remote {
namespace {

namespace fs = std::filesystem;
namespace t = netdoctor::testing;

struct Diagnosed {
  nlohmann::json json;
  std::size_t series = 0;  // from the "read N series" line on stderr
};

Diagnosed diagnose_counting(const t::ServedFabric& fabric, std::vector<std::string> extra) {
  std::vector<std::string> args = {"diagnose",
                                   "--prometheus",
                                   fabric.url,
                                   "--at",
                                   fmt::format("{:.3f}", fabric.at),
                                   "--window",
                                   fmt::format("{:.3f}s", fabric.at - fabric.start),
                                   "--symptom",
                                   fabric.expected.at("symptom").get<std::string>(),
                                   "--format",
                                   "json",
                                   "--no-record"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = t::run_netdoctor(args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  auto json = nlohmann::json::parse(result.out, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << result.out << result.err;
  Diagnosed out{json.is_discarded() ? nlohmann::json::object() : json, 0};
  std::smatch read;
  if (std::regex_search(result.err, read, std::regex(R"(read (\d+) series)"))) {
    out.series = std::stoul(read[1].str());
  }
  EXPECT_GT(out.series, 0u) << result.err;
  return out;
}

nlohmann::json diagnose(const t::ServedFabric& fabric, std::vector<std::string> extra) {
  return diagnose_counting(fabric, std::move(extra)).json;
}

// The top cause is the simulator's, and it names one of the simulator's culprits.
void expect_cause_and_culprit(const nlohmann::json& diagnosis, const nlohmann::json& expected) {
  ASSERT_TRUE(diagnosis.contains("causes") && !diagnosis.at("causes").empty()) << diagnosis.dump(1);
  const auto& top = diagnosis.at("causes").at(0);
  EXPECT_EQ(top.at("id"), expected.at("cause")) << diagnosis.dump(1);
  bool culprit = false;
  for (const auto& entity : top.at("entities")) {
    for (const auto& candidate : expected.at("culprits_any")) {
      culprit = culprit || entity == candidate;
    }
  }
  EXPECT_TRUE(culprit) << "entities " << top.at("entities").dump() << " name none of "
                       << expected.at("culprits_any").dump();
}

// A diagnosis read with only what the probes read has every cause, ruled-out line and data
// problem of the one read whole.
void expect_same_diagnosis(const nlohmann::json& narrow, const nlohmann::json& whole) {
  for (const char* key : {"causes", "ruled_out", "data_problems"}) {
    EXPECT_EQ(narrow.value(key, nlohmann::json()).dump(1),
              whole.value(key, nlohmann::json()).dump(1))
        << key;
  }
}

bool says_switch_data_missing(const nlohmann::json& diagnosis) {
  for (const auto& problem : diagnosis.value("data_problems", nlohmann::json::array())) {
    if (problem.get<std::string>().find("switch data not available") != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(PrometheusServerTest, DiagnosesPfcStormFromNodeExporterSeries) {
  if (!t::prometheus_installed()) {
    GTEST_SKIP() << "prometheus/promtool not installed (Debian package prometheus; scripts/setup)";
  }
  const auto fabric = t::serve_simulated_fabric(
      {"--hosts", "8", "--nics", "4", "--fault", "pfc-storm", "--seed", "11"}, false);
  ASSERT_NE(fabric.server, nullptr);
  const fs::path saved = fabric.dir / "from-prometheus";
  // A saved bundle is a record: it gets every priority's per-priority stats.
  const auto kept = diagnose_counting(fabric, {"--save-bundle", saved.string()});
  const auto& diagnosis = kept.json;
  expect_cause_and_culprit(diagnosis, fabric.expected);
  // Hosts alone: the run completes and says the switches were not read.
  EXPECT_TRUE(says_switch_data_missing(diagnosis))
      << diagnosis.value("data_problems", nlohmann::json::array()).dump();
  // The bundle read from Prometheus has both samples of every host.
  const fs::path host = saved / "hosts" / fabric.hosts.front();
  EXPECT_TRUE(fs::exists(host / "001/captured_at"));
  EXPECT_TRUE(fs::exists(host / "001/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data"));
  EXPECT_FALSE(fs::exists(host / "002"));
  EXPECT_FALSE(fs::exists(saved / "switches"));

  // One host per query: eight batches, the same diagnosis, no batch reported. Without
  // --save-bundle only the counters that become a metric the probes read (per-priority ones on
  // the priorities they read) are fetched: fewer series, the same causes and ruled-out lines.
  const auto narrow = diagnose_counting(fabric, {"--prometheus-batch", "1"});
  const auto& batched = narrow.json;
  expect_cause_and_culprit(batched, fabric.expected);
  EXPECT_LT(narrow.series, kept.series);
  expect_same_diagnosis(batched, diagnosis);
  for (const auto& problem : batched.value("data_problems", nlohmann::json::array())) {
    EXPECT_EQ(problem.get<std::string>().find("batch"), std::string::npos) << problem;
  }
}

TEST(PrometheusServerTest, DiagnosesEcmpImbalanceFromSwitchSeries) {
  if (!t::prometheus_installed()) {
    GTEST_SKIP() << "prometheus/promtool not installed (Debian package prometheus; scripts/setup)";
  }
  const auto fabric = t::serve_simulated_fabric(
      {"--hosts", "8", "--nics", "4", "--fault", "ecmp-imbalance", "--seed", "11"}, true);
  ASSERT_NE(fabric.server, nullptr);
  const fs::path saved = fabric.dir / "from-prometheus";
  const auto kept = diagnose_counting(fabric, {"--save-bundle", saved.string()});
  const auto& diagnosis = kept.json;
  expect_cause_and_culprit(diagnosis, fabric.expected);
  EXPECT_FALSE(says_switch_data_missing(diagnosis))
      << diagnosis.value("data_problems", nlohmann::json::array()).dump();
  // Every switch of the simulator became a switch sample pair, with the five SONiC outputs.
  for (const auto& sw : fs::directory_iterator(fabric.dir / "bundle/switches")) {
    const fs::path sample = saved / "switches" / sw.path().filename() / "001/sos_commands/sonic";
    for (const char* command : {"show_interfaces_counters", "show_interfaces_status",
                                "show_pfc_counters", "show_queue_counters", "show_lldp_table"}) {
      EXPECT_TRUE(fs::exists(sample / command)) << sample / command;
    }
  }

  // Read without --save-bundle, the switches are handed to the model's loader group by group
  // instead of laid out whole first, and their PFC series are asked for on the RoCE priority
  // alone (a query of two selectors): fewer series, the same causes on the same places.
  const auto narrow = diagnose_counting(fabric, {});
  const auto& streamed = narrow.json;
  expect_cause_and_culprit(streamed, fabric.expected);
  ASSERT_FALSE(streamed.value("causes", nlohmann::json::array()).empty()) << streamed.dump(1);
  expect_same_diagnosis(streamed, diagnosis);
  EXPECT_LT(narrow.series, kept.series);
  EXPECT_FALSE(says_switch_data_missing(streamed)) << streamed.dump(1);

  // The same server read without the switch jobs: the imbalance is invisible from the hosts,
  // and the run completes saying the switch data was not available.
  const auto hosts_only = diagnose(fabric, {"--prometheus-selector", "job=\"node\""});
  EXPECT_TRUE(says_switch_data_missing(hosts_only)) << hosts_only.dump(1);
  for (const auto& cause : hosts_only.value("causes", nlohmann::json::array())) {
    EXPECT_NE(cause.at("id"), "ecmp-imbalance") << hosts_only.dump(1);
  }
}

// Drops on a lossless queue: without --save-bundle the switches' queue traffic is asked for
// after the rest, only for the switches whose drops (or missing rates) want it; the finding
// still gives the share of the queue's traffic dropped, and every cause is the same.
TEST(PrometheusServerTest, QueueTrafficIsReadAfterTheRestWhereDropsWantIt) {
  if (!t::prometheus_installed()) {
    GTEST_SKIP() << "prometheus/promtool not installed (Debian package prometheus; scripts/setup)";
  }
  const auto fabric = t::serve_simulated_fabric(
      {"--hosts", "8", "--nics", "2", "--fault", "buffer-exhaustion", "--seed", "5"}, true);
  ASSERT_NE(fabric.server, nullptr);
  const fs::path saved = fabric.dir / "from-prometheus";
  const auto kept = diagnose_counting(fabric, {"--save-bundle", saved.string()});
  expect_cause_and_culprit(kept.json, fabric.expected);
  const auto narrow = diagnose_counting(fabric, {});
  expect_cause_and_culprit(narrow.json, fabric.expected);
  ASSERT_FALSE(narrow.json.value("causes", nlohmann::json::array()).empty());
  expect_same_diagnosis(narrow.json, kept.json);
  EXPECT_NE(narrow.json.at("causes").dump().find("of that queue's traffic"), std::string::npos)
      << narrow.json.at("causes").dump(1);
  EXPECT_LT(narrow.series, kept.series);
  for (const auto& problem : narrow.json.value("data_problems", nlohmann::json::array())) {
    EXPECT_EQ(problem.get<std::string>().find("queue traffic"), std::string::npos) << problem;
  }
}

TEST(PrometheusServerTest, AnUnreachableServerIsAFailureNamingIt) {
  const std::string url =
      fmt::format("http://127.0.0.1:{}", netdoctor::testing::unused_loopback_port());
  const auto result = t::run_netdoctor({"diagnose", "--prometheus", url, "--symptom", "slowdown",
                                        "--no-record", "--prometheus-timeout", "2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find(url), std::string::npos) << result.err;
}

TEST(PrometheusServerTest, BadOptionsAreUsageErrors) {
  auto result = t::run_netdoctor({"diagnose", "--prometheus", "http://127.0.0.1:1", "--window",
                                  "five minutes", "--no-record"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--window"), std::string::npos) << result.err;
  result = t::run_netdoctor(
      {"diagnose", "--prometheus", "http://127.0.0.1:1", "--bundle", "x", "--no-record"});
  EXPECT_EQ(result.exit_code, 2);
  result = t::run_netdoctor({"diagnose", "--no-record"});
  EXPECT_EQ(result.exit_code, 2);
}

}  // namespace
}  // namespace netdoctor::remote
