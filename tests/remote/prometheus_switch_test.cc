// Unit tests of switch series read from Prometheus: snmp_exporter's IF-MIB names, the PFC and
// queue series and LLDP neighbours become the SONiC outputs the switch loader reads; which
// machine is a switch; what is reported when a family or every switch is missing.
#include <gtest/gtest.h>

#include <algorithm>

#include "model/loader.h"
#include "remote/prometheus_bundle.h"
#include "remote/prometheus_reader.h"
#include "remote/prometheus_switch_bundle.h"
#include "tests/remote/fake_prometheus.h"

namespace netdoctor::remote {
namespace {

using Labels = std::map<std::string, std::string>;
using Points = std::vector<std::pair<double, double>>;

PromSeries series(Labels labels, Points points) {
  PromSeries s;
  s.labels = std::move(labels);
  s.points = std::move(points);
  return s;
}

// An snmp_exporter if_mib series of leaf1's port: the target address is the instance, a
// relabelled `switch` label names it.
PromSeries if_mib(const std::string& metric, const std::string& port, Points points) {
  return series({{"__name__", metric},
                 {"instance", "10.0.0.1"},
                 {"job", "snmp"},
                 {"switch", "leaf1"},
                 {"ifIndex", port == "Ethernet0" ? "1" : "2"},
                 {"ifName", port},
                 {"ifDescr", port == "Ethernet0" ? "etp1" : "etp2"},
                 {"ifAlias", "to gpu01"}},
                std::move(points));
}

const model::SwitchPort& port_of(const model::Fabric& fabric, const std::string& sw,
                                 const std::string& port) {
  const auto* found = fabric.find_switch(sw);
  EXPECT_NE(found, nullptr) << sw;
  const auto* p = found == nullptr ? nullptr : found->find_port(port);
  EXPECT_NE(p, nullptr) << port;
  static const model::SwitchPort k_none;
  return p == nullptr ? k_none : *p;
}

std::optional<double> value(const model::SwitchPort& port, std::size_t sample, const char* metric,
                            int index = -1) {
  if (sample >= port.samples.size()) {
    return std::nullopt;
  }
  return port.samples[sample].get(model::MetricKey{metric, index});
}

std::string all_problems(const BundleFiles& files) {
  std::string all;
  for (const auto& problem : files.problems) {
    all += problem.describe() + "\n";
  }
  return all;
}

std::vector<PromSeries> leaf_and_host() {
  const double gbyte = 1e9;
  return {
      // 25 GB/s out of Ethernet0 over the 30 s window: half of its 400 Gb/s.
      if_mib("ifHCOutOctets", "Ethernet0", {{100.0, 1e12}, {130.0, 1e12 + 30 * 25 * gbyte}}),
      if_mib("ifHCInOctets", "Ethernet0", {{100.0, 5e11}, {130.0, 5e11 + 30 * 5 * gbyte}}),
      if_mib("ifHCOutOctets", "Ethernet4", {{100.0, 7e9}, {130.0, 7e9}}),
      if_mib("ifHCInUcastPkts", "Ethernet0", {{100.0, 1000.0}, {130.0, 4000.0}}),
      if_mib("ifHCInMulticastPkts", "Ethernet0", {{130.0, 20.0}}),
      if_mib("ifInDiscards", "Ethernet0", {{100.0, 0.0}, {130.0, 12.0}}),
      if_mib("ifHighSpeed", "Ethernet0", {{100.0, 400000.0}, {130.0, 400000.0}}),
      if_mib("ifHighSpeed", "Ethernet4", {{130.0, 400000.0}}),
      if_mib("ifMtu", "Ethernet0", {{130.0, 9100.0}}),
      if_mib("ifOperStatus", "Ethernet0", {{100.0, 1.0}, {130.0, 1.0}}),
      if_mib("ifOperStatus", "Ethernet4", {{130.0, 2.0}}),
      // PFC and queue series from an exporter on the switch itself: named by its instance.
      series({{"__name__", "netdoctor_switch_pfc_rx_frames_total"},
              {"instance", "leaf1:9101"},
              {"ifName", "Ethernet0"},
              {"priority", "3"}},
             {{100.0, 10.0}, {130.0, 70.0}}),
      series({{"__name__", "netdoctor_switch_pfc_tx_frames_total"},
              {"instance", "leaf1:9101"},
              {"ifName", "Ethernet0"},
              {"priority", "3"}},
             {{130.0, 5.0}}),
      series({{"__name__", "sonic_queue_dropped_packets_total"},
              {"instance", "leaf1:9101"},
              {"device", "Ethernet0"},
              {"queue", "3"}},
             {{100.0, 1.0}, {130.0, 9.0}}),
      series({{"__name__", "sonic_queue_dropped_packets_total"},
              {"instance", "leaf1:9101"},
              {"device", "Ethernet0"},
              {"queue", "8"}},
             {{130.0, 2.0}}),
      series({{"__name__", "netdoctor_lldp_neighbor_info"},
              {"instance", "leaf1:9101"},
              {"local_interface", "Ethernet0"},
              {"remote_system_name", "gpu01"},
              {"remote_port_id", "0c:42:a1:00:00:01"},
              {"remote_port_id_subtype", "mac"},
              {"remote_port_desc", "ens1f0np0"}},
             {{100.0, 1.0}, {130.0, 1.0}}),
      // SONiC runs node_exporter too: the switch stays a switch, not also a host.
      series({{"__name__", "node_network_receive_bytes_total"},
              {"instance", "leaf1:9100"},
              {"device", "eth0"}},
             {{100.0, 1.0}, {130.0, 2.0}}),
      // gpu01: one RDMA NIC, and its own LLDP view of the leaf.
      series({{"__name__", "node_infiniband_state_id"},
              {"instance", "gpu01:9100"},
              {"switch", "leaf9"},  // a topology label on a host series names nothing
              {"device", "mlx5_0"},
              {"port", "1"}},
             {{100.0, 4.0}, {130.0, 4.0}}),
      series({{"__name__", "netdoctor_rdma_link_info"},
              {"instance", "gpu01:9100"},
              {"device", "mlx5_0"},
              {"port", "1"},
              {"netdev", "ens1f0np0"}},
             {{100.0, 1.0}, {130.0, 1.0}}),
      series({{"__name__", "netdoctor_lldp_neighbor_info"},
              {"instance", "gpu01:9100"},
              {"local_interface", "ens1f0np0"},
              {"remote_system_name", "leaf1"},
              {"remote_port_id", "Ethernet0"},
              {"remote_port_desc", "etp1"}},
             {{100.0, 1.0}, {130.0, 1.0}}),
  };
}

TEST(PrometheusSwitchTest, TheQueryPatternAsksForTheWantedQueueSeriesAndPfcApart) {
  const std::string all = switch_query_pattern();
  EXPECT_NE(all.find("sonic_queue_dropped_bytes_total"), std::string::npos);
  EXPECT_NE(all.find("netdoctor_switch_pfc_rx_frames_total"), std::string::npos);
  const std::string some = switch_query_pattern_without_pfc(
      [](std::string_view metric) { return metric != "queue_drop_bytes"; });
  EXPECT_EQ(some.find("sonic_queue_dropped_bytes_total"), std::string::npos) << some;
  EXPECT_NE(some.find("sonic_queue_dropped_packets_total"), std::string::npos) << some;
  EXPECT_NE(some.find("ifHCInOctets"), std::string::npos) << some;
  EXPECT_EQ(some.find("netdoctor_switch_pfc"), std::string::npos) << some;
  EXPECT_EQ(switch_pfc_pattern(),
            "netdoctor_switch_pfc_rx_frames_total|netdoctor_switch_pfc_tx_frames_total");
  // The IF-MIB counters by the metric each becomes: no packet counters asked for here; the
  // port's speed, MTU and status always.
  const std::string counters = switch_query_pattern_without_pfc(
      {}, [](std::string_view metric) { return metric != "rx_packets" && metric != "tx_packets"; });
  for (const char* left_out :
       {"ifHCInUcastPkts", "ifHCOutUcastPkts", "ifHCInMulticastPkts", "ifHCOutBroadcastPkts"}) {
    EXPECT_EQ(counters.find(left_out), std::string::npos) << left_out;
  }
  for (const char* kept : {"ifHCInOctets", "ifHCOutOctets", "ifInErrors", "ifOutDiscards",
                           "ifHighSpeed", "ifMtu", "ifOperStatus", "ifAdminStatus"}) {
    EXPECT_NE(counters.find(kept), std::string::npos) << kept;
  }
  EXPECT_NE(all.find("ifHCInUcastPkts"), std::string::npos);
}

// Which switches want their queues' traffic asked for after the rest: the rule is given, per
// port, each queue's drop counter over time and whether the interface octets give a rate.
TEST(PrometheusSwitchTest, QueueTrafficIsWantedWhereTheRuleSaysFromDropsAndRates) {
  LeftOut left_out;
  SwitchBundle bundle(left_out);
  const auto queue_drops = [](const std::string& sw, const std::string& port, int queue,
                              Points points) {
    return series({{"__name__", "sonic_queue_dropped_packets_total"},
                   {"switch", sw},
                   {"device", port},
                   {"queue", std::to_string(queue)}},
                  std::move(points));
  };
  const auto octets = [](const std::string& sw, const std::string& port, Points points) {
    return series({{"__name__", "ifHCOutOctets"}, {"switch", sw}, {"ifName", port}},
                  std::move(points));
  };
  // leaf1 drops on Ethernet0's queue 3 and its ports have rates; leaf2 drops nothing (a
  // cumulative count that holds still) and has rates; leaf3 has no octets at all; leaf4's
  // octets went down (a reset): no rate.
  for (const auto& s : {queue_drops("leaf1", "Ethernet0", 3, {{100.0, 1.0}, {130.0, 9.0}}),
                        queue_drops("leaf1", "Ethernet0", 0, {{100.0, 5.0}, {130.0, 5.0}}),
                        octets("leaf1", "Ethernet0", {{100.0, 1e9}, {130.0, 2e9}}),
                        queue_drops("leaf2", "Ethernet0", 3, {{100.0, 7.0}, {130.0, 7.0}}),
                        octets("leaf2", "Ethernet0", {{100.0, 1e9}, {130.0, 1e9}}),
                        queue_drops("leaf3", "Ethernet8", 3, {{100.0, 0.0}, {130.0, 0.0}}),
                        octets("leaf4", "Ethernet4", {{100.0, 5e9}, {130.0, 1e9}})}) {
    bundle.add(s.label("switch"), s);
  }
  std::map<std::string, std::pair<std::vector<std::vector<double>>, bool>> given;
  const auto wanted =
      bundle.queue_traffic_wanted([](const std::vector<std::vector<double>>& drops, bool rate) {
        bool moved = false;
        for (const auto& counter : drops) {
          moved = moved || (counter.size() > 1 && counter.front() != counter.back());
        }
        return QueueTrafficWanted{moved, !rate};
      });
  // leaf1 wants its sent packets, leaf3 and leaf4 their sent bytes, leaf2 nothing.
  ASSERT_EQ(wanted.size(), 3u);
  EXPECT_TRUE(wanted.at("leaf1").packets);
  EXPECT_FALSE(wanted.at("leaf1").bytes);
  for (const char* sw : {"leaf3", "leaf4"}) {
    EXPECT_FALSE(wanted.at(sw).packets) << sw;
    EXPECT_TRUE(wanted.at(sw).bytes) << sw;
  }
  EXPECT_EQ(wanted.count("leaf2"), 0u);

  // What the rule sees of leaf1's Ethernet0: both queues' counters in time order, and a rate.
  std::vector<std::vector<double>> seen;
  bool rated = false;
  bundle.queue_traffic_wanted([&](const std::vector<std::vector<double>>& drops, bool rate) {
    if (drops.size() == 2) {
      seen = drops;
      rated = rate;
    }
    return QueueTrafficWanted{};
  });
  EXPECT_EQ(seen, (std::vector<std::vector<double>>{{5.0, 5.0}, {1.0, 9.0}}));
  EXPECT_TRUE(rated);
}

TEST(PrometheusSwitchTest, TheQueuePatternNamesTheWantedQueueSeries) {
  EXPECT_EQ(queue_traffic_pattern({true, false}), "sonic_queue_packets_total");
  EXPECT_EQ(queue_traffic_pattern({true, true}),
            "sonic_queue_packets_total|sonic_queue_bytes_total");
  EXPECT_TRUE(is_queue_traffic_metric("queue_tx_bytes"));
  EXPECT_FALSE(is_queue_traffic_metric("queue_drop_packets"));
  EXPECT_EQ(switch_queue_pattern([](std::string_view name) { return name == "queue_tx_bytes"; }),
            "sonic_queue_bytes_total");
  EXPECT_EQ(switch_queue_pattern([](std::string_view name) {
              return name == "queue_tx_packets" || name == "queue_tx_bytes";
            }),
            "sonic_queue_packets_total|sonic_queue_bytes_total");
}

TEST(PrometheusSwitchTest, IfMibPfcQueueAndLldpSeriesBecomeTheSwitchModel) {
  const BundleFiles files = prometheus_to_bundle(leaf_and_host());
  // Every family present on the one switch, every label plain: nothing to report.
  EXPECT_TRUE(files.problems.empty()) << all_problems(files);
  EXPECT_EQ(files.files.at("switches/leaf1/000/captured_at"), "100.000\n");
  EXPECT_TRUE(files.files.count("switches/leaf1/001/sos_commands/sonic/show_pfc_counters"));
  EXPECT_FALSE(files.files.count("hosts/leaf1/000/captured_at"));
  EXPECT_FALSE(files.files.count("hosts/leaf9/000/captured_at"));
  EXPECT_FALSE(files.files.count("switches/leaf9/000/captured_at"));

  auto bundle = open_bundle_files(files, "prometheus test");
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok()) << fabric.error().describe();
  ASSERT_EQ(fabric->switches.size(), 1u);
  ASSERT_EQ(fabric->hosts.size(), 1u);
  EXPECT_EQ(fabric->hosts[0].name, "gpu01");
  const auto& sw = fabric->switches[0];
  EXPECT_EQ(sw.name, "leaf1");
  ASSERT_EQ(sw.captured_at.size(), 2u);

