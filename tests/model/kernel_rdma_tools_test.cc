// The kernel log and the host RDMA tools as model sources: dmesg link flaps and driver / AER
// errors per NIC (joined by netdev or ethtool -i bus address), ibdev2netdev as the device ->
// netdev map where sysfs and rdma link lack it, `rdma statistic show` as the NIC counters where
// sysfs hw_counters is missing (sysfs wins), and `rdma resource show` counts. Real outputs from
// tests/parsers/data and the shared reference copies.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model/kernel_events.h"
#include "model/loader.h"
#include "model/source_names.h"
#include "parsers/dmesg.h"
#include "tests/model/load_mem_bundle.h"
#include "tests/model/mem_bundle.h"
#include "tests/parsers/parser_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

using testing::parser_fixture;

std::string reference(const std::string& name) {
  return netdoctor::testing::read_text(netdoctor::testing::source_dir() +
                                       "/tests/fixtures/shared/reference/" + name);
}

parsers::KernelLog kernel_log(const std::string& text) {
  auto log = parsers::parse_dmesg(text);
  if (!log.ok()) {
    throw std::runtime_error(log.error().describe());
  }
  return std::move(log).value();
}

Nic nic_at(const std::string& netdev, const std::string& bus) {
  Nic nic;
  nic.netdev = netdev;
  nic.bus_info = bus;
  return nic;
}

using testing::load_mem_bundle;

TEST(KernelEvents, AMlx5LinkDownWithoutAnUpIsAFlapAtItsBootTime) {
  const auto log = kernel_log(parser_fixture("dmesg_tail_ixgbe_up_mlx5_down_lkml.txt"));
  const KernelEvents ev = kernel_events(log, nic_at("enp1s0f0np0", "0000:01:00.0"));
  EXPECT_EQ(ev.link_downs, 1u);
  EXPECT_EQ(ev.link_ups, 0u);
  EXPECT_EQ(ev.flaps, 1u);
  ASSERT_EQ(ev.flap_times_s.size(), 1u);
  EXPECT_NEAR(ev.flap_times_s[0], 18865.848172, 1e-6);
  // The ixgbe port's "NIC Link is Up" is another NIC's.
  const KernelEvents other = kernel_events(log, nic_at("enp1s0f1np1", "0000:01:00.1"));
  EXPECT_EQ(other.flaps, 1u);
  EXPECT_EQ(other.link_ups, 0u);
}

TEST(KernelEvents, BringUpDownIsNotAFlapButLaterDropsAre) {
  const std::string boot =
      "[    5.101000] mlx5_core 0000:3b:00.0 ens1f0np0: Link down\n"
      "[    7.202000] mlx5_core 0000:3b:00.0 ens1f0np0: Link up\n";
  const Nic nic = nic_at("ens1f0np0", "0000:3b:00.0");
  EXPECT_EQ(kernel_events(kernel_log(boot), nic).flaps, 0u);
  const KernelEvents flapping =
      kernel_events(kernel_log(boot + "[ 8100.500000] mlx5_core 0000:3b:00.0 ens1f0np0: Link down\n"
                                      "[ 8102.700000] mlx5_core 0000:3b:00.0 ens1f0np0: Link up\n"
                                      "[ 9200.100000] mlx5_core 0000:3b:00.0 ens1f0np0: Link down\n"
                                      "[ 9203.300000] mlx5_core 0000:3b:00.0 ens1f0np0: Link up\n"),
                    nic);
  EXPECT_EQ(flapping.link_downs, 3u);
  EXPECT_EQ(flapping.link_ups, 3u);
  EXPECT_EQ(flapping.flaps, 2u);
  EXPECT_EQ(flapping.flap_times_s, (std::vector<double>{8100.5, 9200.1}));
}

TEST(KernelEvents, BnxtLinkDownWordingCounts) {
  const auto log = kernel_log(
      "[   12.000000] bnxt_en 0000:41:00.0 enp65s0f0np0: NIC Link is Up, 200000 Mbps full "
      "duplex, Flow control: ON - receive & transmit\n"
      "[  700.000000] bnxt_en 0000:41:00.0 enp65s0f0np0: NIC Link is Down\n");
  const KernelEvents ev = kernel_events(log, nic_at("enp65s0f0np0", "0000:41:00.0"));
  EXPECT_EQ(ev.flaps, 1u);
  EXPECT_EQ(ev.link_ups, 1u);
}

