// `netdoctor collect` (the built binary, by argv) against a simulated InfiniBand subnet: ibsim
// serving a 2-spine, 4-leaf, 16-host HDR fat tree, opensm assigning LIDs, the real
// infiniband-diags reaching it through umad2sim (LD_PRELOAD and IBSIM_SOCKNAME in collect's
// environment, passed on by its CommandRunner). Faults are made the way they happen: counters
// set on ibsim's console, a cable pulled (Unlink), a port's width forced down with ibportstate,
// no subnet manager at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "base/bundle.h"
#include "model/loader.h"
#include "parsers/iblinkinfo.h"
#include "parsers/ibnetdiscover.h"
#include "parsers/perfquery.h"
#include "parsers/sminfo.h"
#include "tests/ibsim/collect_run.h"
#include "tests/support/test_paths.h"

namespace netdoctor::testing {
namespace {
namespace fs = std::filesystem;

using Ports = std::map<std::pair<std::uint32_t, std::string>, parsers::PerfqueryPort>;

std::string sample_dir(const std::string& bundle, const std::string& sample) {
  return fabric_sample_dir(bundle, sample);
}

std::string view(const std::string& bundle, const std::string& sample, const std::string& name) {
  return fabric_view(bundle, sample, name);
}

// Every perfquery file of a sample, parsed and merged: (lid, port) -> counters.
Ports perfquery_ports(const std::string& bundle, const std::string& sample) {
  Ports ports;
  const fs::path dir = sample_dir(bundle, sample) + "/sos_commands/infiniband";
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("perfquery", 0) != 0) {
      continue;
    }
    auto parsed = parsers::parse_perfquery(read_text(entry.path().string()));
    EXPECT_TRUE(parsed.ok()) << name;
    if (!parsed.ok()) {
      continue;
    }
    for (const auto& port : parsed->ports) {
      auto& merged = ports[{port.lid.value_or(0), port.port}];
      merged.lid = port.lid;
      merged.port = port.port;
      for (const auto& counter : port.counters) {
        if (merged.find(counter.name) == nullptr) {
          merged.counters.push_back(counter);
        }
      }
    }
  }
  return ports;
}

std::uint64_t counter(
    const std::map<std::pair<std::uint32_t, std::string>, parsers::PerfqueryPort>& ports,
    std::uint32_t lid, const std::string& port, const std::string& name) {
  const auto it = ports.find({lid, port});
  if (it == ports.end() || it->second.find(name) == nullptr) {
    ADD_FAILURE() << "no " << name << " for LID " << lid << " port " << port;
    return 0;
  }
  return it->second.find(name)->value.value_or(0);
}

parsers::IbLinkInfo links_of(const std::string& bundle, const std::string& sample) {
  auto links = parsers::parse_iblinkinfo(view(bundle, sample, "iblinkinfo"));
  EXPECT_TRUE(links.ok());
  return links.ok() ? *links : parsers::IbLinkInfo{};
}

void expect_views_cover_every_node(const std::string& bundle, const std::string& sample,
                                   const FatTree& shape) {
  SCOPED_TRACE("fabric sample " + sample);
  EXPECT_TRUE(fs::exists(sample_dir(bundle, sample) + "/captured_at"));
  auto topology = parsers::parse_ibnetdiscover(view(bundle, sample, "ibnetdiscover"));
  ASSERT_TRUE(topology.ok());
  ASSERT_EQ(topology->nodes.size(), static_cast<std::size_t>(fat_tree_nodes(shape)));
  EXPECT_TRUE(parsers::parse_ibnetdiscover(view(bundle, sample, "ibnetdiscover_-p")).ok());
  auto sm = parsers::parse_sminfo(view(bundle, sample, "sminfo"));
  ASSERT_TRUE(sm.ok());
  EXPECT_EQ(sm->state, 3u);  // master
  const auto links = links_of(bundle, sample);
  const auto ports = perfquery_ports(bundle, sample);
  for (const auto& node : topology->nodes) {
    SCOPED_TRACE(node.description);
    EXPECT_NE(links.find(node.description, 1), nullptr);  // iblinkinfo names it
    if (node.type == "Switch") {
      ASSERT_TRUE(node.lid.has_value());
      for (int port = 1; port <= shape.switch_ports; ++port) {
        EXPECT_EQ(ports.count({*node.lid, std::to_string(port)}), 1u) << "port " << port;
      }
      // CapMask2 0 in ibsim's extended block: the plain PortCounters were captured beside it.
      counter(ports, *node.lid, "1", "SymbolErrorCounter");
      counter(ports, *node.lid, "1", "PortXmitWait");
    } else {
      ASSERT_FALSE(node.links.empty());
      ASSERT_TRUE(node.links.front().lid.has_value());
      counter(ports, *node.links.front().lid, "1", "PortXmitData");
      counter(ports, *node.links.front().lid, "1", "PortXmitWait");
    }
  }
  EXPECT_NE(view(bundle, sample, "ibswitches").find(leaf_description(shape.leaves)),
            std::string::npos);
  EXPECT_NE(view(bundle, sample, "ibhosts").find(host_description(1)), std::string::npos);
  EXPECT_NE(view(bundle, sample, "ibqueryerrors").find("Summary"), std::string::npos);
}

