// InfiniBand faults change what they should in the subnet's views, and name the culprits a
// correct diagnosis must blame; faults that mean nothing on InfiniBand are refused.
#include <gtest/gtest.h>

#include <algorithm>

#include "ib_sim_support.h"
#include "parsers/ibv_devinfo.h"
#include "sim/ib_traffic.h"

namespace netdoctor::sim::testing {
namespace {

const InjectedFault& only_fault(const Bundle& bundle) {
  EXPECT_EQ(bundle.simulation.faults.size(), 1u);
  return bundle.simulation.faults.front();
}

std::vector<std::string> culprits(const Bundle& bundle) {
  return only_fault(bundle).culprits;
}

// Every cabled switch port: {switch name, port number}.
std::vector<std::pair<std::string, int>> cabled_ports(const Fabric& fabric) {
  std::vector<std::pair<std::string, int>> ports;
  for (const Switch& sw : fabric.switches) {
    for (const Port& port : sw.ports) {
      ports.emplace_back(sw.name, port.number);
    }
  }
  return ports;
}

TEST(IbSimFaults, CongestionRootWaitsFarMoreThanVictimsAndVictimsMoreThanTheRest) {
  const Bundle bundle = run(ib_config(16, 4, {"ib-congestion"}, 21));
  const auto names = culprits(bundle);
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0].rfind("nic:", 0), 0u);
  const auto [root_switch, root_port] = split_port(names[1]);
  EXPECT_EQ(root_switch.rfind("leaf-", 0), 0u);
  const auto lids = switch_lids(bundle);
  FabricCounters counters(bundle);
  const double root = counters.rate(lids.at(root_switch), root_port, "PortXmitWait");
  ASSERT_GT(root, 0.0) << "the root's 32-bit PortXmitWait must be readable over the window";
  std::vector<double> others;
  double spine_toward_root = 0.0;
  const Fabric& fabric = bundle.simulation.fabric;
  for (const auto& [name, number] : cabled_ports(fabric)) {
    if (name == root_switch && number == root_port) {
      continue;
    }
    const double wait = counters.rate(lids.at(name), number, "PortXmitWait");
    ASSERT_GE(wait, 0.0) << name << "/" << number;
    others.push_back(wait);
    if (name.rfind("spine-", 0) == 0) {
      for (const Switch& sw : fabric.switches) {
        for (const Port& port : sw.ports) {
          if (sw.name == name && port.number == number &&
              fabric.switches[port.peer_switch].name == root_switch) {
            spine_toward_root = std::max(spine_toward_root, wait);
          }
        }
      }
    }
  }
  const double most = *std::max_element(others.begin(), others.end());
  EXPECT_GT(root, 2.0 * most) << "root " << root << " vs " << most;
  // Over the probes' 5 % of the window waiting, at NVIDIA's tick (1.28 ns on an HDR lane).
  EXPECT_GT(root / xmit_wait_ticks_per_s(200, 4), 0.05);
  EXPECT_GT(spine_toward_root, 5.0 * median(others)) << "victims wait more than the rest";
}

TEST(IbSimFaults, NdrCongestionRootStaysCountableInThe32BitCounter) {
  const Bundle bundle = run(ib_config(16, 8, {"ib-congestion"}, 23, IbSpeed::Ndr));
  const auto [name, number] = split_port(culprits(bundle)[1]);
  FabricCounters counters(bundle);
  const double root = counters.rate(switch_lids(bundle).at(name), number, "PortXmitWait");
  EXPECT_GT(root / xmit_wait_ticks_per_s(400, 4), 0.05) << "not saturated, over 5 % at NDR";
}

TEST(IbSimFaults, CongestionFromASlowPcieLinkShowsItOnTheReceiver) {
  const Bundle bundle = run(ib_config(8, 2, {"ib-congestion:pcie"}, 22));
  // Host names follow the seed's style: find the receiver from the answer.
  ASSERT_EQ(culprits(bundle).size(), 3u);
  const std::string nic = culprits(bundle)[0].substr(4);
  const std::string host = nic.substr(0, nic.find('/'));
  EXPECT_EQ(culprits(bundle)[2], "host:" + host);
  const Nic* receiver = nullptr;
  for (const Host& h : bundle.simulation.fabric.hosts) {
    for (const Nic& n : h.nics) {
      if (h.name + "/" + n.rdma_dev == nic) {
        receiver = &n;
      }
    }
  }
  ASSERT_NE(receiver, nullptr);
  EXPECT_EQ(bundle.file("hosts/" + host + "/" + bundle.sample(0) + "/sys/class/net/" +
                        receiver->netdev + "/device/current_link_width"),
            "8\n");
}