TEST(KernelEvents, Mlx5CommandTimeoutsAreDriverErrorsOfTheNicAtThatAddress) {
  const auto log =
      kernel_log(parser_fixture("dmesg_mlx5_cmd_exec_timeout_email_wrapped_netdev.txt"));
  const KernelEvents ev = kernel_events(log, nic_at("ens3f0np0", "0000:56:00.0"));
  EXPECT_EQ(ev.driver_errors, 3u);
  EXPECT_EQ(ev.flaps, 0u);
  EXPECT_NE(ev.first_error.find("ACCESS_REG"), std::string::npos) << ev.first_error;
  // Negative: another NIC's address and netdev see none of it.
  const KernelEvents other = kernel_events(log, nic_at("ens4f0np0", "0000:57:00.0"));
  EXPECT_EQ(other.driver_errors, 0u);
  EXPECT_TRUE(other.first_error.empty());
}

TEST(KernelEvents, BnxtTxTimeoutsJoinByNetdevAndAddress) {
  const auto log =
      kernel_log(parser_fixture("dmesg_kernlog_bnxt_en_tx_timeout_email_wrapped_netdev.txt"));
  const KernelEvents ev = kernel_events(log, nic_at("eth0", "0000:45:00.0"));
  EXPECT_GE(ev.driver_errors, 2u);
  EXPECT_NE(ev.first_error.find("TX timeout"), std::string::npos) << ev.first_error;
}

TEST(KernelEvents, AerReportsCountOncePerReportOnTheNicsAddress) {
  const auto log = kernel_log(parser_fixture("dmesg_aer_badtlp_injected_quoted_linux_pci.txt"));
  const KernelEvents ev = kernel_events(log, nic_at("", "0000:e9:00.0"));
  EXPECT_EQ(ev.aer_corrected, 1u);
  EXPECT_EQ(ev.aer_uncorrected, 0u);
  EXPECT_NE(ev.first_error.find("PCIe Bus Error"), std::string::npos) << ev.first_error;
}

// One mlx5 RDMA device on node01 whose sysfs shows the port but no device/net.
MemBundle bond_host() {
  MemBundle b;
  b.time("node01", "0", 10.0);
  b.file("node01", "0", "/sys/class/infiniband/mlx5_bond_0/ports/1/state", "4: ACTIVE\n");
  b.command("node01", "0", {"ethtool", "-i", "bond0"},
            "driver: mlx5_core\nversion: 24.10\nfirmware-version: 28.41.1000 (MT_0000000838)\n"
            "bus-info: 0000:3b:00.0\n");
  return b;
}

TEST(KernelEvents, LoadedPerNicAndRecordedAsASource) {
  MemBundle b = bond_host();
  b.command("node01", "0", {"ibdev2netdev"}, "mlx5_bond_0 port 1 ==> bond0 (Up)\n");
  b.command("node01", "0", {"dmesg"},
            "[    3.0] mlx5_core 0000:3b:00.0: firmware version: 28.41.1000\n"
            "[    9.0] mlx5_core 0000:3b:00.0 bond0: Link up\n"
            "[  500.0] mlx5_core 0000:3b:00.0 bond0: Link down\n"
            "[  501.0] mlx5_core 0000:3b:00.0 bond0: Link up\n");
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.kernel.flaps, 1u);
  EXPECT_EQ(nic.sources.at(source::k_dmesg).availability, Availability::Observed);
}

