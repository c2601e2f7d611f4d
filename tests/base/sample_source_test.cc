#include "base/sample_source.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/base/base_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor {
namespace {

struct MangleCase {
  std::string command_line;
  std::string expected;
};

TEST(MangleCommand, MatchesTheNamesSosReportAndTheBundlesUse) {
  const std::vector<MangleCase> cases = {
      {"ethtool -S ens1f0np0", "ethtool_-S_ens1f0np0"},
      {"lldpcli show neighbors -f json", "lldpcli_show_neighbors_-f_json"},
      {"ib_write_bw -d mlx5_0 --report_gbits -F node02",
       "ib_write_bw_-d_mlx5_0_--report_gbits_-F_node02"},
      {"ip -d address", "ip_-d_address"},
      {"/usr/sbin/ip route show table all", "ip_route_show_table_all"},
      {"/sbin/ethtool -i eth0", "ethtool_-i_eth0"},
      {"/usr/local/bin/tool x", "usr.local.bin.tool_x"},
      {"journalctl --no-pager --unit chrony", "journalctl_--no-pager_--unit_chrony"},
      {"sh -c 'cat /proc/net/dev'", "sh_-c_cat_.proc.net.dev"},
      {"show interfaces  counters", "show_interfaces_counters"},
      {" _-.ls -l.-_ ", "ls_-l"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(mangle_command_line(c.command_line), c.expected) << c.command_line;
  }
  EXPECT_EQ(mangle_command({"ethtool", "-S", "ens1f0np0"}), "ethtool_-S_ens1f0np0");
}

TEST(MangleCommand, EveryCapturedNameInTheScenariosIsAFixedPoint) {
  // A mangled name mangles to itself: a cheap check on the real files' names.
  const std::string dir = testing::make_temp_dir("mangle");
  testing::extract_tar(testing::shared_dir() + "/scenarios/healthy.tar.gz", dir);
  int seen = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().parent_path().parent_path().filename() == "sos_commands") {
      const std::string name = entry.path().filename().string();
      EXPECT_EQ(mangle_command_line(name), name);
      ++seen;
    }
  }
  EXPECT_GT(seen, 100);
}

TEST(ParseDateOutput, ReadsTheFormsDatePrints) {
  const double expected = 1796202177.0;  // 2026-12-02 09:02:57 UTC
  EXPECT_EQ(parse_date_output("Wed Dec  2 09:02:57 UTC 2026\n"), expected);
  EXPECT_EQ(parse_date_output("Wed, 02 Dec 2026 09:02:57 +0000"), expected);
  EXPECT_EQ(parse_date_output("Wed, 02 Dec 2026 10:02:57 +0100"), expected);
  EXPECT_EQ(parse_date_output("2026-12-02T09:02:57+00:00"), expected);
  EXPECT_EQ(parse_date_output("2026-12-02T04:02:57-05:00"), expected);
  EXPECT_EQ(parse_date_output("Wed 02 Dec 2026 09:02:57 AM UTC"), expected);
  EXPECT_EQ(parse_date_output("Wed 02 Dec 2026 09:02:57 PM UTC"), expected + 12 * 3600);
  EXPECT_EQ(parse_date_output("Wed Dec  2 09:02:57 GMT 2026"), expected);
}

TEST(ParseDateOutput, RejectsUnknownZonesAndJunk) {
  EXPECT_FALSE(parse_date_output("Wed Dec  2 09:02:57 CET 2026").has_value());
  EXPECT_FALSE(parse_date_output("2026-12-02T09:02:57").has_value());
  EXPECT_FALSE(parse_date_output("hwclock: cannot access").has_value());
  EXPECT_FALSE(parse_date_output("").has_value());
  EXPECT_FALSE(parse_date_output("Wed Feb 30 09:02:57 UTC 2026").has_value());
}

std::shared_ptr<MemTree> bundle_tree() {
  auto tree = std::make_shared<MemTree>("bundle /b");
  tree->add_file("hosts/n1/0/captured_at", "1765811758.315318\n");
  tree->add_file("hosts/n1/0/sys/class/net/eth0/mtu", "9000\n");
  tree->add_file("hosts/n1/0/sos_commands/networking/ethtool_-S_eth0", "NIC statistics:\n");
  tree->add_file("hosts/n1/0/sos_commands/mellanox/mlnx_qos_-i_eth0", "trust state: dscp\n");
  tree->add_file("hosts/n1/1/captured_at", "soon\n");
  tree->add_file("hosts/n1/2/sos_commands/date/date", "Wed Dec  2 09:02:57 UTC 2026\n");
  tree->add_dir("hosts/n1/3");
  return tree;
}