  const auto& e0 = port_of(*fabric, "leaf1", "Ethernet0");
  EXPECT_EQ(e0.speed_gbps, 400.0);
  EXPECT_EQ(e0.mtu, 9100);
  EXPECT_EQ(e0.oper, model::LinkState::Up);
  EXPECT_EQ(e0.peer_device, "gpu01");
  EXPECT_EQ(e0.peer_port, "ens1f0np0");  // the description, for a MAC port ID
  // No rate in the first sample; the octets' rate over the window in the second.
  EXPECT_FALSE(value(e0, 0, "tx_bps").has_value());
  EXPECT_EQ(value(e0, 1, "tx_bps"), 25e9);
  EXPECT_EQ(value(e0, 1, "tx_util_pct"), 50.0);
  EXPECT_EQ(value(e0, 1, "rx_bps"), 5e9);
  EXPECT_EQ(value(e0, 1, "rx_packets"), 4020.0);  // unicast + multicast
  EXPECT_EQ(value(e0, 1, "rx_drops"), 12.0);
  EXPECT_EQ(value(e0, 1, "pfc_rx_pause_frames", 3), 70.0);
  EXPECT_EQ(value(e0, 0, "pfc_rx_pause_frames", 3), 10.0);
  EXPECT_EQ(value(e0, 1, "pfc_tx_pause_frames", 3), 5.0);
  EXPECT_FALSE(value(e0, 1, "pfc_rx_pause_frames", 4).has_value());
  EXPECT_EQ(value(e0, 1, "queue_drop_packets", 3), 9.0);
  EXPECT_EQ(value(e0, 1, "queue_drop_packets", 108), 2.0);  // MC8: multicast queues + 100

