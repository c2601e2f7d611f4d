// LoadOptions::only_sources: a withheld source is never read, is recorded as withheld and is
// never a problem, while the inventory sources still name every host and NIC as a full load
// does. This is what lets a probe test prove the probe reads only what it declares.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "base/bundle.h"
#include "base/strings.h"
#include "model/loader.h"
#include "model/source_filter.h"
#include "model/source_names.h"
#include "tests/model/fabric_dump.h"
#include "tests/model/mem_bundle.h"
#include "tests/model/recording_sample.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;
using Sources = std::optional<std::set<std::string>>;

const std::string k_ib = "/sys/class/infiniband/";

// The shared scenarios, the example bundles and the sos report: every real capture the tests
// hold.
std::vector<std::string> capture_paths() {
  std::vector<std::string> paths;
  for (const auto& dir :
       {testing::shared_dir() + "/scenarios", testing::source_dir() + "/examples"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (ends_with(entry.path().string(), ".tar.gz")) {
        paths.push_back(entry.path().string());
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  paths.push_back(testing::source_dir() +
                  "/tests/fixtures/sos/sosreport-vm-test-2026-12-02-vtyvqqy.tar.xz");
  return paths;
}

Fabric load(const Bundle& bundle, Sources only) {
  LoadOptions options;
  options.only_sources = std::move(only);
  auto fabric = load_fabric(bundle, options);
  EXPECT_TRUE(fabric.ok());
  return fabric.ok() ? std::move(fabric).value() : Fabric{};
}

const std::set<std::string> k_none_but_inventory;

std::set<std::string> every_known_source() {
  const auto& known = source::known_sources();
  return {known.begin(), known.end()};
}

void expect_withheld(const SourceMap& sources, const std::string& name, const std::string& who) {
  auto it = sources.find(name);
  ASSERT_NE(it, sources.end()) << who << " has no entry for " << name;
  EXPECT_EQ(it->second.availability, Availability::Absent) << who << " " << name;
  EXPECT_EQ(it->second.detail, k_withheld) << who << " " << name;
}

// The accesses an inventory-only load may make: directory listings under /sys/class/infiniband
// and the inventory commands. No file is read at all.
bool inventory_access(const std::string& access) {
  return starts_with(access, "dir " + k_ib) || access == "command rdma link show" ||
         access == "command ibdev2netdev" || starts_with(access, "command ibv_devinfo") ||
         access == "command lldpcli show neighbors -f json" ||
         access == "command lldpcli show neighbors" ||  // its text form, when there is no JSON
         starts_with(access, "command ethtool -i ");
}

TEST(Withholding, InventoryOnlyFindsTheSameNicsAndReadsNothingElse) {
  for (const auto& path : capture_paths()) {
    SCOPED_TRACE(path);
    auto bundle = open_bundle(path);
    ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
    const Fabric full = load(*bundle, std::nullopt);
    testing::AccessLog accesses;
    const Fabric narrow = load(testing::recording(*bundle, accesses), k_none_but_inventory);
    for (const auto& access : accesses) {
      EXPECT_TRUE(inventory_access(access)) << "a withheld source was touched: " << access;
    }
    for (const auto& problem : narrow.problems) {
      EXPECT_EQ(source::inventory_sources().count(problem.source), 1u)
          << "a problem of a withheld source: " << problem.source;
    }
    EXPECT_TRUE(narrow.perftests.empty());
    ASSERT_EQ(narrow.hosts.size(), full.hosts.size());
    for (std::size_t h = 0; h < full.hosts.size(); ++h) {
      const Host& host = narrow.hosts[h];
      EXPECT_EQ(host.name, full.hosts[h].name);
      EXPECT_EQ(host.captured_at, full.hosts[h].captured_at) << host.name;
      EXPECT_TRUE(host.interfaces.empty()) << host.name;
      EXPECT_FALSE(host.clock.offset_s.has_value()) << host.name;
      expect_withheld(host.sources, source::k_chronyc_tracking, host.name);
      expect_withheld(host.sources, source::k_ip_address, host.name);
      ASSERT_EQ(host.nics.size(), full.hosts[h].nics.size()) << host.name;
      for (std::size_t n = 0; n < host.nics.size(); ++n) {
        const Nic& nic = host.nics[n];
        const Nic& whole = full.hosts[h].nics[n];
        const auto who = whole.nic_entity();
        EXPECT_EQ(nic.device, whole.device) << who;
        EXPECT_EQ(nic.port, whole.port) << who;
        EXPECT_EQ(nic.netdev, whole.netdev) << who;
        EXPECT_EQ(nic.vendor, whole.vendor) << who;
        EXPECT_EQ(nic.driver, whole.driver) << who;
        EXPECT_FALSE(nic.mtu.has_value()) << who;
        EXPECT_EQ(nic.operstate, LinkState::Unknown) << who;
        EXPECT_TRUE(nic.ipv4.empty()) << who;
        EXPECT_TRUE(nic.qos.trust.empty()) << who;
        EXPECT_FALSE(nic.rated_gbps.has_value()) << who;
        ASSERT_EQ(nic.samples.size(), whole.samples.size()) << who;
        for (const auto& sample : nic.samples) {
          EXPECT_TRUE(sample.values.empty()) << who << " has counters";
        }
        if (!nic.netdev.empty()) {
          expect_withheld(nic.sources, source::k_sysfs_net, who);
          expect_withheld(nic.sources, source::k_ethtool_stats, who);
          expect_withheld(nic.sources, source::k_mlnx_qos, who);
        }
        if (!nic.device.empty()) {
          expect_withheld(nic.sources, source::k_sysfs_hw_counters, who);
          expect_withheld(nic.sources, source::k_sysfs_port, who);
        }
      }
    }
    ASSERT_EQ(narrow.switches.size(), full.switches.size());
    for (std::size_t s = 0; s < full.switches.size(); ++s) {
      const Switch& sw = narrow.switches[s];
      EXPECT_EQ(sw.name, full.switches[s].name);
      EXPECT_EQ(sw.captured_at, full.switches[s].captured_at) << sw.name;
      EXPECT_TRUE(sw.ports.empty()) << sw.name << ": its ports come only from withheld tables";
      expect_withheld(sw.sources, source::k_show_interfaces_status, sw.name);
      expect_withheld(sw.sources, source::k_show_interfaces_counters, sw.name);
    }
  }
}

TEST(Withholding, EveryKnownSourceAllowedLoadsLikeTheDefault) {
  for (const auto& path : capture_paths()) {
    SCOPED_TRACE(path);
    auto bundle = open_bundle(path);
    ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
    EXPECT_EQ(testing::fabric_dump(load(*bundle, every_known_source())),
              testing::fabric_dump(load(*bundle, std::nullopt)));
  }
}

// A capture with a problem in every kind of source: malformed command output, a malformed and
// an unreadable sysfs file, a malformed switch table and a perftest output not understood.
Bundle troubled_capture() {
  MemBundle b;
  b.time("node01", "0", 10.0);
  b.file("node01", "0", k_ib + "mlx5_0/ports/1/state", "4: ACTIVE\n");
  b.file("node01", "0", k_ib + "mlx5_0/ports/1/hw_counters/out_of_sequence", "lots\n");
  b.tree().add_error("hosts/node01/0" + k_ib + "mlx5_0/ports/1/counters/port_xmit_data",
                     make_error(ErrorCode::PermissionDenied, "permission denied"));
  b.file("node01", "0", k_ib + "mlx5_0/ports/1/counters/port_xmit_data", "1\n");
  b.file("node01", "0", k_ib + "mlx5_0/device/net/ens1f0np0/ifindex", "3\n");
  b.file("node01", "0", "/sys/class/net/ens1f0np0/mtu", "jumbo\n");
  b.command("node01", "0", {"mlnx_qos", "-i", "ens1f0np0"}, "not mlnx_qos output\n");
  b.command("node01", "0", {"chronyc", "tracking"}, "this is not chrony\n");
  b.time("leaf1", "0", 10.5, true);
  b.command("leaf1", "0", {"show", "pfc", "counters"}, "no table here\n", true);
  Bundle bundle = b.build();
  bundle.perftests.push_back(PerftestFile{"node01", "node02", "ib_write_bw_-d_mlx5_0_node02", false,
                                          "garbage\n", "perftest/node01/ib_write_bw"});
  return bundle;
}

TEST(Withholding, AWithheldSourceIsNeverAProblem) {
  const Bundle bundle = troubled_capture();
  const Fabric full = load(bundle, std::nullopt);
  std::set<std::string> troubled;
  for (const auto& problem : full.problems) {
    troubled.insert(problem.source);
  }
  EXPECT_EQ(troubled, (std::set<std::string>{source::k_sysfs_hw_counters, source::k_sysfs_counters,
                                             source::k_sysfs_net, source::k_mlnx_qos,
                                             source::k_chronyc_tracking,
                                             source::k_show_pfc_counters, source::k_perftest}));

  const Fabric narrow = load(bundle, k_none_but_inventory);
  for (const auto& problem : narrow.problems) {
    ADD_FAILURE() << problem.source << ": " << problem.error.describe();
  }
  const Host& host = narrow.hosts.at(0);
  const Nic& nic = host.nics.at(0);
  EXPECT_EQ(nic.nic_entity(), "nic:node01/mlx5_0");
  for (const auto& name : {source::k_sysfs_hw_counters, source::k_sysfs_counters,
                           source::k_sysfs_net, source::k_mlnx_qos}) {
    expect_withheld(nic.sources, name, nic.nic_entity());
  }
  expect_withheld(host.sources, source::k_chronyc_tracking, host.name);
  expect_withheld(host.sources, source::k_perftest, host.name);
  EXPECT_TRUE(narrow.perftests.empty());
  expect_withheld(narrow.switches.at(0).sources, source::k_show_pfc_counters, "leaf1");
}

TEST(Withholding, OnlyTheListedSourcesBesidesTheInventoryAreRead) {
  const Fabric fabric = load(troubled_capture(), std::set<std::string>{source::k_mlnx_qos});
  std::set<std::string> troubled;
  for (const auto& problem : fabric.problems) {
    troubled.insert(problem.source);
  }
  EXPECT_EQ(troubled, std::set<std::string>{source::k_mlnx_qos});
  const Nic& nic = fabric.hosts.at(0).nics.at(0);
  EXPECT_EQ(nic.sources.at(source::k_mlnx_qos).availability, Availability::Malformed);
  expect_withheld(nic.sources, source::k_sysfs_net, nic.nic_entity());
}

TEST(Withholding, TroubledCaptureLoadsLikeTheDefaultWithEveryKnownSource) {
  const Bundle bundle = troubled_capture();
  EXPECT_EQ(testing::fabric_dump(load(bundle, every_known_source())),
            testing::fabric_dump(load(bundle, std::nullopt)));
}

// Each inventory source is the only one that names some NIC, its netdev or its vendor in some
// capture: were it not always read, a narrowed load would lose that fact. One host per source,
// each loaded with nothing but the inventory, must match the full load.
TEST(Withholding, EachInventorySourceAloneNamesWhatItIsFor) {
  MemBundle b;
  // sysfs infiniband: the device, its port and its netdev, from directory listings alone.
  b.time("by-sysfs", "0", 1.0);
  b.file("by-sysfs", "0", k_ib + "mlx5_0/ports/1/state", "4: ACTIVE\n");
  b.file("by-sysfs", "0", k_ib + "mlx5_0/device/net/ens1f0np0/ifindex", "3\n");
  // rdma link: a renamed device and its netdev.
  b.time("by-rdma", "0", 2.0);
  b.command("by-rdma", "0", {"rdma", "link", "show"},
            "link rocep1s0/1 state ACTIVE physical_state LINK_UP netdev eth1\n");
  // ethtool -i: the driver, the only clue to a renamed device's vendor here.
  b.time("by-driver", "0", 3.0);
  b.command("by-driver", "0", {"rdma", "link", "show"},
            "link rocep2s0/1 state ACTIVE physical_state LINK_UP netdev eth2\n");
  b.command("by-driver", "0", {"ethtool", "-i", "eth2"}, "driver: bnxt_en\nversion: 1.10\n");
  // ibv_devinfo: a device nothing else lists, and its vendor by PCI id.
  b.time("by-ibv", "0", 4.0);
  b.command("by-ibv", "0", {"ibv_devinfo"},
            "hca_id:\trocep3s0\n\tvendor_id:\t\t\t0x14e4\n\tphys_port_cnt:\t\t\t1\n"
            "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n");
  // lldpcli: a host without any RDMA device captured; its cabled netdev is its NIC.
  b.time("by-lldp", "0", 5.0);
  b.command("by-lldp", "0", {"lldpcli", "show", "neighbors", "-f", "json"},
            R"({"lldp": {"interface": [{"eth5": {"via": "LLDP", "chassis": {"leaf1": )"
            R"({"id": {"type": "mac", "value": "aa:bb:cc:dd:ee:ff"}}}, "port": {"id": )"
            R"({"type": "ifname", "value": "Ethernet4"}, "descr": "Ethernet4"}}}]}})");
  const Bundle bundle = b.build();
  const Fabric full = load(bundle, std::nullopt);
  const Fabric narrow = load(bundle, k_none_but_inventory);
  ASSERT_TRUE(full.problems.empty()) << full.problems.front().error.describe();
  struct Want {
    std::string host, device, netdev, vendor;
    double at;
  };
  const std::vector<Want> wants = {
      {"by-driver", "rocep2s0", "eth2", "bnxt", 3.0},
      {"by-ibv", "rocep3s0", "", "bnxt", 4.0},
      {"by-lldp", "", "eth5", "unknown", 5.0},
      {"by-rdma", "rocep1s0", "eth1", "unknown", 2.0},
      {"by-sysfs", "mlx5_0", "ens1f0np0", "mlx5", 1.0},
  };
  for (const auto* fabric : {&full, &narrow}) {
    ASSERT_EQ(fabric->hosts.size(), wants.size());
    for (std::size_t h = 0; h < wants.size(); ++h) {
      const Host& host = fabric->hosts[h];
      SCOPED_TRACE(host.name);
      EXPECT_EQ(host.name, wants[h].host);
      EXPECT_EQ(host.captured_at, std::vector<double>{wants[h].at});
      ASSERT_EQ(host.nics.size(), 1u);
      EXPECT_EQ(host.nics[0].device, wants[h].device);
      EXPECT_EQ(host.nics[0].netdev, wants[h].netdev);
      EXPECT_EQ(host.nics[0].vendor, wants[h].vendor);
    }
  }
}

TEST(SourceNames, KnownSourcesAreDistinctAndHoldTheInventory) {
  const auto& known = source::known_sources();
  const std::set<std::string> distinct(known.begin(), known.end());
  EXPECT_EQ(distinct.size(), known.size());
  for (const auto& name : source::inventory_sources()) {
    EXPECT_EQ(distinct.count(name), 1u) << name;
  }
}

TEST(SourceNames, EverySourceALoadRecordsIsKnown) {
  const auto known = every_known_source();
  auto check = [&](const SourceMap& sources, const std::string& who) {
    for (const auto& [name, state] : sources) {
      EXPECT_EQ(known.count(name), 1u) << who << " records unknown source '" << name << "'";
    }
  };
  std::vector<Fabric> fabrics;
  fabrics.push_back(load(troubled_capture(), std::nullopt));
  for (const auto& path : capture_paths()) {
    auto bundle = open_bundle(path);
    ASSERT_TRUE(bundle.ok()) << path;
    fabrics.push_back(load(*bundle, std::nullopt));
  }
  for (const auto& fabric : fabrics) {
    for (const auto& host : fabric.hosts) {
      check(host.sources, host.name);
      for (const auto& nic : host.nics) {
        check(nic.sources, nic.nic_entity());
      }
    }
    for (const auto& sw : fabric.switches) {
      check(sw.sources, sw.name);
    }
    for (const auto& problem : fabric.problems) {
      if (!problem.entity.empty()) {  // bundle-level problems are not a machine's source
        EXPECT_EQ(known.count(problem.source), 1u) << problem.source;
      }
    }
  }
}

}  // namespace
}  // namespace netdoctor::model
