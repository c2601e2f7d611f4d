// sonic-pfcwd-stats: `show pfcwd stats` and `show pfcwd config` in one record. Samples:
//   tests/parsers/data/sonic_pfcwd_*_fixture.txt: sonic-net/sonic-utilities
//     tests/pfcwd_input/pfcwd_test_vectors.py @ 691b1bbc4fd2b71657d1b0b334c37136deb51526,
//     variables pfcwd_show_stats_output, pfcwd_show_start_config_output_pass, show_pfc_config_all
//     followed by show_pfcwd_stats_with_queues: what the real pfcwd CLI prints from the mock DB
//     (values synthetic, layout real; multi-ASIC with backplane ports and the HISTORY column).
//   reference switch/sonic_pfcwd_show_stats_stormed_voq.txt (VOQ chassis, stats row cut after
//     "stormed") and switch/sonic_show_interfaces_counters_and_pfcwd_config_z9332.txt.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parsers/registry.h"
#include "parsers/sonic_pfcwd_stats.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(SonicPfcwdTest, StormedAndOperationalQueues) {
  auto r = parse_sonic_pfcwd_stats(
      parser_fixture("sonic_pfcwd_show_stats_stormed_operational_fixture.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->queues.size(), 3u);
  EXPECT_TRUE(r->ports.empty());
  const SonicPfcwdQueue& q = r->queues[0];
  EXPECT_EQ(q.queue, "Ethernet0:3");
  EXPECT_EQ(q.port, "Ethernet0");
  EXPECT_EQ(q.queue_index, 3u);
  EXPECT_EQ(q.status, "stormed");
  EXPECT_TRUE(q.stormed);
  EXPECT_EQ(q.storms_detected, 1u);
  EXPECT_EQ(q.storms_restored, 0u);
  EXPECT_EQ(q.tx_ok, 100u);
  EXPECT_EQ(q.tx_drop, 300u);
  EXPECT_EQ(q.rx_ok, 100u);
  EXPECT_EQ(q.rx_drop, 300u);
  EXPECT_EQ(q.tx_last_ok, 0u);
  EXPECT_EQ(q.tx_last_drop, 200u);
  EXPECT_EQ(q.rx_last_drop, 200u);
  const SonicPfcwdQueue* op = r->find_queue("Ethernet4:3");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->status, "operational");
  EXPECT_FALSE(op->stormed);
  EXPECT_EQ(op->storms_detected, 2u);
  EXPECT_EQ(op->storms_restored, 2u);
  EXPECT_EQ(r->find_queue("Ethernet8:4")->storms_detected, 3u);
  EXPECT_FALSE(r->polling_interval_ms.has_value());
}

