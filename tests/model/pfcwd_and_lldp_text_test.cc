// Loading the SONiC PFC watchdog (show pfcwd stats / config) and lldpcli's text form, from real
// outputs:
//   tests/parsers/data/sonic_pfcwd_show_stats_stormed_operational_fixture.txt: sonic-utilities'
//     pfcwd test vectors (the real CLI's rendering of a mock DB), see
//     tests/parsers/sonic_pfcwd_test.cc;
//   reference switch/sonic_show_interfaces_counters_and_pfcwd_config_z9332.txt (Dell Z9332) and
//     switch/sonic_pfcwd_show_stats_stormed_voq.txt (VOQ chassis, stats row cut);
//   tests/parsers/data/lldpcli_text_two_veth.txt and lldpcli_json_two_veth_same_capture.json:
//     lldpd 1.0.16, one capture in both forms (tests/parsers/lldpcli_text_test.cc).
#include <gtest/gtest.h>

#include "model/loader.h"
#include "model/source_names.h"
#include "tests/model/load_mem_bundle.h"
#include "tests/model/mem_bundle.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;
using testing::parser_fixture;
using testing::read_text;
using testing::reference_file;

const std::vector<std::string> k_stats = {"show", "pfcwd", "stats"};
const std::vector<std::string> k_config = {"show", "pfcwd", "config"};

std::string stats_fixture() {
  return parser_fixture("sonic_pfcwd_show_stats_stormed_operational_fixture.txt");
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

using testing::load_mem_bundle;

TEST(PfcwdLoader, StatsPerQueueAndConfigPerPortFromRealOutputs) {
  MemBundle b;
  b.time("leaf1", "0", 100.0, true);
  b.command("leaf1", "0", k_stats, stats_fixture(), true);
  b.command(
      "leaf1", "0", k_config,
      read_text(reference_file("switch/sonic_show_interfaces_counters_and_pfcwd_config_z9332.txt")),
      true);
  const Fabric fabric = load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << fabric.problems.front().error.describe();
  const Switch& sw = fabric.switches.at(0);
  EXPECT_EQ(sw.sources.at(source::k_show_pfcwd).availability, Availability::Observed);
  const SwitchPort* e0 = sw.find_port("Ethernet0");
  ASSERT_NE(e0, nullptr);
  ASSERT_EQ(e0->samples.size(), 1u);
  EXPECT_EQ(e0->samples[0].get({"pfcwd_storms_detected", 3}), 1.0);
  EXPECT_EQ(e0->samples[0].get({"pfcwd_storms_restored", 3}), 0.0);
  EXPECT_EQ(e0->samples[0].get({"pfcwd_tx_drops", 3}), 300.0);
  EXPECT_EQ(e0->samples[0].get({"pfcwd_rx_drops", 3}), 300.0);
  EXPECT_EQ(e0->pfcwd.queues, std::vector<int>{3});
  EXPECT_EQ(e0->pfcwd.stormed, std::vector<int>{3});
  EXPECT_TRUE(e0->pfcwd.configured);
  EXPECT_EQ(e0->pfcwd.action, "drop");
  EXPECT_EQ(e0->pfcwd.detection_time_ms, 200u);
  EXPECT_EQ(e0->pfcwd.restoration_time_ms, 200u);
  // Ethernet8 watches queue 4 only: queue 3 is not watched there. Ethernet4 has no config row.
  const SwitchPort* e8 = sw.find_port("Ethernet8");
  ASSERT_NE(e8, nullptr);
  EXPECT_TRUE(e8->pfcwd.watches(4));
  EXPECT_FALSE(e8->pfcwd.watches(3));
  EXPECT_EQ(e8->samples[0].get({"pfcwd_storms_detected", 4}), 3.0);
  EXPECT_FALSE(e8->samples[0].get({"pfcwd_storms_detected", 3}).has_value());
  const SwitchPort* e4 = sw.find_port("Ethernet4");
  ASSERT_NE(e4, nullptr);
  EXPECT_TRUE(e4->pfcwd.stormed.empty());
  EXPECT_FALSE(e4->pfcwd.configured);
  EXPECT_TRUE(sw.find_port("Ethernet2")->pfcwd.configured);
}

TEST(PfcwdLoader, CountersOverSamplesAndTheLatestStatus) {
  MemBundle b;
  b.time("leaf1", "0", 100.0, true);
  b.time("leaf1", "1", 130.0, true);
  // The earlier read: Ethernet0:3 had detected no storm yet and was operational.
  const std::string before =
      replaced(stats_fixture(), "Ethernet0:3      stormed                        1/0",
               "Ethernet0:3  operational                        0/0");
  b.command("leaf1", "0", k_stats, before, true);
  b.command("leaf1", "1", k_stats, stats_fixture(), true);
  const Fabric fabric = load_mem_bundle(b);
  const SwitchPort* e0 = fabric.switches.at(0).find_port("Ethernet0");
  ASSERT_NE(e0, nullptr);
  ASSERT_EQ(e0->samples.size(), 2u);
  EXPECT_EQ(e0->samples[0].get({"pfcwd_storms_detected", 3}), 0.0);
  EXPECT_EQ(e0->samples[1].get({"pfcwd_storms_detected", 3}), 1.0);
  EXPECT_EQ(e0->pfcwd.stormed, std::vector<int>{3});  // the latest sample's status
  EXPECT_FALSE(e0->pfcwd.configured);                 // no config captured
}

TEST(PfcwdLoader, OlderSpellingWithConfigInTheSameOutputAndACutRow) {
  MemBundle b;
  b.time("leaf1", "0", 100.0, true);
  b.command("leaf1", "0", {"pfcwd", "show", "stats"},
            read_text(reference_file("switch/sonic_pfcwd_show_stats_stormed_voq.txt")), true);
  const Fabric fabric = load_mem_bundle(b);
  const SwitchPort* e0 = fabric.switches.at(0).find_port("Ethernet0");
  ASSERT_NE(e0, nullptr);
  EXPECT_EQ(e0->pfcwd.stormed, std::vector<int>{3});
  EXPECT_FALSE(e0->samples[0].get({"pfcwd_storms_detected", 3}).has_value());  // cut off
  EXPECT_TRUE(e0->pfcwd.configured);
  EXPECT_EQ(e0->pfcwd.detection_time_ms, 300u);
}

TEST(PfcwdLoader, AbsentIsAbsentAndGarbageIsAProblemNotZeroStorms) {
  MemBundle b;
  b.time("leaf1", "0", 100.0, true);
  b.time("leaf2", "0", 100.0, true);
  b.command("leaf2", "0", k_stats, "Error: PFC watchdog is not supported on this platform\n", true);
  const Fabric fabric = load_mem_bundle(b);
  EXPECT_EQ(fabric.find_switch("leaf1")->sources.at(source::k_show_pfcwd).availability,
            Availability::Absent);
  const Switch* leaf2 = fabric.find_switch("leaf2");
  EXPECT_EQ(leaf2->sources.at(source::k_show_pfcwd).availability, Availability::Malformed);
  EXPECT_TRUE(leaf2->ports.empty());
  ASSERT_EQ(fabric.problems.size(), 1u);
  EXPECT_EQ(fabric.problems[0].source, source::k_show_pfcwd);
}

// The cabling each NIC gets from the host's LLDP, by form.
std::vector<std::string> cabling(const Fabric& fabric) {
  std::vector<std::string> out;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      out.push_back(nic.netdev + " -> " + nic.port_entity());
    }
  }
  return out;
}

