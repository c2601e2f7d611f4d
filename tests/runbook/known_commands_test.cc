#include "runbook/known_commands.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace netdoctor::runbook {
namespace {

TEST(KnownCommands, AcceptsTheCommandsOnCallEngineersType) {
  const std::vector<std::string> lines = {
      "ethtool -S <netdev> | grep -E 'prio3_pause|discards_phy'",
      "ethtool -i <netdev>",
      "ethtool -a <netdev>",
      "ethtool -m <netdev>",
      "ip -d address show dev <netdev>",
      "ip route",
      "ibv_devinfo -v",
      "rdma link show",
      "rdma statistic show link <rdma-dev>/1",
      "mlnx_qos -i <netdev>",
      "chronyc tracking",
      "chronyc sources -v",
      "lldpcli show neighbors",
      "ib_write_bw -d <rdma-dev> --report_gbits <peer-ip>",
      "ib_read_lat -d <rdma-dev> -x 3 <peer-ip>",
      "show pfc counters",
      "show queue counters Ethernet0",
      "show interfaces counters",
      "show interfaces counters -p 10",
      "show interfaces status",
      "show lldp table",
      "show pfcwd stats",
      "show ecn",
      "ecnconfig -l",
      "mlxlink -d <pci> -c",
      "sudo show pfc counters",
      "watch -n 1 'show pfc counters'",
  };
  for (const auto& line : lines) {
    auto forms = check_command_line(line);
    EXPECT_TRUE(forms.ok()) << line << ": " << (forms.ok() ? "" : forms.error().describe());
  }
}

TEST(KnownCommands, PipelineMatchesEachCommandInOrder) {
  auto forms = check_command_line("ethtool -S eth0 | grep -E 'a|b' | head -n 5");
  ASSERT_TRUE(forms.ok()) << forms.error().describe();
  ASSERT_EQ(forms->size(), 3u);
  EXPECT_EQ((*forms)[0]->tool, "ethtool");
  EXPECT_EQ((*forms)[1]->tool, "grep");
  EXPECT_EQ((*forms)[2]->tool, "head");
}

TEST(KnownCommands, LeadingAssignmentsAreTheCommandsEnvironment) {
  auto forms = check_command_line(
      "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET all_reduce_perf -b 8 -e 8G -f 2 -g 1 | grep "
      "WARN");
  ASSERT_TRUE(forms.ok()) << forms.error().describe();
  ASSERT_EQ(forms->size(), 2u);
  EXPECT_EQ((*forms)[0]->tool, "all_reduce_perf");
  // Only upper-case names before the tool are assignments: a lower-case word is still a tool,
  // and a flag nccl-tests does not have is still refused.
  EXPECT_FALSE(check_command_line("foo=1 ethtool -S eth0").ok());
  EXPECT_FALSE(check_command_line("NCCL_DEBUG=INFO all_reduce_perf --made-up").ok());
}

TEST(KnownCommands, QuotedPipeIsAnArgumentNotAPipeline) {
  auto commands = split_command_line("grep -E 'prio3_pause|discards_phy' file");
  ASSERT_TRUE(commands.ok());
  ASSERT_EQ(commands->size(), 1u);
  EXPECT_EQ((*commands)[0][2], "prio3_pause|discards_phy");
}

TEST(KnownCommands, LongestSubcommandWins) {
  auto form = match_command({"show", "interfaces", "counters", "errors"});
  ASSERT_TRUE(form.ok());
  EXPECT_EQ((*form)->words.size(), 3u);
  EXPECT_EQ((*form)->side, Side::Switch);
}

TEST(KnownCommands, RejectsAnUnknownTool) {
  auto forms = check_command_line("ethtool -S eth0 | frobnicate");
  ASSERT_FALSE(forms.ok());
  EXPECT_NE(forms.error().message.find("unknown tool 'frobnicate'"), std::string::npos);
}

TEST(KnownCommands, RejectsAFlagTheToolDoesNotHave) {
  auto forms = check_command_line("ethtool --made-up eth0");
  ASSERT_FALSE(forms.ok());
  EXPECT_NE(forms.error().message.find("unknown flag '--made-up'"), std::string::npos);
  auto perftest = check_command_line("ib_read_lat -d mlx5_0 --report_gbits 10.0.0.1");
  ASSERT_FALSE(perftest.ok()) << "latency tests have no --report_gbits";
}

TEST(KnownCommands, RejectsAnUnknownSubcommand) {
  auto forms = check_command_line("show pfc frobs");
  ASSERT_FALSE(forms.ok());
  EXPECT_NE(forms.error().message.find("unknown subcommand"), std::string::npos);
  EXPECT_FALSE(check_command_line("chronyc makestep-now").ok());
}

TEST(KnownCommands, ChecksTheCommandInsideWatch) {
  EXPECT_FALSE(check_command_line("watch -n 1 'show pfc frobs'").ok());
}

TEST(KnownCommands, FlagMissingItsValueIsAnError) {
  EXPECT_FALSE(check_command_line("mlnx_qos -i").ok());
}

TEST(KnownCommands, UnterminatedQuoteIsAnError) {
  EXPECT_FALSE(check_command_line("grep -E 'open").ok());
}

}  // namespace
}  // namespace netdoctor::runbook
