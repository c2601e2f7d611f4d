#include "model/loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/file_tree.h"
#include "tests/model/mem_bundle.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

const std::string k_ib = "/sys/class/infiniband/";

void add_mlx5_sample(MemBundle& b, const std::string& host, const std::string& sample, double at,
                     std::uint64_t pause, std::uint64_t oos, std::uint64_t xmit_data) {
  b.time(host, sample, at);
  const std::string port = k_ib + "mlx5_0/ports/1/";
  b.file(host, sample, k_ib + "mlx5_0/fw_ver", "28.39.1002\n");
  b.file(host, sample, port + "state", "4: ACTIVE\n");
  b.file(host, sample, port + "phys_state", "5: LinkUp\n");
  b.file(host, sample, port + "rate", "200 Gb/sec (4X HDR)\n");
  b.file(host, sample, port + "link_layer", "Ethernet\n");
  b.file(host, sample, port + "hw_counters/out_of_sequence", std::to_string(oos) + "\n");
  b.file(host, sample, port + "hw_counters/lifespan", "12\n");
  b.file(host, sample, port + "counters/port_xmit_data", std::to_string(xmit_data) + "\n");
  b.file(host, sample, k_ib + "mlx5_0/device/net/ens1f0np0/ifindex", "3\n");
  b.file(host, sample, "/sys/class/net/ens1f0np0/mtu", "9000\n");
  b.file(host, sample, "/sys/class/net/ens1f0np0/statistics/rx_bytes", "777\n");
  b.command(host, sample, {"ethtool", "-S", "ens1f0np0"},
            "NIC statistics:\n     rx_prio3_pause: " + std::to_string(pause) +
                "\n     rx0_packets: 5\n     tx_pause_storm_error_events: 0\n");
  b.command(host, sample, {"ethtool", "-i", "ens1f0np0"},
            "driver: mlx5_core\nversion: 24.10\nfirmware-version: 28.39.1002 (MT_0000000838)\n"
            "bus-info: 0000:1a:00.0\n");
}

TEST(Loader, Mlx5HostGetsNicConfigAndCanonicalCounters) {
  MemBundle b;
  add_mlx5_sample(b, "node01", "0", 1000.0, 100, 7, 1000);
  add_mlx5_sample(b, "node01", "1", 1010.0, 600, 9, 3000);
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->problems.empty()) << fabric->problems.front().error.describe();
  ASSERT_EQ(fabric->hosts.size(), 1u);
  const Host& host = fabric->hosts[0];
  EXPECT_EQ(host.captured_at, (std::vector<double>{1000.0, 1010.0}));
  ASSERT_EQ(host.nics.size(), 1u);
  const Nic& nic = host.nics[0];
  EXPECT_EQ(nic.device, "mlx5_0");
  EXPECT_EQ(nic.netdev, "ens1f0np0");
  EXPECT_EQ(nic.vendor, "mlx5");
  EXPECT_EQ(nic.driver, "mlx5_core");
  EXPECT_EQ(nic.firmware, "28.39.1002");
  EXPECT_EQ(nic.state, RdmaPortState::Active);
  EXPECT_EQ(nic.phys_state, PhysState::LinkUp);
  EXPECT_EQ(nic.mtu, 9000);
  EXPECT_EQ(nic.speed_gbps, 200.0);
  EXPECT_EQ(nic.active_width, 4);
  ASSERT_EQ(nic.samples.size(), 2u);
  EXPECT_EQ(nic.samples[1].get({"pfc_rx_pause_frames", 3}), 600.0);
  EXPECT_EQ(nic.samples[1].get({"out_of_sequence", -1}), 9.0);
  EXPECT_EQ(nic.samples[1].get({"ib_tx_bytes", -1}), 12000.0);  // 4-octet units
  EXPECT_EQ(nic.samples[0].get({"netdev_rx_bytes", -1}), 777.0);
  EXPECT_EQ(nic.samples[0].get({"pause_storm_error_events", -1}), 0.0);
  auto rate = rate_of(nic.samples, {"pfc_rx_pause_frames", 3});
  EXPECT_EQ(rate.status, RateStatus::Ok);
  EXPECT_DOUBLE_EQ(rate.per_second, 50.0);
  EXPECT_EQ(nic.sources.at("ethtool -S").availability, Availability::Observed);
  EXPECT_EQ(nic.sources.at("sysfs hw_counters").availability, Availability::Observed);
}

