// The faults whose signals are read back through the project's own capture layer, parsers and
// model (a simulated bundle in memory -> open_bundle_tree -> load_fabric): what an engineer
// would see in the counters and configuration, relative to the rest of the fleet.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "base/bundle.h"
#include "base/file_tree.h"
#include "model/loader.h"
#include "model/metric.h"
#include "sim_test_support.h"

namespace netdoctor::sim::testing {
namespace {

constexpr int k_roce = 3;

model::Fabric load(const Bundle& bundle) {
  model::Fabric fabric = load_model(bundle);
  EXPECT_TRUE(fabric.problems.empty()) << fabric.problems.front().error.describe();
  return fabric;
}

double nic_rate(const model::Nic& nic, const std::string& metric, int index = -1) {
  const model::Rate rate = model::rate_of(nic.samples, {metric, index});
  EXPECT_TRUE(rate.ok()) << nic.nic_entity() << " " << metric;
  return rate.per_second;
}

double port_rate(const model::SwitchPort& port, const std::string& metric, int index = -1) {
  const model::Rate rate = model::rate_of(port.samples, {metric, index});
  return rate.ok() ? rate.per_second : 0.0;
}

std::string culprit_host(const Bundle& bundle) {
  for (const std::string& culprit : bundle.simulation.faults.at(0).culprits) {
    if (culprit.rfind("host:", 0) == 0) {
      return culprit.substr(5);
    }
    if (culprit.rfind("nic:", 0) == 0) {
      return culprit.substr(4, culprit.find('/') - 4);
    }
  }
  return {};
}

TEST(SimModelSignals, BufferExhaustionDropsOnTheLosslessQueueOfOneLeafOnly) {
  const Bundle bundle = run(config_for(8, 4, {"buffer-exhaustion"}, 21));
  const model::Fabric fabric = load(bundle);
  std::map<std::string, double> drops_by_switch;
  for (const auto& sw : fabric.switches) {
    for (const auto& port : sw.ports) {
      drops_by_switch[sw.name] += port_rate(port, "queue_drop_packets", k_roce);
    }
  }
  const auto worst =
      std::max_element(drops_by_switch.begin(), drops_by_switch.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  EXPECT_GT(worst->second, 10.0) << "the lossless queue drops packets per second";
  for (const auto& [name, drops] : drops_by_switch) {
    if (name != worst->first) {
      EXPECT_LT(drops, worst->second / 10.0) << name << " drops like the culprit";
    }
  }
  const auto& culprits = bundle.simulation.faults.at(0).culprits;
  EXPECT_TRUE(std::any_of(culprits.begin(), culprits.end(), [&](const std::string& c) {
    return c.find(worst->first) != std::string::npos;
  }));
}

TEST(SimModelSignals, EcnMisconfigLeavesOneLeafsHostsPausingWithoutMarks) {
  const Bundle bundle = run(config_for(8, 4, {"ecn-misconfig"}, 21));
  const model::Fabric fabric = load(bundle);
  std::string leaf;
  for (const std::string& culprit : bundle.simulation.faults.at(0).culprits) {
    if (culprit.rfind("switch:", 0) == 0) {
      leaf = culprit.substr(7);
    }
  }
  ASSERT_FALSE(leaf.empty());
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      const double marks = nic_rate(nic, "ecn_marked_packets");
      if (nic.switch_name == leaf) {
        EXPECT_EQ(marks, 0.0) << nic.nic_entity() << " sees ECN marks behind the bad leaf";
        EXPECT_GT(nic_rate(nic, "pfc_rx_pause_frames", k_roce), 100.0) << nic.nic_entity();
      } else {
        EXPECT_GT(marks, 0.0) << nic.nic_entity() << " elsewhere marks as usual";
      }
    }
  }
}

TEST(SimModelSignals, TrafficIsolationPutsNonRdmaBytesOnTheRocePriorityOfOneHost) {
  const Bundle bundle = run(config_for(8, 4, {"traffic-isolation"}, 21));
  const model::Fabric fabric = load(bundle);
  const std::string host = culprit_host(bundle);
  ASSERT_FALSE(host.empty());
  for (const auto& h : fabric.hosts) {
    for (const auto& nic : h.nics) {
      const double prio = nic_rate(nic, "prio_rx_bytes", k_roce);
      const double rdma = nic_rate(nic, "rdma_rx_bytes");
      const double non_rdma_share = prio > 0.0 ? std::max(0.0, prio - rdma) / prio : 0.0;
      if (h.name == host) {
        EXPECT_GT(non_rdma_share, 0.2) << nic.nic_entity();
      } else {
        EXPECT_LT(non_rdma_share, 0.05) << nic.nic_entity();
      }
    }
  }
}

TEST(SimModelSignals, AddressingConflictGivesTwoNicsTheSameAddress) {
  const Bundle bundle = run(config_for(8, 4, {"addressing-conflict"}, 21));
  const model::Fabric fabric = load(bundle);
  std::map<std::string, std::vector<std::string>> owners;  // address -> netdev entities
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      for (const std::string& cidr : nic.ipv4) {
        owners[cidr.substr(0, cidr.find('/'))].push_back(nic.netdev_entity());
      }
    }
  }
  std::size_t duplicated = 0;
  for (const auto& [address, nics] : owners) {
    if (nics.size() > 1) {
      ++duplicated;
      const auto& culprits = bundle.simulation.faults.at(0).culprits;
      EXPECT_TRUE(std::any_of(nics.begin(), nics.end(),
                              [&](const std::string& nic) {
                                return std::find(culprits.begin(), culprits.end(), nic) !=
                                       culprits.end();
                              }))
          << address << " is shared by NICs the fault does not name";
    }
  }
  EXPECT_EQ(duplicated, 1U);
}

TEST(SimModelSignals, FirmwareMismatchPutsOneHostOffItsModelsMajority) {
  const Bundle bundle = run(config_for(8, 4, {"firmware-mismatch"}, 21));
  const model::Fabric fabric = load(bundle);
  std::map<std::string, std::set<std::string>> hosts_by_firmware;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      ASSERT_FALSE(nic.firmware.empty()) << nic.nic_entity();
      hosts_by_firmware[nic.firmware].insert(host.name);
    }
  }
  ASSERT_EQ(hosts_by_firmware.size(), 2U) << "one majority version and one odd version";
  const auto odd = std::min_element(
      hosts_by_firmware.begin(), hosts_by_firmware.end(),
      [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  ASSERT_EQ(odd->second.size(), 1U);
  EXPECT_EQ(*odd->second.begin(), culprit_host(bundle));
}

}  // namespace
}  // namespace netdoctor::sim::testing
