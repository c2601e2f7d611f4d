// `netdoctor inventory` run as a program on a scenario bundle.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/run_netdoctor.h"
#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

using netdoctor::testing::RunOptions;
using netdoctor::testing::RunOutput;

// `netdoctor inventory <args>`, the real binary without a shell.
RunOutput inventory(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"inventory"};
  argv.insert(argv.end(), args.begin(), args.end());
  return netdoctor::testing::run_netdoctor(argv, RunOptions{});
}

TEST(InventoryCli, JsonOfAScenarioListsHostsNicsSwitchesAndLinks) {
  const auto bundle = testing::shared_dir() + "/scenarios/pfc-storm.tar.gz";
  auto run = inventory({"--bundle", bundle, "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");  // a clean capture: nothing to warn about
  auto json = nlohmann::json::parse(run.out);
  ASSERT_EQ(json["hosts"].size(), 8u);
  for (const auto& host : json["hosts"]) {
    EXPECT_EQ(host["samples"], 2);
    EXPECT_TRUE(host["clock"]["offset_s"].is_number());
    EXPECT_TRUE(host["clock"]["synchronised"].is_boolean());
    ASSERT_EQ(host["nics"].size(), 4u);
    for (const auto& nic : host["nics"]) {
      for (const char* field : {"device", "netdev", "vendor", "driver", "firmware", "state"}) {
        EXPECT_TRUE(nic[field].is_string()) << field << " in " << nic.dump();
      }
      for (const char* field : {"mtu", "active_mtu", "rate_gbps"}) {
        EXPECT_TRUE(nic[field].is_number()) << field << " in " << nic.dump();
      }
      EXPECT_EQ(nic["vendor"], "mlx5");
      ASSERT_TRUE(nic["switch_port"].is_string()) << nic.dump();
      EXPECT_EQ(nic["switch_port"].get<std::string>().rfind("port:", 0), 0u);
      EXPECT_FALSE(nic["ipv4"].empty());
    }
  }
  EXPECT_EQ(json["hosts"][0]["name"], "gpu-a001");
  EXPECT_EQ(json["hosts"][0]["nics"][0]["switch_port"], "port:leaf1/Ethernet0");
  ASSERT_FALSE(json["switches"].empty());
  std::size_t host_peers = 0;
  for (const auto& sw : json["switches"]) {
    EXPECT_EQ(sw["samples"], 2);
    for (const auto& port : sw["ports"]) {
      EXPECT_TRUE(port["speed_gbps"].is_number()) << port.dump();
      if (port["peer"].is_string() && port["peer"].get<std::string>().rfind("host:", 0) == 0) {
        ++host_peers;
      }
    }
  }
  EXPECT_EQ(host_peers, 32u);  // every NIC seen from its switch
  EXPECT_GE(json["links"].size(), 32u);
  for (const auto& link : json["links"]) {
    EXPECT_EQ(link.get<std::string>().rfind("link:", 0), 0u);
  }
  ASSERT_FALSE(json["perftest"].empty());
  EXPECT_TRUE(json["perftest"][0].contains("bw_avg_gbps"));
  EXPECT_TRUE(json["problems"].empty()) << json["problems"].dump();
}

TEST(InventoryCli, TextFormatShowsNicTableAndProblemsSection) {
  const auto bundle = testing::shared_dir() + "/scenarios/healthy.tar.gz";
  auto run = inventory({"--bundle", bundle});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("node01"), std::string::npos);
  EXPECT_NE(run.out.find("port:leaf1/Ethernet0"), std::string::npos);
  EXPECT_NE(run.out.find("Problems (0)"), std::string::npos);
}

TEST(InventoryCli, MissingBundleFailsNamingThePath) {
  auto run = inventory({"--bundle", "/nonexistent/bundle-xyz", "--format", "json"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("/nonexistent/bundle-xyz"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");  // no half-written JSON on failure
}

// Issue 19: an error line echoes the path it was given; its escapes reach stderr as text.
TEST(InventoryCli, ErrorLinesShowControlBytesInsteadOfSendingThem) {
  const std::string path =
      "/nonexistent/evil\x1b]0;pwned\x07\x1b[31m\xc2\x9b"
      "2J\x9b\xe2\x80\xae";
  auto run = inventory({"--bundle", path});
  EXPECT_NE(run.exit_code, 0);
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find('\x07'), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find('\x9b'), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("\xe2\x80\xae"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("evil\\x1b]0;pwned\\x07\\x1b[31m\\u009b2J\\x9b\\u202e"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace netdoctor::cli