TEST(Loader, BnxtHostMapsBroadcomCounterNames) {
  MemBundle b;
  b.time("bn01", "0", 50.0);
  b.command("bn01", "0", {"rdma", "link", "show"},
            "link bnxt_re0/1 state ACTIVE physical_state LINK_UP netdev ens3f0np0\n");
  b.command("bn01", "0", {"ethtool", "-i", "ens3f0np0"},
            "driver: bnxt_en\nversion: 6.1.0\nfirmware-version: 220.0.57.0/pkg 22.00.07.60\n");
  b.command("bn01", "0", {"ethtool", "-S", "ens3f0np0"},
            "NIC statistics:\n\t\t[0]: rx_ucast_packets: 4\n\t\trx_pfc_ena_frames_pri3: 11\n"
            "\t\tpfc_pri3_tx_duration_us: 250\n\t\trx_discard_packets_cos3: 2\n");
  b.file("bn01", "0", k_ib + "bnxt_re0/ports/1/hw_counters/seq_err_naks_rcvd", "5\n");
  b.file("bn01", "0", k_ib + "bnxt_re0/ports/1/hw_counters/rx_bytes", "64\n");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->problems.empty());
  ASSERT_EQ(fabric->hosts.at(0).nics.size(), 1u);
  const Nic& nic = fabric->hosts[0].nics[0];
  EXPECT_EQ(nic.device, "bnxt_re0");
  EXPECT_EQ(nic.netdev, "ens3f0np0");
  EXPECT_EQ(nic.vendor, "bnxt");
  EXPECT_EQ(nic.firmware, "220.0.57.0");
  EXPECT_EQ(nic.state, RdmaPortState::Active);
  ASSERT_EQ(nic.samples.size(), 1u);
  const auto& values = nic.samples[0];
  EXPECT_EQ(values.get({"pfc_rx_pause_frames", 3}), 11.0);
  EXPECT_EQ(values.get({"pfc_tx_pause_us", 3}), 250.0);
  EXPECT_EQ(values.get({"prio_rx_discards", 3}), 2.0);
  EXPECT_EQ(values.get({"seq_err_naks", -1}), 5.0);
  EXPECT_EQ(values.get({"rdma_rx_bytes", -1}), 64.0);
  EXPECT_EQ(rate_of(nic.samples, {"seq_err_naks", -1}).status, RateStatus::SingleSample);
}

TEST(Loader, MissingFilesAreAbsentAndNotProblems) {
  MemBundle b;
  b.time("bare", "0", 1.0);
  b.file("bare", "0", k_ib + "mlx5_3/ports/1/state", "1: DOWN\n");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->problems.empty());
  const Nic& nic = fabric->hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.device, "mlx5_3");
  EXPECT_EQ(nic.state, RdmaPortState::Down);
  EXPECT_FALSE(nic.mtu.has_value());
  EXPECT_EQ(nic.sources.at("sysfs hw_counters").availability, Availability::Absent);
  EXPECT_EQ(nic.samples.at(0).values.size(), 0u);  // absent, not zero
  EXPECT_EQ(fabric->hosts[0].sources.at("chronyc tracking").availability, Availability::Absent);
  EXPECT_FALSE(fabric->hosts[0].clock.offset_s.has_value());
}

TEST(Loader, MalformedAndUnreadableFilesAreProblemsNamingTheFile) {
  MemBundle b;
  add_mlx5_sample(b, "node02", "0", 5.0, 1, 1, 1);
  b.command("node02", "0", {"chronyc", "tracking"}, "this is not chrony\n");
  b.file("node02", "0", k_ib + "mlx5_0/ports/1/hw_counters/packet_seq_err", "lots\n");
  b.tree().add_error("hosts/node02/0" + k_ib + "mlx5_0/ports/1/hw_counters/local_ack_timeout_err",
                     make_error(ErrorCode::PermissionDenied, "permission denied"));
  b.file("node02", "0", k_ib + "mlx5_0/ports/1/hw_counters/local_ack_timeout_err", "1\n");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  const auto& problems = fabric->problems;
  auto named = [&](const std::string& part) {
    return std::count_if(problems.begin(), problems.end(), [&](const Problem& p) {
      return p.error.context.find(part) != std::string::npos && p.entity == "host:node02";
    });
  };
  EXPECT_EQ(named("chronyc_tracking"), 1);
  EXPECT_EQ(named("hw_counters/packet_seq_err"), 1);
  const auto& nic = fabric->hosts.at(0).nics.at(0);
  EXPECT_EQ(fabric->hosts[0].sources.at("chronyc tracking").availability, Availability::Malformed);
  EXPECT_EQ(named("hw_counters/local_ack_timeout_err"), 1);
  const auto state = nic.sources.at("sysfs hw_counters").availability;
  EXPECT_TRUE(state == Availability::Malformed || state == Availability::Unreadable);
  EXPECT_FALSE(nic.samples.at(0).get({"ack_timeouts", -1}).has_value());
  EXPECT_FALSE(nic.samples.at(0).get({"seq_err_naks", -1}).has_value());
  EXPECT_EQ(nic.samples.at(0).get({"out_of_sequence", -1}), 1.0);  // the rest still loads
}

