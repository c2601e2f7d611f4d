// collect_host on a fake root (mlx5 + bnxt) with canned commands and a fake clock, and once for
// real on this machine; every capture is read back through open_bundle and load_fabric.
#include "collect/host_collector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "base/bundle.h"
#include "base/strings.h"
#include "model/loader.h"
#include "tests/collect/fake_sysfs.h"
#include "tests/support/test_paths.h"

namespace netdoctor::collect {
namespace {

using netdoctor::testing::make_temp_dir;
using netdoctor::testing::read_text;

CommandOutput ok_output(std::string text) {
  CommandOutput output;
  output.exit_code = 0;
  output.out = std::move(text);
  return output;
}

struct Capture {
  Result<CollectReport> report = make_error(ErrorCode::Internal, "not run");
  std::vector<std::string> notes;
};

Capture run_collect(const std::string& root, const std::string& out, CommandRunner& runner,
                    Clock& clock, int samples, const VerbsSource* verbs = nullptr) {
  CollectOptions options;
  options.host = "fake01";
  options.samples = samples;
  options.interval = std::chrono::milliseconds(30'000);
  auto writer = open_dir_writer(out);
  EXPECT_TRUE(writer.ok());
  Capture capture;
  const SampleFactory factory = [&](double time) {
    return make_live_sample(root, runner, {}, time);
  };
  capture.report = collect_host(options, factory, verbs, clock, **writer,
                                [&](const std::string& note) { capture.notes.push_back(note); });
  EXPECT_TRUE((*writer)->finish().ok());
  return capture;
}

std::vector<std::string> relative_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename() != k_collect_log &&
        entry.path().filename() != "captured_at") {
      files.push_back(std::filesystem::relative(entry.path(), dir).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool has_note(const std::vector<std::string>& notes, std::string_view part) {
  return std::any_of(notes.begin(), notes.end(),
                     [&](const std::string& note) { return contains(note, part); });
}

class FakeRootCollect : public ::testing::Test {
 protected:
  void SetUp() override {
    m_root = make_temp_dir("collect-root");
    netdoctor::testing::write_fake_host(m_root, "fakehost");
    // Canned for every interface: the runner's NotFound means "ethtool is not installed".
    for (const char* netdev : {"ens1f0np0", "ens2f0np0", "eth9"}) {
      for (const char* flag : {"-S ", "-i ", "", "-a "}) {
        CommandOutput unsupported;
        unsupported.exit_code = 94;
        unsupported.err = "Operation not supported\n";
        m_runner.set(std::string("ethtool ") + flag + netdev, unsupported);
      }
    }
    m_runner.set("ethtool -S ens1f0np0", ok_output("NIC statistics:\n     rx_pause_ctrl_phy: 7\n"));
    m_runner.set("ethtool -i ens1f0np0",
                 ok_output("driver: mlx5_core\nversion: 24.04\nfirmware-version: 28.39.1002 "
                           "(MT_0000000838)\nbus-info: 0000:17:00.0\n"));
    m_runner.set("ip -d address", ok_output("1: lo: <LOOPBACK,UP> mtu 65536\n"));
    m_runner.set("ip route show table all", ok_output("default via 10.0.0.1 dev eth9\n"));
    m_runner.set("mlnx_qos -i ens1f0np0", ok_output("DCBX mode: OS controlled\n"));
    // iproute2's dcb answers for any driver, the Broadcom netdev included (here only its PFC).
    for (const char* netdev : {"ens1f0np0", "ens2f0np0"}) {
      for (const char* object : {"pfc", "apptrust", "app", "ets"}) {
        CommandOutput unsupported;
        unsupported.exit_code = 1;
        unsupported.err = "Attribute read: Operation not supported\n";
        m_runner.set(std::string("dcb ") + object + " show dev " + netdev, unsupported);
      }
    }
    m_runner.set("dcb pfc show dev ens2f0np0",
                 ok_output("pfc-cap 8 macsec-bypass off delay 0\nprio-pfc 0:off 1:off 2:off 3:on "
                           "4:off 5:off 6:off 7:off\n"));
    CommandOutput chrony_down;
    chrony_down.exit_code = 1;
    chrony_down.err = "506 Cannot talk to daemon\n";
    m_runner.set("chronyc tracking", chrony_down);
    m_runner.set("chronyc sources", chrony_down);  // one daemon down, both views fail
  }

  std::string m_root;
  FakeCommandRunner m_runner;
};

TEST_F(FakeRootCollect, TwoSamplesAnIntervalApartHoldEveryCounterOfBothVendors) {
  FakeClock clock(1'700'000'000.0);
  const std::string out = make_temp_dir("collect-out");
  auto capture = run_collect(m_root, out, m_runner, clock, 2);
  ASSERT_TRUE(capture.report.ok()) << capture.report.error().describe();
  const auto& plan = capture.report->plan;
  EXPECT_EQ(plan.rdma_devices, (std::vector<std::string>{"bnxt_re0", "mlx5_0"}));
  EXPECT_EQ(plan.interfaces, (std::vector<std::string>{"ens1f0np0", "ens2f0np0", "eth9"}));

  for (const char* sample : {"0", "1"}) {
    const std::string dir = out + "/hosts/fake01/" + sample;
    for (const char* file :
         {"/sys/class/infiniband/mlx5_0/fw_ver",
          "/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data",
          "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_buffer",
          "/sys/class/infiniband/bnxt_re0/ports/1/hw_counters/rx_roce_discards",
          "/sys/class/infiniband/bnxt_re0/ports/1/state",
          "/sys/class/infiniband/bnxt_re0/device/net/ens2f0np0/ifindex",
          "/sys/class/net/ens2f0np0/statistics/rx_bytes", "/sys/class/net/eth9/mtu",
          "/sos_commands/networking/ethtool_-S_ens1f0np0", "/sos_commands/networking/ip_-d_address",
          "/sos_commands/mellanox/mlnx_qos_-i_ens1f0np0",
          "/sos_commands/networking/dcb_pfc_show_dev_ens2f0np0", "/netdoctor_collect.log"}) {
      EXPECT_TRUE(std::filesystem::exists(dir + file)) << dir + file;
    }
    EXPECT_FALSE(std::filesystem::exists(dir + "/sys/class/net/eth8")) << "down, not RDMA";
    EXPECT_FALSE(std::filesystem::exists(dir + "/sys/class/net/lo"));
    // mlnx_qos is for Mellanox netdevs only.
    EXPECT_FALSE(std::filesystem::exists(dir + "/sos_commands/mellanox/mlnx_qos_-i_ens2f0np0"));
  }
  EXPECT_EQ(read_text(out + "/hosts/fake01/0/captured_at"), "1700000000.000000\n");
  EXPECT_EQ(read_text(out + "/hosts/fake01/1/captured_at"), "1700000030.000000\n");
  EXPECT_EQ(read_text(out + "/hosts/fake01/1/sys/class/infiniband/mlx5_0/ports/1/counters/"
                            "port_xmit_data"),
            "2000\n");

  // Both samples hold the same files: the plan is made once.
  EXPECT_EQ(relative_files(out + "/hosts/fake01/0"), relative_files(out + "/hosts/fake01/1"));
  ASSERT_FALSE(m_runner.commands_ran().empty());
  EXPECT_EQ(m_runner.commands_ran().front(), "ethtool -S ens1f0np0")
      << "counters before configuration";

  // A failing command and a missing tool are noted, not fatal.
  EXPECT_TRUE(has_note(capture.notes, "'chronyc tracking' failed")) << join(capture.notes, "\n");
  EXPECT_TRUE(has_note(capture.notes, "lldpcli is not installed"));
  EXPECT_TRUE(has_note(capture.notes, "'ethtool -a eth9' failed: exited with status 94"))
      << join(capture.notes, "\n");
  EXPECT_FALSE(std::filesystem::exists(out + "/hosts/fake01/0/sos_commands/chrony"));
  const std::string log = read_text(out + "/hosts/fake01/1/netdoctor_collect.log");
  EXPECT_TRUE(contains(log, "chronyc tracking")) << log;
  EXPECT_TRUE(contains(log, "2 RDMA devices, 3 interfaces")) << log;
}

TEST_F(FakeRootCollect, CaptureReadsBackAsAFabricWithRatesForBothNics) {
  FakeClock clock;
  const std::string out = make_temp_dir("collect-readback");
  auto capture = run_collect(m_root, out, m_runner, clock, 2);
  ASSERT_TRUE(capture.report.ok());
  auto bundle = open_bundle(out);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  ASSERT_EQ(bundle->hosts.size(), 1u);
  EXPECT_EQ(bundle->hosts[0].name, "fake01");
  ASSERT_EQ(bundle->hosts[0].samples.size(), 2u);
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok()) << fabric.error().describe();
  ASSERT_EQ(fabric->hosts.size(), 1u);
  const auto& host = fabric->hosts[0];
  ASSERT_EQ(host.nics.size(), 2u);
  EXPECT_EQ(host.captured_at.size(), 2u);
  for (const auto& nic : host.nics) {
    EXPECT_EQ(nic.samples.size(), 2u) << nic.device;
    EXPECT_FALSE(nic.netdev.empty()) << nic.device;
    EXPECT_EQ(nic.mtu, 4200) << nic.device;
  }
  EXPECT_EQ(host.nics[1].device, "mlx5_0");
  EXPECT_EQ(host.nics[1].firmware, "28.39.1002");
}

TEST_F(FakeRootCollect, SampleNamesSortInTimeOrderPastTen) {
  EXPECT_EQ(sample_name(0, 1), "0");
  EXPECT_EQ(sample_name(9, 10), "9");
  EXPECT_EQ(sample_name(3, 12), "03");
  EXPECT_EQ(sample_name(11, 12), "11");
  EXPECT_EQ(sample_name(7, 101), "007");
}

TEST_F(FakeRootCollect, VerbsDevicesMissingFromSysfsAreFilledInSysfsForm) {
  FakeClock clock;
  const std::string out = make_temp_dir("collect-verbs");
  VerbsDevice extra;
  extra.name = "mlx5_9";
  extra.fw_ver = "28.40.1000";
  extra.ports.push_back(
      VerbsPort{1, sysfs_port_state(4), sysfs_phys_state(5), sysfs_link_layer(2)});
  const FixedVerbsSource verbs({extra});
  auto capture = run_collect(m_root, out, m_runner, clock, 1, &verbs);
  ASSERT_TRUE(capture.report.ok());
  const std::string dir = out + "/hosts/fake01/0/sys/class/infiniband/mlx5_9";
  EXPECT_EQ(read_text(dir + "/fw_ver"), "28.40.1000\n");
  EXPECT_EQ(read_text(dir + "/ports/1/state"), "4: ACTIVE\n");
  EXPECT_EQ(read_text(dir + "/ports/1/phys_state"), "5: LinkUp\n");
  EXPECT_EQ(read_text(dir + "/ports/1/link_layer"), "Ethernet\n");
  // sysfs wins where it has the value.
  EXPECT_EQ(read_text(out + "/hosts/fake01/0/sys/class/infiniband/mlx5_0/fw_ver"), "28.39.1002\n");
}

TEST_F(FakeRootCollect, NoVerbsDevicesIsSaidAndTheRestCaptured) {
  FakeClock clock;
  const std::string out = make_temp_dir("collect-noverbs");
  const FixedVerbsSource verbs({});
  auto capture = run_collect(m_root, out, m_runner, clock, 1, &verbs);
  ASSERT_TRUE(capture.report.ok());
  EXPECT_TRUE(has_note(capture.notes, "no RDMA devices found (libibverbs)"));
  EXPECT_TRUE(std::filesystem::exists(out + "/hosts/fake01/0/sys/class/net/eth9/mtu"));
}

TEST_F(FakeRootCollect, BadOptionsAreRefused) {
  FakeClock clock;
  auto writer = open_dir_writer(make_temp_dir("collect-bad"));
  ASSERT_TRUE(writer.ok());
  const SampleFactory factory = [&](double time) {
    return make_live_sample(m_root, m_runner, {}, time);
  };
  CollectOptions options;
  options.host = "../escape";
  EXPECT_FALSE(collect_host(options, factory, nullptr, clock, **writer, {}).ok());
  options.host = "ok";
  options.samples = 0;
  EXPECT_FALSE(collect_host(options, factory, nullptr, clock, **writer, {}).ok());
}

TEST_F(FakeRootCollect, HostNameComesFromTheRootsProc) {
  auto sample = make_live_sample(m_root, m_runner, {}, 0.0);
  auto name = host_name_of(*sample);
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(*name, "fakehost");
  auto empty = make_live_sample(make_temp_dir("collect-noname"), m_runner, {}, 0.0);
  EXPECT_FALSE(host_name_of(*empty).ok());
}

// For real: this machine's netdevs, ethtool, ip and chrony, read back as a fabric.
TEST(LiveCollect, ThisHostCapturesNetdevsAndCommandsAndReadsBack) {
  LiveCommandRunner runner;
  SystemClock clock;
  CollectOptions options;
  options.host = "thishost";
  options.samples = 2;
  options.interval = std::chrono::milliseconds(100);
  options.command_parallelism = 4;  // the live runner is thread-safe
  const std::string out = make_temp_dir("collect-live");
  auto writer = open_dir_writer(out);
  ASSERT_TRUE(writer.ok());
  const SampleFactory factory = [&](double time) {
    return make_live_sample("/", runner, {}, time);
  };
  auto verbs = make_ibverbs_source();
  std::vector<std::string> notes;
  auto report = collect_host(options, factory, verbs.get(), clock, **writer,
                             [&](const std::string& note) { notes.push_back(note); });
  ASSERT_TRUE(report.ok()) << report.error().describe();
  ASSERT_TRUE((*writer)->finish().ok());
  const std::string dir = out + "/hosts/thishost/";
  EXPECT_TRUE(std::filesystem::exists(dir + "1/sos_commands/networking/ip_-d_address"));
  EXPECT_TRUE(std::filesystem::exists(dir + "1/sos_commands/networking/ip_route_show_table_all"));
  ASSERT_FALSE(report->plan.interfaces.empty()) << "no up interface on this machine?";
  const std::string first = report->plan.interfaces.front();
  EXPECT_TRUE(std::filesystem::exists(dir + "0/sys/class/net/" + first + "/mtu"));
  EXPECT_TRUE(std::filesystem::exists(dir + "0/sys/class/net/" + first + "/statistics/rx_bytes"));
  if (!find_program("ethtool").empty()) {
    EXPECT_TRUE(std::filesystem::exists(dir + "0/sos_commands/networking/ethtool_-i_" + first));
  }
  if (!find_program("chronyc").empty()) {
    // Captured when chronyd runs; its error noted when it does not.
    EXPECT_TRUE(std::filesystem::exists(dir + "0/sos_commands/chrony/chronyc_tracking") ||
                has_note(notes, "chronyc tracking"))
        << join(notes, "\n");
  }
  if (verbs && !std::filesystem::exists("/sys/class/infiniband")) {
    EXPECT_TRUE(has_note(notes, "no RDMA devices found (libibverbs)")) << join(notes, "\n");
  }
  const double t0 = std::stod(read_text(dir + "0/captured_at"));
  const double t1 = std::stod(read_text(dir + "1/captured_at"));
  EXPECT_GE(t1 - t0, 0.099);

  auto bundle = open_bundle(out);
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  ASSERT_EQ(fabric->hosts.size(), 1u);
  EXPECT_FALSE(fabric->hosts[0].interfaces.empty()) << "ip -d address read back";
}

}  // namespace
}  // namespace netdoctor::collect
