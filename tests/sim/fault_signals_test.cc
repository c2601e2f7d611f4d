// Each fault leaves its physical signals in the written counters, relative to the fleet; a
// healthy fabric shows none of them.
#include <gtest/gtest.h>

#include <set>

#include "parsers/nccl_log.h"
#include "parsers/nccl_tests.h"
#include "sim_test_support.h"

namespace netdoctor::sim::testing {
namespace {

struct NicId {
  std::string host;
  std::string netdev;
};

std::vector<NicId> all_nics(const Bundle& bundle) {
  std::vector<NicId> nics;
  for (const Host& host : bundle.simulation.fabric.hosts) {
    for (const Nic& nic : host.nics) {
      nics.push_back({host.name, nic.netdev});
    }
  }
  return nics;
}

std::vector<double> fleet_rates(const Bundle& bundle, const std::string& counter) {
  std::vector<double> rates;
  for (const NicId& nic : all_nics(bundle)) {
    rates.push_back(ethtool_rate(bundle, nic.host, nic.netdev, counter));
  }
  return rates;
}

// culprit "netdev:host/if" -> {host, if}
NicId netdev_of(const Bundle& bundle) {
  for (const std::string& culprit : bundle.simulation.faults.at(0).culprits) {
    if (starts_with(culprit, "netdev:")) {
      const std::string rest = culprit.substr(7);
      return {rest.substr(0, rest.find('/')), rest.substr(rest.find('/') + 1)};
    }
  }
  ADD_FAILURE() << "no netdev culprit";
  return {};
}

// Uplink TX utilisation (%) of a switch from show interfaces counters at sample 1.
std::vector<double> uplink_utilization(const Bundle& bundle, const std::string& sw) {
  const auto rows = table_rows(bundle.file("switches/" + sw + "/" + bundle.sample(1) +
                                           "/sos_commands/sonic/show_interfaces_counters"));
  const auto lldp = table_rows(bundle.file("switches/" + sw + "/" + bundle.sample(1) +
                                           "/sos_commands/sonic/show_lldp_table"));
  std::vector<double> result;
  for (const auto& row : rows) {
    for (const auto& neighbour : lldp) {
      if (neighbour[0] == row[0] && starts_with(neighbour[1], "spine")) {
        result.push_back(parse_double(row[10].substr(0, row[10].size() - 1)).value_or(-1));
      }
    }
  }
  return result;
}

TEST(SimFaults, HealthyFabricHasNoPauseOutlierNoErrorsNoImbalance) {
  const Bundle bundle = run(config_for(8, 4, {}, 21));
  const auto pause = fleet_rates(bundle, "tx_prio3_pause");
  EXPECT_LT(*std::max_element(pause.begin(), pause.end()), 20 * median(pause) + 10);
  const auto symbols = fleet_rates(bundle, "rx_symbol_err_phy");
  EXPECT_LT(*std::max_element(symbols.begin(), symbols.end()), 1.0);
  const auto ups = uplink_utilization(bundle, "leaf1");
  ASSERT_FALSE(ups.empty());
  EXPECT_LT(*std::max_element(ups.begin(), ups.end()) - *std::min_element(ups.begin(), ups.end()),
            5.0);
  EXPECT_TRUE(bundle.simulation.faults.empty());
}

TEST(SimFaults, PfcStormOriginPausesFarAboveFleetAndNeighboursReceivePause) {
  const Bundle bundle = run(config_for(8, 4, {"pfc-storm"}, 21));
  const NicId origin = netdev_of(bundle);
  const double storm = ethtool_rate(bundle, origin.host, origin.netdev, "tx_prio3_pause");
  EXPECT_GT(storm, 100 * median(fleet_rates(bundle, "tx_prio3_pause")));
  EXPECT_GT(ethtool_rate(bundle, origin.host, origin.netdev, "tx_pause_storm_warning_events") +
                ethtool_rate(bundle, origin.host, origin.netdev, "tx_pause_storm_error_events"),
            0.0);
  // A neighbour on the same leaf receives pause well above the healthy fleet.
  const Bundle healthy = run(config_for(8, 4, {}, 21));
  const double normal = median(fleet_rates(healthy, "rx_prio3_pause"));
  std::size_t victims = 0;
  for (const Host& h : bundle.simulation.fabric.hosts) {
    for (const Nic& nic : h.nics) {
      if (h.name != origin.host || nic.netdev != origin.netdev) {
        if (ethtool_rate(bundle, h.name, nic.netdev, "rx_prio3_pause") > 10 * normal) {
          ++victims;
        }
      }
    }
  }
  EXPECT_GE(victims, 3u);
  // The switch port facing the origin receives the storm (show pfc counters, Rx table).
  const std::string port = bundle.simulation.faults[0].culprits[2];
  const std::string leaf = port.substr(5, port.find('/') - 5);
  const std::string port_name = port.substr(port.find('/') + 1);
  const auto read_rx = [&](std::size_t k) {
    for (const auto& row : table_rows(bundle.file("switches/" + leaf + "/" + bundle.sample(k) +
                                                  "/sos_commands/sonic/show_pfc_counters"))) {
      if (row[0] == port_name) {
        return static_cast<double>(parse_grouped_u64(row[4]).value_or(0));
      }
    }
    return 0.0;
  };
  const double dt =
      captured_at(bundle, "switches/" + leaf, 1) - captured_at(bundle, "switches/" + leaf, 0);
  EXPECT_NEAR((read_rx(1) - read_rx(0)) / dt, storm, storm * 0.05);
}

TEST(SimFaults, EcmpImbalanceLeavesSomeUplinksNearLineRateAndOthersIdle) {
  const Bundle bundle = run(config_for(8, 4, {"ecmp-imbalance@leaf1"}, 21));
  const auto ups = uplink_utilization(bundle, "leaf1");
  ASSERT_GE(ups.size(), 2u);
  EXPECT_GT(*std::max_element(ups.begin(), ups.end()), 85.0);
  EXPECT_LT(*std::min_element(ups.begin(), ups.end()), 15.0);
}

TEST(SimFaults, OversubscribedLeafHasFewerSaturatedUplinks) {
  const Bundle bundle = run(config_for(8, 4, {"oversubscription@leaf2"}, 21));
  const auto hot = uplink_utilization(bundle, "leaf2");
  const auto normal = uplink_utilization(bundle, "leaf1");
  EXPECT_LT(hot.size(), normal.size());
  EXPECT_GT(*std::min_element(hot.begin(), hot.end()), 85.0);
}

TEST(SimFaults, LinkErrorsClimbOnTheNicAndItsSwitchPort) {
  const Bundle bundle = run(config_for(8, 4, {"link-errors"}, 21));
  const NicId bad = netdev_of(bundle);
  EXPECT_GT(ethtool_rate(bundle, bad.host, bad.netdev, "rx_symbol_err_phy"), 10.0);
  EXPECT_GT(ethtool_rate(bundle, bad.host, bad.netdev, "link_down_events_phy"), 0.0);
  const auto symbols = fleet_rates(bundle, "rx_symbol_err_phy");
  EXPECT_LT(median(symbols), 1.0);
}

TEST(SimFaults, LinkDegradedNicTrainsAtHalfSpeed) {
  const Bundle bundle = run(config_for(8, 4, {"link-degraded"}, 21));
  const NicId slow = netdev_of(bundle);
  EXPECT_EQ(trim(bundle.file("hosts/" + slow.host + "/" + bundle.sample(0) + "/sys/class/net/" +
                             slow.netdev + "/speed")),
            "100000");
  EXPECT_NE(bundle
                .file("hosts/" + slow.host + "/" + bundle.sample(0) +
                      "/sos_commands/networking/ethtool_" + slow.netdev)
                .find("Speed: 100000Mb/s"),
            std::string::npos);
}

TEST(SimFaults, MtuMismatchShowsOnTheHostNetdevAndRocePathMtu) {
  const Bundle bundle = run(config_for(8, 4, {"mtu-mismatch"}, 21));
  const NicId nic = netdev_of(bundle);
  const std::string dir = "hosts/" + nic.host + "/" + bundle.sample(0);
  EXPECT_EQ(trim(bundle.file(dir + "/sys/class/net/" + nic.netdev + "/mtu")), "1500");
  EXPECT_NE(bundle.file(dir + "/sos_commands/infiniband/ibv_devinfo_-v").find("1024 (3)"),
            std::string::npos);
}

TEST(SimFaults, LossyRoceHostHasPfcOffAndDropsWithRetransmits) {
  const Bundle bundle = run(config_for(8, 4, {"lossy-roce"}, 21));
  const std::string host = bundle.simulation.faults[0].culprits[0].substr(5);
  const Host* target = nullptr;
  for (const Host& h : bundle.simulation.fabric.hosts) {
    if (h.name == host) {
      target = &h;
    }
  }
  ASSERT_NE(target, nullptr);
  const std::string dir = "hosts/" + host + "/" + bundle.sample(0) + "/";
  EXPECT_NE(bundle.file(dir + "sos_commands/mellanox/mlnx_qos_-i_" + target->nics[0].netdev)
                .find("\tenabled     0   0   0   0   0   0   0   0   \n"),
            std::string::npos);
  EXPECT_GT(ethtool_rate(bundle, host, target->nics[0].netdev, "rx_prio3_discards"), 50.0);
  EXPECT_EQ(ethtool_rate(bundle, host, target->nics[0].netdev, "rx_prio3_pause"), 0.0);
}

TEST(SimFaults, ClockSkewMovesCapturedAtAndUnsynchronisesChrony) {
  const Bundle bundle = run(config_for(8, 4, {"clock-skew"}, 21));
  const std::string host = bundle.simulation.faults[0].culprits[0].substr(5);
  std::vector<double> times;
  for (const Host& h : bundle.simulation.fabric.hosts) {
    times.push_back(captured_at(bundle, "hosts/" + h.name, 0));
  }
  EXPECT_GT(std::fabs(captured_at(bundle, "hosts/" + host, 0) - median(times)), 1.0);
  EXPECT_NE(
      bundle
          .file("hosts/" + host + "/" + bundle.sample(0) + "/sos_commands/chrony/chronyc_tracking")
          .find("Not synchronised"),
      std::string::npos);
}

TEST(SimFaults, SmallMessagesShrinkThePacketSizeFleetWide) {
  const Bundle bundle = run(config_for(4, 2, {"small-messages"}, 21));
  for (const NicId& nic : all_nics(bundle)) {
    const double bytes = ethtool_rate(bundle, nic.host, nic.netdev, "tx_bytes_phy");
    const double packets = ethtool_rate(bundle, nic.host, nic.netdev, "tx_packets_phy");
    EXPECT_LT(bytes / packets, 512.0);
    EXPECT_LT(bytes * 8 / 200e9, 0.15);
  }
}

TEST(SimFaults, BaselineRegressionPairIsMoreThanFivePercentBelowItsBaseline) {
  const Bundle bundle = run(config_for(8, 4, {"baseline-regression"}, 21));
  const auto bw = [&](const std::string& path) {
    const auto lines = split_lines(bundle.file(path));
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      if (starts_with(lines[i], " #bytes")) {
        return parse_double(split_ws(lines[i + 1])[3]).value_or(0);
      }
    }
    return 0.0;
  };
  std::size_t regressed = 0;
  for (const auto& [path, content] : bundle.files) {
    if (starts_with(path, "perftest/") && path.find("ib_write_bw") != std::string::npos) {
      const double now = bw(path);
      const double base = bw("perftest-baseline/" + path.substr(9));
      if (now < 0.95 * base) {
        ++regressed;
      } else {
        EXPECT_NEAR(now, base, base * 0.02) << path;
      }
    }
  }
  EXPECT_EQ(regressed, 1u);
}

TEST(SimFaults, TwoFaultsAreBothInjectedAndListed) {
  const Bundle bundle = run(config_for(8, 4, {"pfc-storm", "firmware-mismatch"}, 21));
  ASSERT_EQ(bundle.simulation.faults.size(), 2u);
  SimConfig config = config_for(8, 4, {"pfc-storm", "firmware-mismatch"}, 21);
  const auto entry = expected_entry(bundle.simulation, config, "x.tar.gz");
  EXPECT_EQ(entry.at("causes").size(), 2u);
  EXPECT_EQ(entry.at("cause"), "pfc-storm");
}

}  // namespace
}  // namespace netdoctor::sim::testing