TEST(IbSimFaults, LinkErrorsGrowOnlyOnTheInjectedCable) {
  for (const std::string where : {"", "nic:", "uplink"}) {
    SimConfig config = ib_config(16, 4, {"link-errors"}, 31);
    Bundle bundle = run(config);
    if (where == "nic:") {  // an HCA cable named by its NIC
      const Host& host = bundle.simulation.fabric.hosts[3];
      bundle = run(ib_config(16, 4, {"link-errors@nic:" + host.name + "/mlx5_2"}, 31));
    } else if (where == "uplink") {
      bundle = run(ib_config(16, 4, {"link-errors@port:leaf-02/22"}, 31));
    }
    SCOPED_TRACE(where);
    const auto names = culprits(bundle);
    ASSERT_EQ(names.size(), 2u);
    std::set<std::pair<std::string, int>> faulty;
    for (const std::string& name : names) {
      if (name.rfind("port:", 0) == 0) {
        faulty.insert(split_port(name));
      }
    }
    const auto lids = switch_lids(bundle);
    FabricCounters counters(bundle);
    for (const auto& port : cabled_ports(bundle.simulation.fabric)) {
      const double symbols = counters.rate(lids.at(port.first), port.second, "SymbolErrorCounter");
      if (faulty.count(port)) {
        EXPECT_GT(symbols, 0.0) << port.first << "/" << port.second;
        EXPECT_GT(counters.rate(lids.at(port.first), port.second, "LinkErrorRecoveryCounter"), 0.0);
      } else {
        EXPECT_TRUE(symbols == 0.0 || symbols == -1.0) << port.first << "/" << port.second;
      }
    }
    if (where == "nic:") {
      EXPECT_EQ(names[0], "nic:" + bundle.simulation.fabric.hosts[3].name + "/mlx5_2");
    }
    if (where == "uplink") {
      EXPECT_EQ(names[0], "port:leaf-02/22");
      EXPECT_EQ(names[1].rfind("port:spine-", 0), 0u);
    }
  }
}

const parsers::IbLink* link_of(const parsers::IbLinkInfo& info, const std::string& entity) {
  const auto [name, number] = split_port(entity);
  for (const parsers::IbLink& link : info.links) {
    if (link.node_description.find(";" + name + ":") != std::string::npos &&
        link.port == static_cast<std::uint32_t>(number)) {
      return &link;
    }
  }
  return nullptr;
}

TEST(IbSimFaults, DegradedLinkShowsInIblinkinfoTheWayTheToolPrintsIt) {
  const Bundle width = run(ib_config(16, 4, {"link-degraded:width@port:leaf-01/3"}, 41));
  auto info = parsers::parse_iblinkinfo(fabric_file(width, 1, "iblinkinfo"));
  ASSERT_TRUE(info.ok());
  const parsers::IbLink* link = link_of(info.value(), "port:leaf-01/3");
  ASSERT_NE(link, nullptr);
  EXPECT_TRUE(link->width == "1X" || link->width == "2X") << link->width;
  EXPECT_EQ(link->comment, "Could be 4X");
  EXPECT_EQ(culprits(width)[1], "port:leaf-01/3");
  EXPECT_EQ(culprits(width)[0].rfind("nic:", 0), 0u);

  const Bundle speed =
      run(ib_config(16, 8, {"link-degraded:speed@port:leaf-01/34"}, 41, IbSpeed::Ndr));
  info = parsers::parse_iblinkinfo(fabric_file(speed, 0, "iblinkinfo"));
  ASSERT_TRUE(info.ok());
  link = link_of(info.value(), "port:leaf-01/34");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->speed_gbps, 53.125);
  EXPECT_EQ(link->comment, "Could be 106.25 Gbps");
  EXPECT_EQ(culprits(speed)[1].rfind("port:spine-", 0), 0u);

  const Bundle down = run(ib_config(16, 4, {"link-degraded:down@port:leaf-01/3"}, 41));
  info = parsers::parse_iblinkinfo(fabric_file(down, 0, "iblinkinfo"));
  ASSERT_TRUE(info.ok());
  link = link_of(info.value(), "port:leaf-01/3");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->state, "Down");
  EXPECT_EQ(link->physical_state, "Polling");
  EXPECT_TRUE(link->remote_description.empty());
  // The HCA behind it is out of the subnet's sweep; its host still sees its own port.
  const std::string hca = culprits(down)[0].substr(4);  // "host/mlx5_N"
  const std::string description =
      hca.substr(0, hca.find('/')) + " " + hca.substr(hca.find('/') + 1);
  EXPECT_EQ(fabric_file(down, 0, "ibnetdiscover").find("\"" + description + "\""),
            std::string::npos);
  EXPECT_EQ(only_fault(down).variant, "down");
}