TEST(IbsimCollect, FabricViewsParseAndCoverEveryNode) {
  SKIP_WITHOUT_IBSIM();
  const FatTree shape;
  IbsimFabric fabric(fat_tree_netfile(shape));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const auto collected = collect(fabric, {"--fabric", "--interval", "0.2"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  for (const char* sample : {"0", "1"}) {  // two samples by default
    expect_views_cover_every_node(collected.bundle, sample, shape);
    const std::string log =
        read_text(sample_dir(collected.bundle, sample) + "/netdoctor_collect.log");
    EXPECT_NE(log.find(" 0 failed commands"), std::string::npos) << log;
  }
  EXPECT_NE(collected.run.err.find("fabric sample 1: 7 views, 22 nodes"), std::string::npos)
      << collected.run.err;
}

TEST(IbsimCollect, CountersRaisedBetweenSamplesShowInTheSecond) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const unsigned leaf = fabric.lid_of(leaf_description(2));
  const unsigned host = fabric.lid_of(host_description(5));
  ASSERT_GT(leaf, 0u);
  ASSERT_GT(host, 0u);
  // Sample 1 starts 6 s after sample 0: room to raise the counters once sample 0 is complete.
  const auto collected = collect_with_change(fabric, 6, [&] {
    const std::string leaf_port = "\"" + leaf_description(2) + "\"[3] PortCounters.";
    fabric.console("PerformanceSet " + leaf_port + "SymbolErrorCounter=4321");
    fabric.console("PerformanceSet " + leaf_port + "PortXmitWait=98765");
    fabric.console("PerformanceSet \"" + host_description(5) +
                   "\"[1] PortCounters.PortXmitWait=555");
  });
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const std::string& bundle = collected.bundle;

  const auto before = perfquery_ports(bundle, "0");
  const auto after = perfquery_ports(bundle, "1");
  EXPECT_EQ(counter(before, leaf, "3", "SymbolErrorCounter"), 0u);
  EXPECT_EQ(counter(after, leaf, "3", "SymbolErrorCounter"), 4321u);
  EXPECT_LT(counter(before, leaf, "3", "PortXmitWait"), 98765u);
  EXPECT_EQ(counter(after, leaf, "3", "PortXmitWait"), 98765u);
  EXPECT_EQ(counter(after, leaf, "2", "SymbolErrorCounter"), 0u);  // only the port it was set on
  EXPECT_EQ(counter(after, host, "1", "PortXmitWait"), 555u);
  // The model's loader reads both samples into the named switch's port.
  auto opened = open_bundle(bundle);
  ASSERT_TRUE(opened.ok()) << opened.error().describe();
  auto loaded = model::load_fabric(*opened);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  EXPECT_EQ(loaded->ib.nodes.size(), static_cast<std::size_t>(fat_tree_nodes(FatTree{})));
  EXPECT_EQ(loaded->ib.samples.size(), 2u);
  const auto* switch_node = loaded->ib.find_switch("leaf-02");
  ASSERT_NE(switch_node, nullptr);
  const auto* port = switch_node->find_port(3);
  ASSERT_NE(port, nullptr);
  ASSERT_EQ(port->samples.size(), 2u);
  EXPECT_EQ(port->samples[1].get({"ib_symbol_errors"}), 4321.0);
  EXPECT_EQ(port->samples[1].get({"ib_xmit_wait"}), 98765.0);
  EXPECT_NE(loaded->ib.find_ca("node05", "mlx5_0"), nullptr);
  // The second sample's file of that switch names it, as the loader will read it.
  EXPECT_NE(view(bundle, "1", "perfquery_-l_" + std::to_string(leaf) + "_255")
                .find("SymbolErrorCounter:..............4321"),
            std::string::npos);
}

TEST(IbsimCollect, UnlinkedPortShowsDownPollingInIblinkinfo) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  fabric.console("Unlink \"" + leaf_description(3) + "\"[3]");
  const auto collected = collect(fabric, {"--fabric", "--samples", "1"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto links = links_of(collected.bundle, "0");
  const auto* pulled = links.find(leaf_description(3), 3);
  ASSERT_NE(pulled, nullptr);
  EXPECT_EQ(pulled->state, "Down");
  EXPECT_EQ(pulled->physical_state, "Polling");
  EXPECT_EQ(pulled->remote_description, "");
  const auto* neighbour = links.find(leaf_description(3), 2);
  ASSERT_NE(neighbour, nullptr);
  EXPECT_EQ(neighbour->state, "Active");
  // The host behind the pulled cable is gone from the subnet's view.
  EXPECT_EQ(view(collected.bundle, "0", "ibnetdiscover").find(host_description(11)),
            std::string::npos);
}

TEST(IbsimCollect, WidthForcedDownShowsInIblinkinfo) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  ASSERT_TRUE(fabric.start_opensm());
  const unsigned leaf = fabric.lid_of(leaf_description(2));
  ASSERT_GT(leaf, 0u);
  const auto forced = fabric.run({"ibportstate", std::to_string(leaf), "3", "width", "1"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  const auto collected = collect(fabric, {"--fabric", "--samples", "1"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  const auto links = links_of(collected.bundle, "0");
  const auto* narrowed = links.find(leaf_description(2), 3);
  ASSERT_NE(narrowed, nullptr);
  EXPECT_EQ(narrowed->width, "1X");
  EXPECT_EQ(narrowed->state, "Active");
  ASSERT_TRUE(narrowed->speed_gbps.has_value());
  EXPECT_DOUBLE_EQ(*narrowed->speed_gbps, 53.125);  // HDR per lane, as cabled
  const auto* other = links.find(leaf_description(2), 2);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->width, "4X");
  // The HCA end trained to the same width.
  const auto* host_end = links.find(host_description(7), 1);
  ASSERT_NE(host_end, nullptr);
  EXPECT_EQ(host_end->width, "1X");
}

TEST(IbsimCollect, WithoutASubnetManagerSminfoFailsAndCollectCompletes) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{}));
  ASSERT_TRUE(fabric.ok());
  // No --fabric: the host's InfiniBand port in sysfs turns the fabric views on.
  const std::string root = fabric.dir() + "/root";
  const std::string port = root + "/sys/class/infiniband/mlx5_0/ports/1";
  fs::create_directories(port);
  std::ofstream(port + "/link_layer") << "InfiniBand\n";
  std::ofstream(port + "/state") << "2: INIT\n";
  const auto collected = collect(fabric, {"--samples", "1"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  // Directed-route discovery needs no SM: the topology is there, every port short of Active.
  auto topology = parsers::parse_ibnetdiscover(view(collected.bundle, "0", "ibnetdiscover"));
  ASSERT_TRUE(topology.ok());
  EXPECT_EQ(topology->nodes.size(), static_cast<std::size_t>(fat_tree_nodes(FatTree{})));
  // sminfo's failure is the observation (no SM answered): kept as it printed.
  const std::string sminfo = sample_dir(collected.bundle, "0") + "/sos_commands/infiniband/sminfo";
  ASSERT_TRUE(fs::exists(sminfo));
  EXPECT_NE(read_text(sminfo).find("sminfo: iberror: failed: query"), std::string::npos)
      << read_text(sminfo);
  const std::string log = read_text(sample_dir(collected.bundle, "0") + "/netdoctor_collect.log");
  EXPECT_NE(log.find("'sminfo' failed (exit 255, its output kept)"), std::string::npos) << log;
  EXPECT_NE(log.find("22 of 22 nodes have no LID"), std::string::npos) << log;
  // Every view written has content: an empty one (ibqueryerrors here) is noted instead.
  for (const auto& entry :
       fs::directory_iterator(sample_dir(collected.bundle, "0") + "/sos_commands/infiniband")) {
    EXPECT_GT(fs::file_size(entry.path()), 0u) << entry.path();
  }
  EXPECT_NE(collected.run.err.find("fabric sample 0: 'sminfo' failed"), std::string::npos)
      << collected.run.err;
  for (const auto& link : links_of(collected.bundle, "0").links) {
    EXPECT_NE(link.state, "Active") << link.node_description << " " << link.port.value_or(0);
  }
}

TEST(IbsimCollect, NoFabricFlagSkipsTheViews) {
  SKIP_WITHOUT_IBSIM();
  IbsimFabric fabric(fat_tree_netfile(FatTree{1, 1, 2}));
  ASSERT_TRUE(fabric.ok());
  const std::string port = fabric.dir() + "/root/sys/class/infiniband/mlx5_0/ports/1";
  fs::create_directories(port);
  std::ofstream(port + "/link_layer") << "InfiniBand\n";
  const auto collected = collect(fabric, {"--no-fabric", "--samples", "1"});
  ASSERT_EQ(collected.run.exit_code, 0) << collected.run.err;
  EXPECT_TRUE(fs::exists(collected.bundle + "/hosts/h1/0/captured_at"));
  EXPECT_FALSE(fs::exists(collected.bundle + "/fabric"));
}

}  // namespace
}  // namespace netdoctor::testing