TEST(KernelEvents, ADmesgThatIsNotAKernelLogIsAProblemNamingTheFile) {
  MemBundle b = bond_host();
  b.command("node01", "0", {"dmesg"}, "this is not a kernel log\n");
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.kernel.flaps, 0u);
  bool named = false;
  for (const auto& problem : fabric.problems) {
    named |= problem.source == source::k_dmesg &&
             problem.error.describe().find("dmesg") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

TEST(Ibdev2netdev, GivesTheNetdevWhereSysfsAndRdmaLinkDoNot) {
  MemBundle b = bond_host();
  // The real capture holds `ibdev2netdev` and `rdma statistic show` one after the other.
  b.command("node01", "0", {"ibdev2netdev"}, reference("sysfs/rdma_statistic_show_mlx5_bond.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.device, "mlx5_bond_0");
  EXPECT_EQ(nic.netdev, "bond0");
  EXPECT_EQ(nic.operstate, LinkState::Up);
  EXPECT_EQ(nic.driver, "mlx5_core");  // the netdev's ethtool -i was read once it was known
}

TEST(Ibdev2netdev, ListsDevicesAndStatesOfTheDgxSparkCapture) {
  MemBundle b;
  b.time("spark", "0", 10.0);
  b.command("spark", "0", {"ibdev2netdev"}, reference("iplink/ibdev2netdev_dgxspark.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const auto& nics = fabric.hosts.at(0).nics;
  ASSERT_EQ(nics.size(), 4u);
  EXPECT_EQ(nics[0].device, "roceP2p1s0f0");
  EXPECT_EQ(nics[0].netdev, "enP2p1s0f0np0");
  EXPECT_EQ(nics[0].operstate, LinkState::Down);
  EXPECT_EQ(nics[3].device, "rocep1s0f1");
  EXPECT_EQ(nics[3].netdev, "enp1s0f1np1");
  EXPECT_EQ(nics[3].operstate, LinkState::Up);
}

TEST(Ibdev2netdev, SysfsDeviceNetWinsOverIt) {
  MemBundle b = bond_host();
  b.file("node01", "0", "/sys/class/infiniband/mlx5_bond_0/device/net/ens1f0np0/ifindex", "3\n");
  b.command("node01", "0", {"ibdev2netdev"}, "mlx5_bond_0 port 1 ==> bond0 (Up)\n");
  const Fabric fabric = load_mem_bundle(b);
  EXPECT_EQ(fabric.hosts.at(0).nics.at(0).netdev, "ens1f0np0");
}

TEST(RdmaStatistic, StandsInForMissingSysfsHwCounters) {
  MemBundle b = bond_host();
  b.command("node01", "0", {"rdma", "statistic", "show"},
            reference("sysfs/rdma_statistic_show_mlx5_bond.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.sources.at(source::k_rdma_statistic).availability, Availability::Observed);
  const CounterSample& s = nic.samples.at(0);
  EXPECT_EQ(s.get(MetricKey{"resp_cqe_errors"}), 3297.0);
  EXPECT_EQ(s.get(MetricKey{"out_of_sequence"}), 0.0);
  EXPECT_EQ(s.get(MetricKey{"seq_err_naks"}), 0.0);
}

TEST(RdmaStatistic, SysfsHwCountersWinAndTheToolIsNotRead) {
  MemBundle b = bond_host();
  b.file("node01", "0", "/sys/class/infiniband/mlx5_bond_0/ports/1/hw_counters/resp_cqe_error",
         "7\n");
  b.command("node01", "0", {"rdma", "statistic", "show"},
            reference("sysfs/rdma_statistic_show_mlx5_bond.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.samples.at(0).get(MetricKey{"resp_cqe_errors"}), 7.0);
  EXPECT_EQ(nic.sources.count(source::k_rdma_statistic), 0u);
}

TEST(RdmaStatistic, AnOutputThatIsNotTheToolsIsAProblemNamingIt) {
  MemBundle b = bond_host();
  b.command("node01", "0", {"rdma", "statistic", "show"}, "command not found\n");
  const Fabric fabric = load_mem_bundle(b);
  bool named = false;
  for (const auto& problem : fabric.problems) {
    named |= problem.source == source::k_rdma_statistic &&
             problem.error.describe().find("rdma") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

TEST(RdmaResource, CountsTheDevicesVerbsObjects) {
  MemBundle b = bond_host();
  b.command("node01", "0", {"rdma", "resource", "show"},
            reference("sysfs/rdma_resource_show_mlx5_bond.txt"));
  const Fabric fabric = load_mem_bundle(b);
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.resources.qp, 8u);
  EXPECT_EQ(nic.resources.cq, 5u);
  EXPECT_EQ(nic.resources.mr, 3u);
  EXPECT_EQ(nic.resources.pd, 3u);
  // Negative: a NIC the output does not list has no counts (not zero).
  MemBundle other = bond_host();
  other.command("node01", "0", {"rdma", "resource", "show"},
                "2: mlx5_1: pd 3 cq 5 qp 0 cm_id 0 mr 3 ctx 2\n");
  EXPECT_FALSE(load_mem_bundle(other).hosts.at(0).nics.at(0).resources.qp);
}

}  // namespace
}  // namespace netdoctor::model