TEST(IbSimFaults, SubnetManagerTroubleInItsThreeWays) {
  const Bundle none = run(ib_config(16, 4, {"subnet-manager:no-sm"}, 51));
  const std::string text = fabric_file(none, 0, "sminfo");
  EXPECT_NE(text.find("sminfo: iberror: failed: query"), std::string::npos);
  EXPECT_NE(text.find("_do_madrpc"), std::string::npos);
  EXPECT_FALSE(parsers::parse_sminfo(text).ok());
  auto info = parsers::parse_iblinkinfo(fabric_file(none, 0, "iblinkinfo"));
  ASSERT_TRUE(info.ok());
  std::size_t initialize = 0;
  for (const parsers::IbLink& link : info.value().links) {
    initialize += link.state == "Initialize" ? 1u : 0u;
  }
  // Each stuck HCA shows in Initialize from both ends of its cable.
  EXPECT_EQ(initialize, 2 * (culprits(none).size() - 1));
  EXPECT_EQ(culprits(none)[0], "switch:spine-01");

  const Bundle two = run(ib_config(16, 4, {"subnet-manager:two-masters"}, 52));
  auto first = parsers::parse_sminfo(fabric_file(two, 0, "sminfo"));
  auto second = parsers::parse_sminfo(fabric_file(two, 1, "sminfo"));
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first.value().state_name, "SMINFO_MASTER");
  EXPECT_EQ(second.value().state_name, "SMINFO_MASTER");
  EXPECT_NE(first.value().sm_guid, second.value().sm_guid);
  std::set<std::uint32_t> sm_lids;
  for (const Host& host : two.simulation.fabric.hosts) {
    for (const Nic& nic : host.nics) {
      sm_lids.insert(nic.sm_lid);
    }
  }
  EXPECT_EQ(sm_lids.size(), 2u) << "HCAs follow two different masters";

  const Bundle stuck = run(ib_config(16, 4, {"subnet-manager:stuck-ports"}, 53));
  info = parsers::parse_iblinkinfo(fabric_file(stuck, 1, "iblinkinfo"));
  ASSERT_TRUE(info.ok());
  std::size_t not_active = 0;
  for (const parsers::IbLink& link : info.value().links) {
    not_active += link.state == "Initialize" || link.state == "Armed" ? 1u : 0u;
  }
  EXPECT_EQ(not_active, 2 * (culprits(stuck).size() - 1));
  EXPECT_TRUE(parsers::parse_sminfo(fabric_file(stuck, 1, "sminfo")).ok());

  SimConfig bad = ib_config(4, 1, {"subnet-manager:split-brain"});
  EXPECT_FALSE(simulate(bad).ok());
}

TEST(IbSimFaults, MtuAndFirmwareMismatchShowOnTheCulpritHcaOnly) {
  const Bundle mtu = run(ib_config(8, 2, {"mtu-mismatch"}, 61));
  const Bundle fw = run(ib_config(8, 2, {"firmware-mismatch"}, 61));
  for (const Bundle* bundle : {&mtu, &fw}) {
    const std::vector<std::string> names = culprits(*bundle);
    for (const Host& host : bundle->simulation.fabric.hosts) {
      const std::string dir = "hosts/" + host.name + "/" + bundle->sample(0) + "/";
      auto info =
          parsers::parse_ibv_devinfo(bundle->file(dir + "sos_commands/infiniband/ibv_devinfo_-v"));
      ASSERT_TRUE(info.ok());
      const bool culprit =
          std::find(names.begin(), names.end(), "host:" + host.name) != names.end();
      for (const parsers::IbvDevice& device : info.value().devices) {
        if (bundle == &mtu) {
          EXPECT_EQ(device.ports.at(0).active_mtu_bytes, culprit ? 2048u : 4096u) << host.name;
        } else {
          EXPECT_EQ(device.fw_ver, culprit ? "20.39.1002" : "20.41.1000") << host.name;
          EXPECT_EQ(bundle->file(dir + "sys/class/infiniband/" + device.hca_id + "/fw_ver"),
                    device.fw_ver + "\n");
        }
      }
    }
  }
}

