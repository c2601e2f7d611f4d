// Runs the built `netdoctor parse` binary on reference files and checks output and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::netdoctor_binary;
using netdoctor::testing::reference_file;

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout, or stderr when `capture_stderr`
};

RunResult run(const std::string& args, bool capture_stderr = false) {
  std::string command = "'" + netdoctor_binary() + "' " + args +
                        (capture_stderr ? " 2>&1 >/dev/null" : " 2>/dev/null");
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed: " << command;
    return result;
  }
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    result.output.append(buffer.data(), n);
  }
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(ParseCliTest, PrintsPrettyJsonAndExitsZero) {
  auto r = run("parse ethtool-info " + reference_file("ethtool/mlx5_cx4_ethtool_i_ubuntu1804.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto json = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_FALSE(json.is_discarded());
  EXPECT_EQ(json["firmware_version_number"], "14.23.1020");
  EXPECT_NE(r.output.find("\n  \""), std::string::npos);  // 2-space indent
}

TEST(ParseCliTest, ReadsStandardInputWithDash) {
  auto r = run("parse chronyc-tracking - < '" +
               reference_file("local/chronyc_tracking_unsynchronised.txt") + "'");
  ASSERT_EQ(r.exit_code, 0);
  auto json = nlohmann::json::parse(r.output, nullptr, false);
  EXPECT_EQ(json["synchronised"], false);
}

TEST(ParseCliTest, WrongKindOfOutputExitsOneWithReason) {
  std::string file = reference_file("ethtool/mlx5_cx4_ethtool_i_ubuntu1804.txt");
  auto r = run("parse perftest " + file, /*capture_stderr=*/true);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("netdoctor parse: " + file + ": not perftest output: "),
            std::string::npos)
      << r.output;
}

TEST(ParseCliTest, UnknownKindExitsTwoAndListsKinds) {
  auto r = run("parse no-such-kind " + reference_file("ethtool/bnxt_en_10g_ethtool_S.txt"),
               /*capture_stderr=*/true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ethtool-stats"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sonic-pfc-counters"), std::string::npos);
}

TEST(ParseCliTest, UnreadableFileExitsOneNamingIt) {
  auto r = run("parse ethtool-stats /nonexistent/netdoctor-missing.txt", /*capture_stderr=*/true);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("/nonexistent/netdoctor-missing.txt"), std::string::npos) << r.output;
}

TEST(ParseCliTest, EveryReferenceFormatParses) {
  const std::pair<const char*, const char*> cases[] = {
      {"ethtool-stats", "ethtool/bnxt_en_10g_ethtool_S.txt"},
      {"ethtool-link", "ethtool/i40e_25g_ethtool_settings.txt"},
      {"ibv-devinfo", "ibv/ibstat_cx5_roce_ethernet.txt"},
      {"ip-address", "iplink/ip_link_show_cx_mtu9000.txt"},
      {"lldpcli-json", "lldp/lldpcli_json_two_ifaces_veth.json"},
      {"mlnx-qos", "qos/mlnx_qos_cx5_firmware_controlled_dcbx.txt"},
      {"perftest", "perftest/ib_write_bw_mlx5_cuda_bwmin_client.txt"},
      {"nccl-tests", "nccl/all_reduce_perf_a800_24rank_k8s.txt"},
      {"sonic-queue-counters", "switch/sonic_show_queue_counters_ucdrops_fragment.txt"},
  };
  for (const auto& [kind, file] : cases) {
    auto r = run(std::string("parse ") + kind + " " + reference_file(file));
    EXPECT_EQ(r.exit_code, 0) << kind << " " << file;
    EXPECT_FALSE(nlohmann::json::parse(r.output, nullptr, false).is_discarded()) << kind;
  }
}

}  // namespace
}  // namespace netdoctor::cli
