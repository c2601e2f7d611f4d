// Simulated bundles read back through the capture layer and the model that `inventory` prints:
// every host, NIC, switch, switch port and cable the simulator built is there, and nothing else.
// (The 512-host bundle is checked the same way by bench/load_bench.sh.)
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "model/loader.h"
#include "sim_test_support.h"

namespace netdoctor::sim::testing {
namespace {

// "leaf1/Ethernet0" for each cable end the simulator made, host side named by its NIC.
std::set<std::string> simulated_cables(const Fabric& fabric) {
  std::set<std::string> cables;
  for (const Switch& sw : fabric.switches) {
    for (const Port& port : sw.ports) {
      if (port.peer_host != k_none) {
        const Host& host = fabric.hosts[port.peer_host];
        cables.insert(sw.name + "/" + port.name + " - " + host.name + "/" +
                      host.nics[port.peer_nic].netdev);
      } else if (port.peer_switch != k_none) {
        const Switch& peer = fabric.switches[port.peer_switch];
        cables.insert(sw.name + "/" + port.name + " - " + peer.name + "/" +
                      peer.ports[port.peer_port].name);
      }
    }
  }
  return cables;
}

// The same cables as the model sees them: host NICs from LLDP, switch ports from `show lldp
// table` (a host peer is named by its netdev, as switches' LLDP reports the host's port).
std::set<std::string> modelled_cables(const model::Fabric& fabric) {
  std::set<std::string> cables;
  for (const model::Switch& sw : fabric.switches) {
    for (const model::SwitchPort& port : sw.ports) {
      if (!port.peer_device.empty()) {
        cables.insert(sw.name + "/" + port.name + " - " + port.peer_device + "/" + port.peer_port);
      }
    }
  }
  return cables;
}

void expect_read_back_whole(std::size_t hosts, std::size_t nics, std::size_t samples) {
  SCOPED_TRACE(::testing::Message()
               << hosts << " hosts x " << nics << " NICs, " << samples << " samples");
  SimConfig config = config_for(hosts, nics, {}, 3);
  config.samples = samples;
  const Bundle bundle = run(config);
  const Fabric& simulated = bundle.simulation.fabric;
  const model::Fabric fabric = load_model(bundle);

  EXPECT_TRUE(fabric.problems.empty()) << fabric.problems.front().error.describe();
  ASSERT_EQ(fabric.hosts.size(), hosts);
  for (const Host& sim_host : simulated.hosts) {
    const model::Host* host = fabric.find_host(sim_host.name);
    ASSERT_NE(host, nullptr) << sim_host.name;
    EXPECT_EQ(host->captured_at.size(), samples) << sim_host.name;
    ASSERT_EQ(host->nics.size(), nics) << sim_host.name;
    for (const Nic& sim_nic : sim_host.nics) {
      const Switch& leaf = simulated.switches.at(sim_nic.leaf);
      const auto nic = std::find_if(host->nics.begin(), host->nics.end(), [&](const model::Nic& n) {
        return n.netdev == sim_nic.netdev;
      });
      ASSERT_NE(nic, host->nics.end()) << sim_host.name << "/" << sim_nic.netdev;
      EXPECT_EQ(nic->device, sim_nic.rdma_dev);
      EXPECT_EQ(nic->switch_name, leaf.name) << nic->nic_entity();
      EXPECT_EQ(nic->switch_port, leaf.ports.at(sim_nic.port).name) << nic->nic_entity();
      EXPECT_EQ(nic->samples.size(), samples) << nic->nic_entity();
    }
  }

  ASSERT_EQ(fabric.switches.size(), simulated.switches.size());
  for (const Switch& sim_switch : simulated.switches) {
    const model::Switch* sw = fabric.find_switch(sim_switch.name);
    ASSERT_NE(sw, nullptr) << sim_switch.name;
    EXPECT_EQ(sw->ports.size(), sim_switch.ports.size()) << sim_switch.name;
    EXPECT_EQ(sw->captured_at.size(), samples) << sim_switch.name;
  }
  EXPECT_EQ(modelled_cables(fabric), simulated_cables(simulated));
}

TEST(SimReadBack, OneHostWithOneNic) {
  expect_read_back_whole(1, 1, 2);
}

TEST(SimReadBack, OneHostWithEightNics) {
  expect_read_back_whole(1, 8, 2);
}

TEST(SimReadBack, SixteenHostsWithEightNicsAndThreeSamples) {
  expect_read_back_whole(16, 8, 3);
}

}  // namespace
}  // namespace netdoctor::sim::testing