namespace netdoctor::sim::testing {
namespace {

TEST(SimFaults, PcieDegradedNicTrainsBelowItsCapabilityAndTheKernelSaysSo) {
  const Bundle bundle = run(config_for(8, 4, {"pcie-degraded"}, 21));
  const NicId culprit = netdev_of(bundle);
  const std::string dir = "hosts/" + culprit.host + "/" + bundle.sample(0) + "/";
  const std::string device = dir + "sys/class/net/" + culprit.netdev + "/device/";
  const bool narrow = bundle.file(device + "current_link_width") == "8\n";
  const bool slow = bundle.file(device + "current_link_speed") == "8.0 GT/s PCIe\n";
  EXPECT_NE(narrow, slow) << "x8 or one generation down, not both";
  EXPECT_EQ(bundle.file(device + "max_link_width"), "16\n");
  const std::string dmesg = bundle.file(dir + "sos_commands/kernel/dmesg");
  // x8 at gen4 or x16 at gen3: the kernel rounds the per-lane rate down first.
  EXPECT_NE(dmesg.find(narrow ? "126.024 Gb/s available PCIe bandwidth, limited by 16.0 GT/s "
                              : "126.016 Gb/s available PCIe bandwidth, limited by 8.0 GT/s "),
            std::string::npos)
      << dmesg;
  EXPECT_NE(dmesg.find("(capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)"), std::string::npos)
      << dmesg;
  const std::string lspci = bundle.file(dir + "sos_commands/pci/lspci_-vvv");
  EXPECT_NE(lspci.find("(downgraded)"), std::string::npos) << lspci;
}

TEST(SimFaults, HealthyNicsTrainAtTheirFullPcieLink) {
  const Bundle bundle = run(config_for(4, 2, {}, 21));
  for (const NicId& nic : all_nics(bundle)) {
    const std::string dir = "hosts/" + nic.host + "/" + bundle.sample(0) + "/";
    const std::string device = dir + "sys/class/net/" + nic.netdev + "/device/";
    EXPECT_EQ(bundle.file(device + "current_link_width"), "16\n");
    EXPECT_EQ(bundle.file(device + "current_link_speed"), "16.0 GT/s PCIe\n");
    EXPECT_EQ(bundle.file(dir + "sos_commands/kernel/dmesg").find("limited by"), std::string::npos);
  }
}

// The host the fault names (its culprit "host:<name>").
std::string culprit_host(const Bundle& bundle) {
  const std::string& culprit = bundle.simulation.faults.at(0).culprits.at(0);
  return culprit.substr(culprit.find(':') + 1);
}

TEST(SimFaults, HealthyNcclJobRidesRdmaWithGpuDirectOnEveryNic) {
  const Bundle bundle = run(config_for(4, 2, {}, 21));
  for (const Host& host : bundle.simulation.fabric.hosts) {
    const auto log = parsers::parse_nccl_log(bundle.file("nccl/allreduce/" + host.name + ".log"));
    ASSERT_TRUE(log.ok()) << log.error().describe();
    const auto* logged = log->find_host(host.name);
    ASSERT_NE(logged, nullptr);
    EXPECT_EQ(logged->network, "IB");
    EXPECT_EQ(logged->ib_devices.size(), host.nics.size());
    ASSERT_FALSE(log->channels.empty());
    for (const auto& channel : log->channels) {
      EXPECT_TRUE(channel.gdrdma) << channel.via;
    }
    EXPECT_EQ(log->env.at("NCCL_IB_GID_INDEX"), "3");
  }
  const auto tests = parsers::parse_nccl_tests(bundle.file("nccl/allreduce/all_reduce_perf.txt"));
  ASSERT_TRUE(tests.ok()) << tests.error().describe();
  EXPECT_EQ(tests->ranks.size(), 4u * 8u);
  // 2 x 200G per host: a healthy all-reduce peaks at 80-86 % of 400 Gb/s, 40-43 GB/s.
  const double peak = tests->rows.back().out_of_place.busbw_gbyte_s.value_or(0.0);
  EXPECT_GT(peak, 38.0);
  EXPECT_LT(peak, 43.5);
}

TEST(SimFaults, NcclTransportChangesOnlyTheCulpritHostsLog) {
  std::set<std::string> variants;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Bundle bundle = run(config_for(6, 4, {"nccl-transport"}, seed));
    const std::string culprit = culprit_host(bundle);
    for (const Host& host : bundle.simulation.fabric.hosts) {
      const auto log = parsers::parse_nccl_log(bundle.file("nccl/allreduce/" + host.name + ".log"));
      ASSERT_TRUE(log.ok());
      const auto* logged = log->find_host(host.name);
      ASSERT_NE(logged, nullptr);
      const bool socket = logged->network == "Socket";
      const bool gdr_off = !socket && !log->channels.front().gdrdma;
      const bool few = !socket && logged->ib_devices.size() < host.nics.size();
      EXPECT_EQ(socket || gdr_off || few, host.name == culprit) << host.name << " seed " << seed;
      if (host.name == culprit) {
        variants.insert(socket ? "socket" : gdr_off ? "gdr" : "hcas");
      }
    }
  }
  EXPECT_EQ(variants.size(), 3u);
}

// link-errors: the kernel logs each drop of the culprit's netdev in its driver's words after
// the boot-time "Link up"; every other netdev only comes up.
TEST(SimFaults, LinkErrorsFlapTheCulpritsNetdevInTheKernelLog) {
  SimConfig config = config_for(4, 2, {"link-errors"}, 21);
  config.vendors = {Vendor::Bnxt, Vendor::Mlx5};
  const Bundle bundle = run(config);
  const NicId bad = netdev_of(bundle);
  for (const Host& host : bundle.simulation.fabric.hosts) {
    const std::string dmesg =
        bundle.file("hosts/" + host.name + "/" + bundle.sample(0) + "/sos_commands/kernel/dmesg");
    for (const Nic& nic : host.nics) {
      const bool bnxt = nic.vendor == Vendor::Bnxt;
      const std::string down = nic.netdev + (bnxt ? ": NIC Link is Down" : ": Link down");
      const std::string up = nic.netdev + (bnxt ? ": NIC Link is Up, " : ": Link up");
      std::size_t downs = 0;
      for (auto at = dmesg.find(down); at != std::string::npos; at = dmesg.find(down, at + 1)) {
        ++downs;
      }
      const bool culprit = host.name == bad.host && nic.netdev == bad.netdev;
      EXPECT_EQ(downs, culprit ? 3u : 0u) << dmesg;
      EXPECT_NE(dmesg.find(up), std::string::npos) << dmesg;
    }
  }
}

// Without hw_counters the same counters are in `rdma statistic show`, one line per port.
TEST(SimFaults, NoHwCountersLeavesRdmaStatisticAsTheirSource) {
  SimConfig config = config_for(2, 2, {}, 5);
  config.hw_counters = false;
  const Bundle bundle = run(config);
  for (const auto& [path, content] : bundle.files) {
    EXPECT_FALSE(contains(path, "/hw_counters/")) << path;
  }
  const Host& host = bundle.simulation.fabric.hosts.at(0);
  const std::string dir = "hosts/" + host.name + "/" + bundle.sample(0) + "/";
  const std::string statistic = bundle.file(dir + "sos_commands/infiniband/rdma_statistic_show");
  for (const Nic& nic : host.nics) {
    EXPECT_NE(statistic.find("link " + nic.rdma_dev + "/1 "), std::string::npos) << statistic;
  }
  EXPECT_NE(statistic.find(" out_of_sequence "), std::string::npos) << statistic;
  EXPECT_NE(bundle.file(dir + "sos_commands/infiniband/ibdev2netdev")
                .find(host.nics[0].rdma_dev + " port 1 ==> " + host.nics[0].netdev + " (Up)"),
            std::string::npos);
}

}  // namespace
}  // namespace netdoctor::sim::testing
