// Runs the built `netdoctor parse` binary on reference files and checks output and exit codes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::reference_file;
using netdoctor::testing::RunOptions;
using netdoctor::testing::RunOutput;

// The real binary, no shell; `stdin_path` stands in for `< file`.
RunOutput run(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null") {
  RunOptions options;
  options.stdin_path = stdin_path;
  return netdoctor::testing::run_netdoctor(args, options);
}

TEST(ParseCliTest, PrintsPrettyJsonAndExitsZero) {
  auto r =
      run({"parse", "ethtool-info", reference_file("ethtool/mlx5_cx4_ethtool_i_ubuntu1804.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto json = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded());
  EXPECT_EQ(json["firmware_version_number"], "14.23.1020");
  EXPECT_NE(r.out.find("\n  \""), std::string::npos);  // 2-space indent
}

TEST(ParseCliTest, ReadsStandardInputWithDash) {
  auto r = run({"parse", "chronyc-tracking", "-"},
               reference_file("local/chronyc_tracking_unsynchronised.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto json = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_EQ(json["synchronised"], false);
}

TEST(ParseCliTest, WrongKindOfOutputExitsOneWithReason) {
  std::string file = reference_file("ethtool/mlx5_cx4_ethtool_i_ubuntu1804.txt");
  auto r = run({"parse", "perftest", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("netdoctor parse: " + file + ": not perftest output: "), std::string::npos)
      << r.err;
}

TEST(ParseCliTest, UnknownKindExitsTwoAndListsKinds) {
  auto r = run({"parse", "no-such-kind", reference_file("ethtool/bnxt_en_10g_ethtool_S.txt")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ethtool-stats"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sonic-pfc-counters"), std::string::npos);
}

TEST(ParseCliTest, UnreadableFileExitsOneNamingIt) {
  auto r = run({"parse", "ethtool-stats", "/nonexistent/netdoctor-missing.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/netdoctor-missing.txt"), std::string::npos) << r.err;
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
      {"ibnetdiscover", "ib/ibnetdiscover_sx6036_fdr10_qdr_8switch_144ca_2014.txt"},
      {"ibnetdiscover", "ib/ibnetdiscover_p_hdr_spaces_in_desc_fixture.txt"},
      {"iblinkinfo", "ib/iblinkinfo_hdr_quantum_20hosts_sharp_aggnode.txt"},
      {"perfquery", "ib/perfquery_x_edr_switch_lid1719_2ports_fixture.txt"},
      {"ibqueryerrors", "ib/ibqueryerrors_sx6036_saturated_xmitwait_emailquoted.txt"},
      {"ibnodes", "ib/ibswitches_ibhosts_hdr_two_switches_31cas.txt"},
      {"ibdiagnet-db-csv", "ibdiag/ibdiagnet2_db_csv_quantum2_ndr_272nodes_full.txt"},
      {"ibdiagnet-log", "ibdiag/ibdiagnet2_log_skip_pm_links_quantum2.txt"},
  };
  for (const auto& [kind, file] : cases) {
    auto r = run({"parse", kind, reference_file(file)});
    EXPECT_EQ(r.exit_code, 0) << kind << " " << file << ": " << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << kind;
  }
}

}  // namespace
}  // namespace netdoctor::cli