  const auto& e4 = port_of(*fabric, "leaf1", "Ethernet4");
  EXPECT_EQ(e4.oper, model::LinkState::Down);
  EXPECT_EQ(value(e4, 1, "tx_bps"), 0.0);
  EXPECT_EQ(value(e4, 1, "tx_util_pct"), 0.0);

  // The host's own LLDP names the leaf port by the same ifName.
  ASSERT_EQ(fabric->hosts[0].nics.size(), 1u);
  EXPECT_EQ(fabric->hosts[0].nics[0].switch_name, "leaf1");
  EXPECT_EQ(fabric->hosts[0].nics[0].switch_port, "Ethernet0");
}

TEST(PrometheusSwitchTest, ReadsEnumsExportedAsInfoAndGivesNoRateAcrossAReset) {
  std::vector<PromSeries> input = {
      series({{"__name__", "ifOperStatus"},
              {"instance", "leaf2"},
              {"ifName", "Ethernet8"},
              {"ifOperStatus", "down"}},
             {{100.0, 1.0}, {130.0, 1.0}}),
      series({{"__name__", "ifOperStatus"},
              {"instance", "leaf2"},
              {"ifName", "Ethernet8"},
              {"ifOperStatus", "up"}},
             {{100.0, 0.0}, {130.0, 0.0}}),
      // The counter went back: a reset, so no rate rather than a huge one.
      series({{"__name__", "ifHCOutOctets"}, {"instance", "leaf2"}, {"ifName", "Ethernet8"}},
             {{100.0, 9e12}, {130.0, 1e9}}),
  };
  auto bundle = open_bundle_files(prometheus_to_bundle(input), "test");
  ASSERT_TRUE(bundle.ok());
  auto fabric = model::load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  const auto& port = port_of(*fabric, "leaf2", "Ethernet8");
  EXPECT_EQ(port.oper, model::LinkState::Down);
  EXPECT_FALSE(value(port, 1, "tx_bps").has_value());
  EXPECT_EQ(value(port, 1, "tx_packets"), std::nullopt);
}

TEST(PrometheusSwitchTest, NamesTheFamiliesASwitchLacksAndRefusesBadLabels) {
  std::vector<PromSeries> input = {
      series({{"__name__", "ifHCOutOctets"}, {"instance", "leaf3"}, {"ifName", "Ethernet0"}},
             {{100.0, 1.0}}),
      series({{"__name__", "ifHCOutOctets"}, {"instance", "leaf3"}, {"ifName", "Port 1"}},
             {{100.0, 1.0}}),
      series({{"__name__", "netdoctor_switch_pfc_rx_frames_total"},
              {"instance", "leaf3"},
              {"ifName", "Ethernet0"},
              {"priority", "9"}},
             {{100.0, 1.0}}),
  };
  const BundleFiles files = prometheus_to_bundle(input);
  const std::string all = all_problems(files);
  EXPECT_NE(all.find("leaf3 have no PFC counters"), std::string::npos) << all;
  EXPECT_NE(all.find("leaf3 have no queue counters"), std::string::npos) << all;
  EXPECT_NE(all.find("leaf3 have no LLDP neighbours"), std::string::npos) << all;
  EXPECT_EQ(all.find("no interface counters"), std::string::npos) << all;
  EXPECT_NE(all.find("2 series left out"), std::string::npos) << all;
  const std::string& table =
      files.files.at("switches/leaf3/000/sos_commands/sonic/show_interfaces_counters");
  EXPECT_NE(table.find("Ethernet0"), std::string::npos);
  EXPECT_EQ(table.find("Port"), std::string::npos) << table;
}

TEST(PrometheusSwitchTest, NoSwitchSeriesIsAProblemNotAFailure) {
  netdoctor::testing::FakePrometheus client(1);
  PrometheusRequest request;
  request.url = "http://prom:9090";
  request.at = 130.0;
  request.window = 30.0;
  auto read = read_prometheus(client, request);
  ASSERT_TRUE(read.ok()) << read.error().describe();
  EXPECT_TRUE(read->tree->read("hosts/n001/001/sys/class/infiniband/mlx5_0/ports/1/state").ok());
  EXPECT_EQ(read->stats.switches, 0u);
  std::string all;
  for (const auto& problem : read->problems) {
    all += problem.describe() + "\n";
  }
  EXPECT_NE(all.find("switch data not available"), std::string::npos) << all;
}

}  // namespace
}  // namespace netdoctor::remote