TEST(LldpTextLoader, TextFormCablesTheNicsLikeTheJsonOfTheSameCapture) {
  MemBundle text;
  text.time("gpu-node-01", "0", 100.0);
  text.command("gpu-node-01", "0", {"lldpcli", "show", "neighbors"},
               parser_fixture("lldpcli_text_two_veth.txt"));
  MemBundle json;
  json.time("gpu-node-01", "0", 100.0);
  json.command("gpu-node-01", "0", {"lldpcli", "show", "neighbors", "-f", "json"},
               parser_fixture("lldpcli_json_two_veth_same_capture.json"));
  const Fabric from_text = load_mem_bundle(text);
  const Fabric from_json = load_mem_bundle(json);
  const std::vector<std::string> expected = {"ens1f0np0 -> port:leaf1/Ethernet0",
                                             "ens1f1np1 -> port:leaf1/Ethernet4"};
  EXPECT_EQ(cabling(from_json), expected);
  EXPECT_EQ(cabling(from_text), expected);
  EXPECT_EQ(from_text.hosts.at(0).sources.at(source::k_lldpcli).availability,
            Availability::Observed);
}

TEST(LldpTextLoader, JsonWinsWhenBothFormsAreCapturedAndGarbageTextIsAProblem) {
  MemBundle both;
  both.time("gpu-node-01", "0", 100.0);
  both.command("gpu-node-01", "0", {"lldpcli", "show", "neighbors", "-f", "json"},
               parser_fixture("lldpcli_json_two_veth_same_capture.json"));
  both.command("gpu-node-01", "0", {"lldpcli", "show", "neighbors"}, "not lldpcli output\n");
  const Fabric fabric = load_mem_bundle(both);
  EXPECT_TRUE(fabric.problems.empty());  // the text form was never read
  EXPECT_EQ(cabling(fabric).size(), 2u);

  MemBundle garbage;
  garbage.time("gpu-node-01", "0", 100.0);
  garbage.command("gpu-node-01", "0", {"lldpcli", "show", "neighbors"}, "not lldpcli output\n");
  const Fabric broken = load_mem_bundle(garbage);
  ASSERT_EQ(broken.problems.size(), 1u);
  EXPECT_EQ(broken.problems[0].source, source::k_lldpcli);
  EXPECT_TRUE(cabling(broken).empty());
}

}  // namespace
}  // namespace netdoctor::model