TEST(SonicPfcwdTest, MultiAsicConfigWithHistoryAndBackplaneQueues) {
  auto r = parse_sonic_pfcwd_stats(
      parser_fixture("sonic_pfcwd_masic_config_history_and_stats_backplane_fixture.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->polling_interval_ms, 199u);
  ASSERT_EQ(r->notes.size(), 4u);
  EXPECT_EQ(r->notes[1], "BIG_RED_SWITCH status is enable on asic0");
  ASSERT_EQ(r->ports.size(), 6u);
  const SonicPfcwdPort* bp = r->find_port("Ethernet-BP256");
  ASSERT_NE(bp, nullptr);
  EXPECT_EQ(bp->action, "drop");
  EXPECT_EQ(bp->detection_time_ms, 200u);
  EXPECT_EQ(bp->restoration_time_ms, 200u);
  EXPECT_EQ(bp->history, "disable");
  ASSERT_EQ(r->queues.size(), 4u);
  const SonicPfcwdQueue* q = r->find_queue("Ethernet-BP260:10");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->port, "Ethernet-BP260");
  EXPECT_EQ(q->queue_index, 10u);
  EXPECT_EQ(q->status, "N/A");
  EXPECT_FALSE(q->stormed);
  EXPECT_EQ(q->storms_detected, 1u);
  EXPECT_EQ(q->tx_ok, 6526u);
  EXPECT_EQ(q->tx_drop, 9u);
  EXPECT_EQ(q->rx_last_ok, 9338u);
  EXPECT_EQ(q->rx_last_drop, 69u);
}

TEST(SonicPfcwdTest, ConfigOnlyWithForwardAction) {
  auto r = parse_sonic_pfcwd_stats(
      parser_fixture("sonic_pfcwd_show_config_history_forward_fixture.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->queues.empty());
  EXPECT_EQ(r->polling_interval_ms, 600u);
  ASSERT_EQ(r->ports.size(), 3u);
  EXPECT_EQ(r->ports[0].port, "Ethernet0");
  EXPECT_EQ(r->ports[0].action, "forward");
  EXPECT_EQ(r->ports[0].detection_time_ms, 102u);
  EXPECT_EQ(r->ports[0].restoration_time_ms, 101u);
}

TEST(SonicPfcwdTest, VoqReferenceWithCutStatsRowAndConfig) {
  auto r = parse_sonic_pfcwd_stats(
      read_text(reference_file("switch/sonic_pfcwd_show_stats_stormed_voq.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->queues.size(), 1u);
  EXPECT_EQ(r->queues[0].queue, "Ethernet0:3");
  EXPECT_TRUE(r->queues[0].stormed);
  EXPECT_FALSE(r->queues[0].storms_detected.has_value());  // cut off in the capture
  EXPECT_FALSE(r->queues[0].tx_drop.has_value());
  ASSERT_EQ(r->ports.size(), 1u);
  EXPECT_EQ(r->ports[0].action, "drop");
  EXPECT_EQ(r->ports[0].detection_time_ms, 300u);
  EXPECT_EQ(r->ports[0].restoration_time_ms, 300u);
  EXPECT_EQ(r->ports[0].history, "");
}

TEST(SonicPfcwdTest, Z9332ConfigAfterPollingIntervalLine) {
  auto r = parse_sonic_pfcwd_stats(read_text(
      reference_file("switch/sonic_show_interfaces_counters_and_pfcwd_config_z9332.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->polling_interval_ms, 100u);
  EXPECT_EQ(r->notes, std::vector<std::string>{"Changed polling interval to 100ms"});
  ASSERT_EQ(r->ports.size(), 2u);
  EXPECT_EQ(r->ports[1].port, "Ethernet2");
  EXPECT_EQ(r->ports[1].detection_time_ms, 200u);
}

TEST(SonicPfcwdTest, ThousandsSeparatorsAndNotAvailableCells) {
  auto r = parse_sonic_pfcwd_stats(
      "      QUEUE       STATUS    STORM DETECTED/RESTORED    TX OK/DROP    RX OK/DROP    TX "
      "LAST OK/DROP    RX LAST OK/DROP\n"
      "-----------  -----------  -------------------------  ------------  ------------  "
      "-----------------  -----------------\n"
      "Ethernet8:3      stormed                       12/11  1,234/56,789           N/A         "
      "1,000/0              0/0\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const SonicPfcwdQueue& q = r->queues.at(0);
  EXPECT_EQ(q.storms_detected, 12u);
  EXPECT_EQ(q.tx_ok, 1234u);
  EXPECT_EQ(q.tx_drop, 56789u);
  EXPECT_FALSE(q.rx_ok.has_value());
  EXPECT_FALSE(q.rx_drop.has_value());
  EXPECT_EQ(q.tx_last_ok, 1000u);
}

TEST(SonicPfcwdTest, RejectsOtherTables) {
  EXPECT_EQ(parse_sonic_pfcwd_stats("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_sonic_pfcwd_stats(
                read_text(reference_file("switch/sonic_show_pfc_counters_fixture.txt")))
                .error()
                .code,
            ErrorCode::Parse);
  EXPECT_FALSE(parse_sonic_pfcwd_stats("").ok());
}

TEST(SonicPfcwdRegistryTest, KindIsRegisteredAndConverts) {
  EXPECT_TRUE(is_parser_kind("sonic-pfcwd-stats"));
  auto json =
      parse_to_json("sonic-pfcwd-stats",
                    parser_fixture("sonic_pfcwd_show_stats_stormed_operational_fixture.txt"));
  ASSERT_TRUE(json.ok());
  EXPECT_EQ((*json)["queues"][2]["storms_detected"], 3);
  EXPECT_EQ((*json)["queues"][0]["stormed"], true);
}

}  // namespace
}  // namespace netdoctor::parsers
