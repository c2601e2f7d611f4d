// `netdoctor inventory` run as a program on a scenario bundle.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "tests/support/test_paths.h"

namespace netdoctor::cli {
namespace {

struct Run {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

Run run_netdoctor(const std::string& args) {
  Run run;
  const std::string command = testing::netdoctor_binary() + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return run;
  }
  std::array<char, 65536> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    run.out.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(InventoryCli, JsonOfAScenarioListsHostsNicsSwitchesAndLinks) {
  const auto bundle = testing::shared_dir() + "/scenarios/pfc-storm.tar.gz";
  auto run = run_netdoctor("inventory --bundle " + bundle + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
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
  auto run = run_netdoctor("inventory --bundle " + bundle);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("node01"), std::string::npos);
  EXPECT_NE(run.out.find("port:leaf1/Ethernet0"), std::string::npos);
  EXPECT_NE(run.out.find("Problems (0)"), std::string::npos);
}

TEST(InventoryCli, MissingBundleFailsNamingThePath) {
  auto run = run_netdoctor("inventory --bundle /nonexistent/bundle-xyz --format json");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("/nonexistent/bundle-xyz"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace netdoctor::cli
