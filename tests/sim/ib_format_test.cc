// InfiniBand bundles: every fabric view parses with the real parsers and nothing left over,
// the host views are the IB ones (no Ethernet tools), and a healthy subnet looks healthy.
#include <gtest/gtest.h>

#include <set>

#include "ib_sim_support.h"
#include "parsers/ibv_devinfo.h"
#include "parsers/ip_address.h"
#include "sim/ib_traffic.h"

namespace netdoctor::sim::testing {
namespace {

struct Shape {
  std::size_t hosts;
  std::size_t nics;
  std::uint64_t seed;
  IbSpeed speed;
};

const Shape k_shapes[] = {{4, 2, 1, IbSpeed::Hdr},
                          {16, 4, 7, IbSpeed::Hdr},
                          {24, 8, 3, IbSpeed::Ndr},
                          {1, 1, 5, IbSpeed::Ndr}};

std::size_t hca_count(const Fabric& fabric) {
  std::size_t count = 0;
  for (const Host& host : fabric.hosts) {
    count += host.nics.size();
  }
  return count;
}

void expect_views_parse(const Bundle& bundle, std::size_t k) {
  const Fabric& fabric = bundle.simulation.fabric;
  auto net = parsers::parse_ibnetdiscover(fabric_file(bundle, k, "ibnetdiscover"));
  ASSERT_TRUE(net.ok()) << net.error().describe();
  EXPECT_TRUE(net.value().unparsed.empty()) << net.value().unparsed.front();
  EXPECT_EQ(net.value().nodes.size(), fabric.switches.size() + hca_count(fabric));
  auto links = parsers::parse_iblinkinfo(fabric_file(bundle, k, "iblinkinfo"));
  ASSERT_TRUE(links.ok()) << links.error().describe();
  EXPECT_TRUE(links.value().unparsed.empty()) << links.value().unparsed.front();
  const std::size_t radix = fabric.switches.front().radix;
  EXPECT_EQ(links.value().links.size(), fabric.switches.size() * radix + hca_count(fabric));
  auto sm = parsers::parse_sminfo(fabric_file(bundle, k, "sminfo"));
  ASSERT_TRUE(sm.ok()) << sm.error().describe();
  EXPECT_TRUE(sm.value().unparsed.empty());
  EXPECT_EQ(sm.value().state, 3u);
  for (const char* name : {"ibswitches", "ibhosts", "ibnodes"}) {
    auto nodes = parsers::parse_ibnodes(fabric_file(bundle, k, name));
    ASSERT_TRUE(nodes.ok()) << name;
    EXPECT_TRUE(nodes.value().unparsed.empty()) << name;
  }
  std::size_t perf_files = 0;
  const std::string dir = "fabric/" + bundle.sample(k) + "/sos_commands/infiniband/perfquery";
  for (const auto& [path, text] : bundle.files) {
    if (path.rfind(dir, 0) != 0) {
      continue;
    }
    ++perf_files;
    auto perf = parsers::parse_perfquery(text);
    ASSERT_TRUE(perf.ok()) << path;
    EXPECT_TRUE(perf.value().unparsed.empty()) << path;
  }
  // -x -l for every switch and HCA, plain -l beside each switch's.
  EXPECT_EQ(perf_files, 2 * fabric.switches.size() + hca_count(fabric));
}

TEST(IbSimFormats, EveryFabricViewParsesWithNothingLeftOver) {
  for (const Shape& shape : k_shapes) {
    SCOPED_TRACE(::testing::Message()
                 << shape.hosts << "x" << shape.nics << " seed " << shape.seed);
    const Bundle bundle = run(ib_config(shape.hosts, shape.nics, {}, shape.seed, shape.speed));
    for (std::size_t k = 0; k < bundle.simulation.fabric.samples; ++k) {
      expect_views_parse(bundle, k);
    }
  }
}

TEST(IbSimFormats, HostsCarryInfiniBandViewsAndNoEthernetOnes) {
  const Bundle bundle = run(ib_config(4, 2, {}, 11, IbSpeed::Ndr));
  const Host& host = bundle.simulation.fabric.hosts[1];
  const std::string dir = "hosts/" + host.name + "/" + bundle.sample(1) + "/";
  for (const auto& [path, text] : bundle.files) {
    EXPECT_EQ(path.find("ethtool"), std::string::npos) << path;
    EXPECT_EQ(path.find("mlnx_qos"), std::string::npos) << path;
    EXPECT_EQ(path.find("lldp"), std::string::npos) << path;
    EXPECT_EQ(path.find("show_gids"), std::string::npos) << path;
    EXPECT_EQ(path.find("/dcb_"), std::string::npos) << path;
    EXPECT_EQ(path.rfind("switches/", 0), std::string::npos) << path;
  }
  const std::string port = dir + "sys/class/infiniband/mlx5_1/ports/1/";
  EXPECT_EQ(bundle.file(port + "link_layer"), "InfiniBand\n");
  EXPECT_EQ(bundle.file(port + "state"), "4: ACTIVE\n");
  EXPECT_EQ(bundle.file(port + "phys_state"), "5: LinkUp\n");
  EXPECT_EQ(bundle.file(port + "rate"), "400 Gb/sec (4X NDR)\n");
  EXPECT_EQ(bundle.file(port + "sm_lid"), "0x1\n");
  EXPECT_EQ(parse_hex(trim(bundle.file(port + "lid"))), host.nics[1].lid);
  auto ip = parsers::parse_ip_address(bundle.file(dir + "sos_commands/networking/ip_-d_address"));
  ASSERT_TRUE(ip.ok());
  const parsers::IpInterface* ipoib = ip.value().find(host.nics[1].netdev);
  ASSERT_NE(ipoib, nullptr);
  EXPECT_EQ(ipoib->link_type, "infiniband");
  EXPECT_EQ(ipoib->mtu, 4092u);
  EXPECT_EQ(ipoib->parent_dev, host.nics[1].pci);
  for (const char* tool : {"ibv_devinfo_-v", "ibstat"}) {
    auto info = parsers::parse_ibv_devinfo(bundle.file(dir + "sos_commands/infiniband/" + tool));
    ASSERT_TRUE(info.ok()) << tool;
    ASSERT_EQ(info.value().devices.size(), 2u);
    const parsers::IbvPort& p = info.value().devices[1].ports.at(0);
    EXPECT_EQ(p.link_layer, "InfiniBand") << tool;
    EXPECT_EQ(p.port_lid, host.nics[1].lid) << tool;
    EXPECT_EQ(p.sm_lid, 1u) << tool;
    EXPECT_EQ(p.rate_gbps, 400.0) << tool;
  }
}

// Healthy: error counters hold still, busy ports wait a fraction of a percent of the time, the
// switch ports nothing is cabled to are Down/Polling with no peer.
TEST(IbSimFormats, HealthySubnetLooksHealthy) {
  std::size_t saturated_waits = 0;
  for (const std::uint64_t seed : {2u, 3u, 4u}) {
    const Bundle bundle = run(ib_config(16, 4, {}, seed));
    const auto lids = switch_lids(bundle);
    FabricCounters counters(bundle);
    for (const Switch& sw : bundle.simulation.fabric.switches) {
      for (int n = 1; n <= static_cast<int>(sw.radix); ++n) {
        const std::uint32_t lid = lids.at(sw.name);
        for (const char* counter : {"SymbolErrorCounter", "LinkErrorRecoveryCounter",
                                    "LinkDownedCounter", "PortRcvErrors", "PortXmitDiscards"}) {
          const double rate = counters.rate(lid, n, counter);
          EXPECT_TRUE(rate == 0.0 || rate == -1.0) << sw.name << "/" << n << " " << counter;
        }
        const double wait = counters.rate(lid, n, "PortXmitWait");
        if (wait < 0) {
          ++saturated_waits;
        }
        EXPECT_LT(wait, 0.01 * xmit_wait_ticks_per_s(200, 4)) << sw.name << "/" << n;
      }
    }
    auto links = parsers::parse_iblinkinfo(fabric_file(bundle, 0, "iblinkinfo"));
    ASSERT_TRUE(links.ok());
    for (const parsers::IbLink& link : links.value().links) {
      if (link.state == "Down") {
        EXPECT_EQ(link.physical_state, "Polling");
        EXPECT_TRUE(link.remote_description.empty());
      } else {
        EXPECT_EQ(link.state, "Active");
        EXPECT_EQ(link.width, "4X");
        EXPECT_TRUE(link.comment.empty()) << link.comment;
      }
    }
  }
  // Switches whose 32-bit PortCounters were never cleared show saturated wait history.
  EXPECT_GT(saturated_waits, 0u);
}

TEST(IbSimFormats, SameSeedSameBytes) {
  const Bundle a = run(ib_config(8, 2, {"link-errors"}, 9));
  const Bundle b = run(ib_config(8, 2, {"link-errors"}, 9));
  EXPECT_EQ(a.files, b.files);
}

}  // namespace
}  // namespace netdoctor::sim::testing
