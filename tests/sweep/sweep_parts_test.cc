// The sweep's parts on their own: pairing and waves, counter readings, the renderers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "sweep/counters.h"
#include "sweep/pairing.h"
#include "sweep/render.h"

namespace netdoctor::sweep {
namespace {

std::vector<Nic> fleet(std::size_t leaves, std::size_t hosts_per_leaf, std::size_t nics) {
  std::vector<Nic> out;
  for (std::size_t l = 0; l < leaves; ++l) {
    for (std::size_t h = 0; h < hosts_per_leaf; ++h) {
      for (std::size_t n = 0; n < nics; ++n) {
        Nic nic;
        nic.host = "h" + std::to_string(l * hosts_per_leaf + h);
        nic.device = "mlx5_" + std::to_string(n);
        nic.leaf = "leaf" + std::to_string(l);
        nic.line_gbps = 400;
        out.push_back(nic);
      }
    }
  }
  return out;
}

TEST(SweepPairing, RoundOneGivesEveryNicOnePartnerOnAnotherLeafAndRail) {
  const auto nics = fleet(4, 3, 2);
  const auto pairs = round_one_pairs(nics, Pairing::Matching);
  ASSERT_EQ(pairs.size(), 12u);
  std::multiset<std::size_t> seen;
  for (const auto& pair : pairs) {
    seen.insert(pair.client);
    seen.insert(pair.server);
    EXPECT_NE(nics[pair.client].leaf, nics[pair.server].leaf);
    EXPECT_EQ(nics[pair.client].device, nics[pair.server].device);
  }
  for (std::size_t i = 0; i < nics.size(); ++i) {
    EXPECT_EQ(seen.count(i), 1u) << i;
  }
}

TEST(SweepPairing, AnOddNicOutJoinsAThreeCycle) {
  auto nics = fleet(3, 1, 1);
  const auto pairs = round_one_pairs(nics, Pairing::Matching);
  ASSERT_EQ(pairs.size(), 2u);
  std::multiset<std::size_t> seen;
  for (const auto& pair : pairs) {
    seen.insert(pair.client);
    seen.insert(pair.server);
  }
  EXPECT_EQ(seen.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_GE(seen.count(i), 1u);
  }
}

TEST(SweepPairing, WavesKeepOneTestPerNicAndTheLeafCap) {
  const auto nics = fleet(4, 8, 4);
  const auto pairs = round_one_pairs(nics, Pairing::Ring);
  const auto waves = schedule_waves(pairs, nics, 5, 1000);
  std::multiset<std::size_t> placed;
  for (const auto& wave : waves) {
    std::set<std::size_t> busy;
    std::map<std::string, int> load;
    for (std::size_t index : wave) {
      placed.insert(index);
      const PairIndex& pair = pairs[index];
      EXPECT_TRUE(busy.insert(pair.client).second);
      EXPECT_TRUE(busy.insert(pair.server).second);
      ++load[nics[pair.client].leaf];
      if (nics[pair.server].leaf != nics[pair.client].leaf) {
        ++load[nics[pair.server].leaf];
      }
    }
    for (const auto& [leaf, count] : load) {
      EXPECT_LE(count, 5) << leaf;
    }
  }
  ASSERT_EQ(placed.size(), pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(placed.count(i), 1u) << i;
  }
  // 128 ring pairs, each touching two of 4 leaves, at most 5 per leaf: at least 13 waves.
  EXPECT_GE(waves.size(), 13u);
  EXPECT_LE(waves.size(), 20u);
}

TEST(SweepCounters, GrepLinesAreReadAndGarbageIsNoReading) {
  CounterReadings readings;
  parse_counter_output(
      "/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data:1000\n"
      "/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error:7\n"
      "/sys/class/infiniband/mlx5_1/ports/1/counters/port_rcv_data:-3\n"
      "/sys/class/infiniband/mlx5_1/ports/1/counters/port_rcv_data:99999999999999999999999\n"
      "grep: /sys/class/infiniband/mlx5_9/ports/1/counters/x: No such file\n"
      "garbage\n",
      "n1", readings);
  ASSERT_EQ(readings.size(), 1u);
  EXPECT_EQ(readings["n1/mlx5_0"]["port_xmit_data"], 1000u);
  EXPECT_EQ(readings["n1/mlx5_0"]["symbol_error"], 7u);
  CounterReadings later = readings;
  later["n1/mlx5_0"]["symbol_error"] = 19;
  EXPECT_EQ(grown_link_errors(readings, later, "n1/mlx5_0"),
            std::vector<std::string>{"symbol_error +12"});
  EXPECT_TRUE(grown_link_errors(readings, later, "n1/mlx5_1").empty());
}

TEST(SweepCounters, DataRateCountsBothDirectionsInFourByteWords) {
  CounterReadings a;
  CounterReadings b;
  a["h/d"] = {{"port_xmit_data", 0}, {"port_rcv_data", 0}};
  b["h/d"] = {{"port_xmit_data", 125'000'000}, {"port_rcv_data", 125'000'000}};
  EXPECT_DOUBLE_EQ(data_gbps(a, b, "h/d", 1.0), 8.0);
  b["h/d"]["port_xmit_data"] = 0;  // reset between the reads: no rate from it
  b["h/d"]["port_rcv_data"] = 0;
  EXPECT_DOUBLE_EQ(data_gbps(a, b, "h/d", 1.0), 0.0);
  EXPECT_DOUBLE_EQ(data_gbps(a, b, "h/other", 1.0), 0.0);
}

SweepReport hostile_report() {
  SweepReport report;
  report.verdict = Verdict::SlowFound;
  report.summary = "1 slow: nic:node<script>|x/mlx5_0";
  report.slow.push_back({"nic:node<script>|x/mlx5_0",
                         200.0,
                         360.0,
                         {"ib_write_bw node<script>|x/mlx5_0 -> [a](http://e) \x1b[31m"}});
  SweepRun run;
  run.round = 1;
  run.test = "ib_write_bw";
  run.client =
      "node<script>|x\xc2\x9b"
      "31m\x9b"
      "2J\xe2\x80\xae\x1b]0;t\x07";
  run.server = "n2";
  run.device = "mlx5_0";
  run.gbps = 200.0;
  run.expected_gbps = 360.0;
  run.result = SweepRun::Result::Slow;
  report.runs.push_back(run);
  report.left_out.push_back({"**bold**", "unreachable", "`code`"});
  return report;
}

TEST(SweepRender, MarkdownKeepsHostileNamesInert) {
  const std::string md = render_markdown(hostile_report());
  // Every '<' of the hostile text is escaped ("<br>" joins evidence lines on purpose).
  for (std::size_t at = md.find('<'); at != std::string::npos; at = md.find('<', at + 1)) {
    EXPECT_TRUE(md.compare(at, 4, "<br>") == 0 || (at > 0 && md[at - 1] == '\\')) << md;
  }
  EXPECT_NE(md.find("\\<script"), std::string::npos) << md;
  EXPECT_EQ(md.find("[a](http"), std::string::npos) << md;
  EXPECT_EQ(md.find("**bold**"), std::string::npos) << md;
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  EXPECT_EQ(md.find('\x9b'), std::string::npos);
  EXPECT_EQ(md.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_NE(md.find("| slow |"), std::string::npos) << md;
}

TEST(SweepRender, TextKeepsControlBytesOffTheTerminal) {
  const std::string text = render_text(hostile_report());
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_EQ(text.find('\x9b'), std::string::npos);  // neither U+009B nor a raw 8-bit CSI
  EXPECT_EQ(text.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_NE(text.find("\\x1b"), std::string::npos) << text;
  EXPECT_NE(text.find("x\\u009b31m\\x9b2J\\u202e\\x1b]0;t\\x07"), std::string::npos) << text;
}

TEST(SweepRender, JsonIsTheContract) {
  const nlohmann::json json = to_json(hostile_report());
  EXPECT_EQ(json["format"], "netdoctor-sweep");
  EXPECT_EQ(json["version"], 1);
  EXPECT_EQ(json["verdict"], "slow-found");
  for (const char* key : {"slow", "runs", "left_out", "rounds", "wall_s", "budget_s",
                          "budget_exhausted", "interrupted", "created_at", "thresholds"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  const auto& run = json["runs"][0];
  for (const char* key : {"client", "server", "device", "test", "gbps", "lat_us", "round",
                          "expected_gbps", "result"}) {
    EXPECT_TRUE(run.contains(key)) << key;
  }
  EXPECT_EQ(json["slow"][0]["entity"], "nic:node<script>|x/mlx5_0");
}

}  // namespace
}  // namespace netdoctor::sweep