TEST(IbSimFaults, EcmpImbalanceAndOversubscriptionShowOnTheLeafUpPorts) {
  const Bundle ecmp = run(ib_config(16, 4, {"ecmp-imbalance@switch:leaf-02"}, 71));
  EXPECT_EQ(culprits(ecmp)[0], "switch:leaf-02");
  const auto lids = switch_lids(ecmp);
  FabricCounters counters(ecmp);
  std::vector<double> data;
  for (const Port& port : ecmp.simulation.fabric.switches[1].ports) {
    if (port.kind == PortKind::Uplink) {
      data.push_back(counters.rate(lids.at("leaf-02"), port.number, "PortXmitData"));
    }
  }
  ASSERT_GE(data.size(), 2u);
  const auto [low, high] = std::minmax_element(data.begin(), data.end());
  EXPECT_GT(*low, 0.0);
  EXPECT_GT(*high, 5.0 * *low) << "static routes load some up-ports far more than others";

  const Bundle over = run(ib_config(16, 4, {"oversubscription@switch:leaf-03"}, 71));
  EXPECT_EQ(culprits(over), std::vector<std::string>{"switch:leaf-03"});
  auto info = parsers::parse_ibnetdiscover(fabric_file(over, 0, "ibnetdiscover"));
  ASSERT_TRUE(info.ok());
  std::map<std::string, std::size_t> up_links;
  for (const parsers::IbnetNode& node : info.value().nodes) {
    for (const parsers::IbnetLink& link : node.links) {
      if (node.type == "Switch" && link.remote_id.rfind("S-", 0) == 0) {
        ++up_links[node.description];
      }
    }
  }
  EXPECT_LT(4 * up_links.at("MF0;leaf-03:MQM8700/U1"), up_links.at("MF0;leaf-01:MQM8700/U1") + 1);
}

TEST(IbSimFaults, HostFaultsStillWorkAndEthernetFaultsAreRefused) {
  for (const char* fault : {"clock-skew", "pcie-degraded", "nccl-transport"}) {
    auto sim = simulate(ib_config(4, 2, {fault}, 81));
    ASSERT_TRUE(sim.ok()) << fault;
    EXPECT_FALSE(sim.value().faults.at(0).culprits.empty()) << fault;
  }
  for (const char* fault : {"pfc-storm", "ecn-misconfig", "lossy-roce", "traffic-isolation",
                            "gid-mismatch", "addressing-conflict", "buffer-exhaustion"}) {
    const Status status = validate_config(ib_config(4, 2, {fault}));
    ASSERT_FALSE(status.ok()) << fault;
    EXPECT_EQ(status.error().code, ErrorCode::InvalidArgument) << fault;
    EXPECT_NE(status.error().message.find("InfiniBand"), std::string::npos) << fault;
  }
  for (const char* fault : {"ib-congestion", "subnet-manager"}) {
    EXPECT_FALSE(validate_config(config_for(4, 2, {fault})).ok()) << fault << " on RoCE";
  }
  EXPECT_FALSE(validate_config(ib_config(4, 9, {})).ok()) << "at most 8 HCAs a host";
  EXPECT_FALSE(validate_config(ib_config(2000, 1, {})).ok()) << "beyond a 40-port fat tree";
  EXPECT_TRUE(validate_config(ib_config(2000, 1, {}, 1, IbSpeed::Ndr)).ok());
}

TEST(IbSimFaults, ExpectedEntryNamesTheFabricAndTheVariant) {
  const SimConfig config = ib_config(8, 2, {"link-degraded:down"}, 91, IbSpeed::Ndr);
  const Bundle bundle = run(config);
  const auto entry = expected_entry(bundle.simulation, config, "x");
  EXPECT_EQ(entry["cause"], "link-degraded");
  EXPECT_EQ(entry["fabric"], "ib");
  EXPECT_EQ(entry["ib_speed"], "ndr");
  EXPECT_EQ(entry["faults"][0]["variant"], "down");
  EXPECT_EQ(entry["culprits_any"].size(), 2u);
}

}  // namespace
}  // namespace netdoctor::sim::testing