TEST(Loader, CounterGoingDownBetweenSamplesIsAReset) {
  MemBundle b;
  add_mlx5_sample(b, "node03", "s000", 10.0, 5000, 1, 1);
  add_mlx5_sample(b, "node03", "s001", 20.0, 30, 1, 1);
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  const auto& nic = fabric->hosts.at(0).nics.at(0);
  auto rate = rate_of(nic.samples, {"pfc_rx_pause_frames", 3});
  EXPECT_EQ(rate.status, RateStatus::Reset);
  EXPECT_EQ(rate_of(nic.samples, {"out_of_sequence", -1}).status, RateStatus::Ok);
}

TEST(Loader, CounterMissingInOneSampleStaysAbsentThere) {
  MemBundle b;
  add_mlx5_sample(b, "node04", "0", 10.0, 1, 1, 1);
  b.time("node04", "1", 20.0);
  b.command("node04", "1", {"ethtool", "-S", "ens1f0np0"}, "NIC statistics:\n rx_prio3_pause: 9\n");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  const auto& nic = fabric->hosts.at(0).nics.at(0);
  ASSERT_EQ(nic.samples.size(), 2u);
  EXPECT_EQ(nic.samples[1].get({"pfc_rx_pause_frames", 3}), 9.0);
  EXPECT_FALSE(nic.samples[1].get({"out_of_sequence", -1}).has_value());
  EXPECT_EQ(rate_of(nic.samples, {"out_of_sequence", -1}).status, RateStatus::Absent);
}

TEST(Loader, SampleWithoutCapturedAtIsAProblemAndLeftOutOfTheSeries) {
  MemBundle b;
  add_mlx5_sample(b, "node05", "0", 10.0, 1, 1, 1);
  add_mlx5_sample(b, "node05", "1", 20.0, 2, 2, 2);
  b.tree().add_file("hosts/node05/1/captured_at", "yesterday");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  ASSERT_EQ(fabric->problems.size(), 1u);
  EXPECT_EQ(fabric->problems[0].source, "captured_at");
  EXPECT_EQ(fabric->hosts.at(0).captured_at, (std::vector<double>{10.0}));
  EXPECT_EQ(fabric->hosts[0].nics.at(0).samples.size(), 1u);
}

TEST(Loader, SwitchLldpTableFillsTheNicSwitchPortWithoutHostLldp) {
  MemBundle b;
  add_mlx5_sample(b, "node06", "0", 10.0, 1, 1, 1);
  b.time("leaf9", "0", 10.5, true);
  b.command("leaf9", "0", {"show", "interfaces", "status"},
            "  Interface    Lanes    Speed    MTU    FEC    Alias    Vlan    Oper    Admin    Type"
            "    Asym PFC\n"
            "-----------  -------  -------  -----  -----  -------  ------  ------  -------  ------"
            "  ----------\n"
            "  Ethernet8  8,9,10,11  200G   9100     rs     etp3  routed      up       up  QSFP56"
            "         N/A\n",
            true);
  b.command("leaf9", "0", {"show", "lldp", "table"},
            "Capability codes: (R) Router, (B) Bridge, (O) Other\n"
            "  LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr\n"
            "-----------  --------------  --------------  ------------  -----------------\n"
            "  Ethernet8          node06       ens1f0np0                        ens1f0np0\n",
            true);
  b.command("leaf9", "0", {"show", "pfc", "counters"},
            "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
            "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n"
            "  Ethernet8       0       0       0   1,234       0       0       0       0\n",
            true);
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->problems.empty()) << fabric->problems.front().error.describe();
  const auto& nic = fabric->hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.port_entity(), "port:leaf9/Ethernet8");
  const auto* sw = fabric->find_switch("leaf9");
  ASSERT_NE(sw, nullptr);
  const auto* port = sw->find_port("Ethernet8");
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(port->speed_gbps, 200.0);
  EXPECT_EQ(port->mtu, 9100);
  EXPECT_EQ(port->peer_device, "node06");
  ASSERT_EQ(port->samples.size(), 1u);
  EXPECT_EQ(port->samples[0].get({"pfc_rx_pause_frames", 3}), 1234.0);
  EXPECT_EQ(sw->sources.at("show queue counters").availability, Availability::Absent);
}

TEST(Loader, HostsComeOutSortedByName) {
  MemBundle b;
  for (const char* name : {"n3", "n1", "n2"}) {
    add_mlx5_sample(b, name, "0", 1.0, 1, 1, 1);
  }
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  ASSERT_EQ(fabric->hosts.size(), 3u);
  EXPECT_EQ(fabric->hosts[0].name, "n1");
  EXPECT_EQ(fabric->hosts[2].name, "n3");
  EXPECT_NE(fabric->find_host("n2"), nullptr);
}

}  // namespace
}  // namespace netdoctor::model