TEST(TreeSample, FilesByAbsolutePathAndCommandsByMangledNameInAnyGroup) {
  auto tree = bundle_tree();
  auto sample = make_tree_sample(tree, "hosts/n1/0", "n1 sample 0");
  EXPECT_EQ(*sample->read_file("/sys/class/net/eth0/mtu"), "9000\n");
  EXPECT_EQ(sample->read_file("/sys/class/net/eth1/mtu").error().code, ErrorCode::NotFound);
  EXPECT_EQ(sample->read_file("/../../secret").error().code, ErrorCode::Refused);
  EXPECT_EQ(sample->read_file("sys/relative").error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(*sample->command({"ethtool", "-S", "eth0"}), "NIC statistics:\n");
  EXPECT_EQ(*sample->command({"mlnx_qos", "-i", "eth0"}), "trust state: dscp\n");
  auto missing = sample->command({"ibv_devinfo", "-v"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
  EXPECT_NE(missing.error().message.find("ibv_devinfo_-v"), std::string::npos);
  EXPECT_DOUBLE_EQ(*sample->captured_at(), 1765811758.315318);
  EXPECT_EQ(sample->display_path("/sys/class/net/eth0/mtu"),
            "bundle /b:hosts/n1/0/sys/class/net/eth0/mtu");
  EXPECT_EQ(sample->display_command({"ethtool", "-S", "eth0"}),
            "bundle /b:hosts/n1/0/sos_commands/networking/ethtool_-S_eth0");
  EXPECT_EQ(sample->list_dir("/sys/class/net")->size(), 1u);
}

TEST(TreeSample, CaptureTimeOutcomes) {
  auto tree = bundle_tree();
  auto garbage = make_tree_sample(tree, "hosts/n1/1", "n1 sample 1")->captured_at();
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().code, ErrorCode::Parse);
  EXPECT_NE(garbage.error().context.find("hosts/n1/1/captured_at"), std::string::npos);
  EXPECT_EQ(*make_tree_sample(tree, "hosts/n1/2", "x")->captured_at(), 1796202177.0);
  EXPECT_EQ(make_tree_sample(tree, "hosts/n1/3", "x")->captured_at().error().code,
            ErrorCode::NotFound);
}

TEST(LiveSample, ReadsAFakeSysfsRootWithContainmentAndRunsCommands) {
  const std::string root = testing::make_temp_dir("live");
  testing::write_file(root + "/sys/devices/pci0/net/eth0/mtu", "4200\n");
  testing::make_link("../../devices/pci0/net/eth0", root + "/sys/class/net/eth0");
  testing::make_link("/etc", root + "/sys/class/net/evil");
  FakeCommandRunner runner;
  CommandOutput ok;
  ok.exit_code = 0;
  ok.out = "Offset: 0.0001\n";
  runner.set("chronyc tracking", ok);
  CommandOutput failed;
  failed.exit_code = 1;
  failed.err = "no stats available\n";
  runner.set("ethtool -S eth0", failed);
  auto sample = make_live_sample(root, runner, {}, 1234.5);
  EXPECT_EQ(*sample->read_file("/sys/class/net/eth0/mtu"), "4200\n");
  EXPECT_EQ(sample->read_file("/sys/class/net/evil/passwd").error().code, ErrorCode::Refused);
  EXPECT_EQ(sample->read_file("/sys/class/net/eth9/mtu").error().code, ErrorCode::NotFound);
  EXPECT_EQ(*sample->command({"chronyc", "tracking"}), "Offset: 0.0001\n");
  auto stats = sample->command({"ethtool", "-S", "eth0"});
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.error().code, ErrorCode::Io);
  EXPECT_NE(stats.error().message.find("no stats available"), std::string::npos);
  EXPECT_EQ(sample->command({"mlnx_qos", "-i", "eth0"}).error().code, ErrorCode::NotFound);
  EXPECT_EQ(*sample->captured_at(), 1234.5);
  EXPECT_EQ(sample->display_path("/sys/x"), root + "/sys/x");
}

TEST(LiveSample, RealRunnerNotInstalledToolIsNotFound) {
  LiveCommandRunner runner;
  auto sample = make_live_sample("/", runner);
  EXPECT_EQ(sample->command({"netdoctor-no-such-tool-xyz"}).error().code, ErrorCode::NotFound);
  EXPECT_EQ(*sample->command({"echo", "hi"}), "hi\n");
  EXPECT_GT(*sample->captured_at(), 1.7e9);
}

}  // namespace
}  // namespace netdoctor
