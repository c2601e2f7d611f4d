#include "parsers/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(RegistryTest, ListsEveryKindOnceWithDescriptions) {
  std::set<std::string> names;
  for (const auto& kind : parser_kinds()) {
    EXPECT_FALSE(kind.description.empty()) << kind.name;
    names.emplace(kind.name);
  }
  EXPECT_EQ(names.size(), parser_kinds().size());
  for (const char* expected :
       {"ethtool-stats", "ethtool-info", "ethtool-link", "ip-address", "ibv-devinfo", "rdma-link",
        "mlnx-qos", "chronyc-tracking", "lldpcli-json", "perftest", "sonic-interfaces-counters",
        "sonic-interfaces-status", "sonic-pfc-counters", "sonic-queue-counters", "sonic-lldp-table",
        "nccl-tests"}) {
    EXPECT_TRUE(names.contains(expected)) << expected;
    EXPECT_TRUE(is_parser_kind(expected));
  }
}

TEST(RegistryTest, DispatchesToJsonWithNumbersAsPrinted) {
  auto json = parse_to_json("ethtool-info",
                            read_text(reference_file("ethtool/mlx5_cx4_ethtool_i_ubuntu1804.txt")));
  ASSERT_TRUE(json.ok());
  EXPECT_EQ((*json)["firmware_version_number"], "14.23.1020");
  auto nccl = parse_to_json("nccl-tests",
                            read_text(reference_file("nccl/all_reduce_perf_a800_24rank_k8s.txt")));
  ASSERT_TRUE(nccl.ok());
  EXPECT_DOUBLE_EQ((*nccl)["avg_bus_bandwidth_gbyte_s"].get<double>(), 41.6967);
}

TEST(RegistryTest, UnknownKindAndParseErrors) {
  EXPECT_EQ(parse_to_json("no-such-kind", "x").error().code, ErrorCode::InvalidArgument);
  EXPECT_FALSE(is_parser_kind("no-such-kind"));
  EXPECT_EQ(parse_to_json("perftest", "").error().code, ErrorCode::Parse);
}

// Every kind, fed every other reference file or garbage, must fail cleanly or succeed: never
// crash. Binary input must always be rejected.
TEST(RegistryTest, EveryKindSurvivesEveryReferenceFileAndRejectsBinary) {
  const char* files[] = {"ethtool/bnxt_en_10g_ethtool_S.txt",
                         "ethtool/i40e_25g_ethtool_settings.txt",
                         "ibv/ibv_devinfo_cx6_hdr_ib.txt",
                         "lldp/lldpcli_json_two_ifaces_veth.json",
                         "nccl/all_reduce_perf_a800_24rank_k8s.txt",
                         "perftest/ib_write_lat_cx7_dgxspark_client.txt",
                         "qos/mlnx_qos_cx5_firmware_controlled_dcbx.txt",
                         "switch/sonic_show_pfc_counters_fixture.txt",
                         "sysfs/rdma_statistic_show_mlx5_bond.txt",
                         "prometheus/node_exporter_infiniband_dgxspark_roce_fragment.txt"};
  std::string binary;
  for (int i = 0; i < 512; ++i) {
    binary.push_back(static_cast<char>((i * 37) % 256));
  }
  for (const auto& kind : parser_kinds()) {
    for (const char* file : files) {
      auto result = parse_to_json(kind.name, read_text(reference_file(file)));
      if (!result.ok()) {
        EXPECT_EQ(result.error().code, ErrorCode::Parse) << kind.name << " on " << file;
        EXPECT_FALSE(result.error().message.empty());
      }
    }
    auto bin = parse_to_json(kind.name, binary);
    EXPECT_FALSE(bin.ok()) << kind.name;
    auto truncated = parse_to_json(kind.name, "NIC stat");
    EXPECT_FALSE(truncated.ok()) << kind.name;
  }
}

}  // namespace
}  // namespace netdoctor::parsers
