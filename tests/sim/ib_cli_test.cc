// `netdoctor sim --fabric ib` as a user runs it: the flags, the files, the expected answer, and
// exit status 2 for a fault InfiniBand has no meaning for.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::sim::testing {
namespace {

TEST(IbSimCli, WritesFabricViewsAndTheExpectedAnswer) {
  const std::string dir = netdoctor::testing::make_temp_dir("ib-sim-cli");
  const auto result = netdoctor::testing::run_netdoctor(
      {"sim", "--fabric", "ib", "--ib-speed", "ndr", "--hosts", "4", "--nics-per-host", "2",
       "--fault", "subnet-manager:two-masters", "--out", dir + "/b"},
      dir);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  namespace fs = std::filesystem;
  EXPECT_TRUE(fs::exists(dir + "/b/fabric"));
  EXPECT_FALSE(fs::exists(dir + "/b/switches"));
  std::size_t perfquery = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir + "/b/fabric")) {
    perfquery += entry.path().filename().string().rfind("perfquery_", 0) == 0 ? 1u : 0u;
  }
  EXPECT_GT(perfquery, 0u);
  std::ifstream in(dir + "/b.expected.json");
  const auto expected = nlohmann::json::parse(in);
  EXPECT_EQ(expected["cause"], "subnet-manager");
  EXPECT_EQ(expected["fabric"], "ib");
  EXPECT_EQ(expected["ib_speed"], "ndr");
  EXPECT_EQ(expected["faults"][0]["variant"], "two-masters");
}

TEST(IbSimCli, RefusesEthernetFaultsAsAUsageError) {
  const std::string dir = netdoctor::testing::make_temp_dir("ib-sim-cli-refused");
  const auto result =
      netdoctor::testing::run_netdoctor({"sim", "--fabric", "ib", "--hosts", "4", "--nics", "2",
                                         "--fault", "pfc-storm", "--out", dir + "/b"},
                                        dir);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no meaning on an InfiniBand fabric"), std::string::npos) << result.err;
  const auto bad_speed =
      netdoctor::testing::run_netdoctor({"sim", "--fabric", "ib", "--ib-speed", "xdr", "--hosts",
                                         "4", "--nics", "2", "--out", dir + "/c"},
                                        dir);
  EXPECT_EQ(bad_speed.exit_code, 2);
}

}  // namespace
}  // namespace netdoctor::sim::testing
