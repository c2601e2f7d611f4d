#include "parsers/ethtool_stats.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(EthtoolStatsTest, BnxtCaptureWithTabsAndPerRingPrefixesKeepsNamesWhole) {
  auto stats = parse_ethtool_stats(read_text(reference_file("ethtool/bnxt_en_10g_ethtool_S.txt")));
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_TRUE(stats->had_header);
  EXPECT_EQ(stats->get("[0]: rx_ucast_packets"), 276347403u);
  EXPECT_EQ(stats->get("[1]: rx_ucast_packets"), 292321566u);
  EXPECT_EQ(stats->get("rx_pfc_ena_frames_pri3"), 0u);  // present, and zero
  EXPECT_EQ(stats->get("link_down_events"), 2u);
  // The last line has no trailing newline.
  EXPECT_EQ(stats->stats.back().name, "tx_packets_pri7");
  EXPECT_FALSE(stats->get("rx_pfc_ena_frames_pri9").has_value());
  EXPECT_TRUE(stats->non_numeric.empty());
}

TEST(EthtoolStatsTest, Mlx5HeadFragmentIsReadInOrder) {
  auto stats = parse_ethtool_stats(
      read_text(reference_file("ethtool/mlx5_cx4_ethtool_S_head_fragment.txt")));
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->stats.front().name, "rx_packets");
  EXPECT_EQ(stats->stats.front().value, 845320277u);
  EXPECT_EQ(stats->get("tx_bytes"), 2655285206479u);
  EXPECT_FALSE(stats->get("rx_discards_phy").has_value());  // missing is not zero
}

TEST(EthtoolStatsTest, GrepFragmentWithPromptAndNoHeader) {
  auto stats = parse_ethtool_stats(
      read_text(reference_file("ethtool/mlx5_cx4lx_grep_pause_pci_fragment.txt")));
  ASSERT_TRUE(stats.ok());
  EXPECT_FALSE(stats->had_header);
  EXPECT_EQ(stats->stats.size(), 17u);
  EXPECT_EQ(stats->get("tx_global_pause"), 1266552u);
  EXPECT_EQ(stats->get("tx_global_pause_duration"), 555665182u);
  EXPECT_EQ(stats->get("tx_pci_signal_integrity"), 3u);
}

TEST(EthtoolStatsTest, VirtioLocalCapture) {
  auto stats = parse_ethtool_stats(read_text(reference_file("local/ethtool_-S_eth0_virtio.txt")));
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->get("rx_kicks"), 337u);
  EXPECT_EQ(stats->get("tx0_kicks"), 1530u);
}

TEST(EthtoolStatsTest, ScenarioMlx5Capture) {
  auto stats = parse_ethtool_stats(parser_fixture("scenario_ethtool_-S_ens1f0np0.txt"));
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->get("rx_packets"), 279813538268u);
  EXPECT_GT(stats->stats.size(), 100u);
}

TEST(EthtoolStatsTest, NamesWithColonSpaceTabsTrailingSpacesAndNonNumeric) {
  auto stats = parse_ethtool_stats(
      "$ ethtool -S eth0\nNIC statistics:\n\trxq0: rx_bytes: 17   \n     duplicate metric: 1\n"
      "  tx-0.tx_packets:\t 5\n     weird: n/a\n");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->get("rxq0: rx_bytes"), 17u);
  EXPECT_EQ(stats->get("duplicate metric"), 1u);
  ASSERT_EQ(stats->non_numeric.size(), 1u);
  EXPECT_EQ(stats->non_numeric[0].name, "weird");
  EXPECT_EQ(stats->non_numeric[0].raw_value, "n/a");
}

TEST(EthtoolStatsTest, CrLfLineEndings) {
  auto stats = parse_ethtool_stats("NIC statistics:\r\n     rx_packets: 12\r\n");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->get("rx_packets"), 12u);
}

TEST(EthtoolStatsTest, RejectsEmptyGarbageBinaryAndOtherTools) {
  EXPECT_EQ(parse_ethtool_stats("").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_ethtool_stats("   \n\n").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_ethtool_stats("hello world\nno stats here\n").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_ethtool_stats(std::string("\x7f"
                                            "ELF\0\0\x01\x02",
                                            8))
                .error()
                .code,
            ErrorCode::Parse);
  auto info = parse_ethtool_stats(read_text(reference_file("local/ethtool_-i_eth0_virtio.txt")));
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.error().message.find("name: value"), std::string::npos);
}

// The loader's line-by-line pass must see exactly what the full parse keeps, in order.
TEST(EthtoolStatsTest, VisitingGivesTheParsedNumericStatsInOrder) {
  for (const std::string& text :
       {read_text(reference_file("ethtool/bnxt_en_10g_ethtool_S.txt")),
        read_text(reference_file("ethtool/mlx5_cx4lx_grep_pause_pci_fragment.txt")),
        parser_fixture("scenario_ethtool_-S_ens1f0np0.txt"),
        std::string("NIC statistics:\r\n     rx_packets: 12\r\n     weird: n/a\n")}) {
    auto parsed = parse_ethtool_stats(text);
    ASSERT_TRUE(parsed.ok());
    std::vector<EthtoolStat> visited;
    const Status status =
        for_each_ethtool_stat(text, [&](std::string_view name, std::uint64_t value) {
          visited.push_back({std::string(name), value});
        });
    ASSERT_TRUE(status.ok());
    ASSERT_EQ(visited.size(), parsed->stats.size());
    for (std::size_t i = 0; i < visited.size(); ++i) {
      EXPECT_EQ(visited[i].name, parsed->stats[i].name);
      EXPECT_EQ(visited[i].value, parsed->stats[i].value);
    }
  }
}

TEST(EthtoolStatsTest, VisitingFailsAsParsingDoesAndVisitsNothing) {
  for (const std::string& text : {std::string(""), std::string("hello world\nno stats here\n"),
                                  std::string("rx_packets: 1\0", 14)}) {
    std::size_t visits = 0;
    const Status status =
        for_each_ethtool_stat(text, [&](std::string_view, std::uint64_t) { ++visits; });
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, parse_ethtool_stats(text).error().message);
    EXPECT_EQ(visits, 0u);
  }
}

}  // namespace
}  // namespace netdoctor::parsers
