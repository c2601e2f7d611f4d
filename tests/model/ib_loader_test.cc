// The InfiniBand fabric views of a bundle loaded into Fabric::ib (model/ib_loader.h): the ibsim
// captures of tests/fixtures/ib (topology in ibsim_net.nd: "leaf-1 Quantum" and "spine-1",
// HCAs "node0N mlx5_0") as two fabric samples, and the real outputs of shared/reference/ib.
#include "model/ib_loader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/loader.h"
#include "model/source_names.h"
#include "tests/model/load_mem_bundle.h"
#include "tests/model/mem_bundle.h"
#include "tests/parsers/parser_test_util.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::ib_fixture;
using testing::MemBundle;

constexpr double k_t0 = 1000.0;
constexpr double k_t1 = 1030.0;
constexpr std::uint64_t k_leaf_xmit_data = 4464;  // ibsim_perfquery_x.txt, Lid 1 port 3
constexpr std::uint64_t k_more_words = 2500;      // what sample 1 adds

std::string reference(const std::string& name) {
  return testing::read_text(testing::reference_file("ib/" + name));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Two samples of the ibsim fabric. Sample 0 reads leaf port 3 (-x and plain) and node01's
// port (-x); sample 1 reads leaf port 3 with PortXmitData grown by k_more_words, but not node01,
// whose PortXmitWait then comes from ibqueryerrors.
MemBundle ibsim_bundle() {
  MemBundle b;
  for (const std::string sample : {"s0", "s1"}) {
    b.fabric_time(sample, sample == "s0" ? k_t0 : k_t1);
    b.fabric_command(sample, {"ibnetdiscover"}, ib_fixture("ibsim_ibnetdiscover.txt"));
    b.fabric_command(sample, {"ibnetdiscover", "-p"}, ib_fixture("ibsim_ibnetdiscover_p.txt"));
    b.fabric_command(sample, {"iblinkinfo"}, ib_fixture("ibsim_iblinkinfo.txt"));
    b.fabric_command(sample, {"ibnodes"}, ib_fixture("ibsim_ibnodes.txt"));
    b.fabric_command(sample, {"sminfo"}, ib_fixture("ibsim_sminfo.txt"));
    b.fabric_command(sample, {"ibqueryerrors"}, ib_fixture("ibsim_ibqueryerrors.txt"));
    b.fabric_command(sample, {"perfquery", "1", "3"}, ib_fixture("ibsim_perfquery.txt"));
  }
  b.fabric_command("s0", {"perfquery", "-x", "1", "3"}, ib_fixture("ibsim_perfquery_x.txt"));
  b.fabric_command("s0", {"perfquery", "-x", "2", "1"}, ib_fixture("ibsim_perfquery_x_ca.txt"));
  b.fabric_command(
      "s1", {"perfquery", "-x", "1", "3"},
      replaced(
          ib_fixture("ibsim_perfquery_x.txt"), "PortXmitData:....................4464",
          "PortXmitData:...................." + std::to_string(k_leaf_xmit_data + k_more_words)));
  return b;
}

const IbNode& node_named(const IbFabric& ib, const std::string& name) {
  for (const auto& node : ib.nodes) {
    if (node.name == name) {
      return node;
    }
  }
  throw std::runtime_error("no node " + name);
}

const IbPort& port_of(const IbNode& node, std::uint32_t number) {
  const IbPort* port = node.find_port(number);
  if (port == nullptr) {
    throw std::runtime_error(node.name + " has no port " + std::to_string(number));
  }
  return *port;
}

std::string problems_of(const Fabric& fabric) {
  std::string all;
  for (const auto& problem : fabric.problems) {
    all += problem.source + ": " + problem.error.describe() + "\n";
  }
  return all;
}

TEST(IbLoader, IbsimNodesAreOneEachNamedAndSortedSwitchesFirst) {
  const Fabric fabric = testing::load_mem_bundle(ibsim_bundle());
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbFabric& ib = fabric.ib;
  ASSERT_EQ(ib.nodes.size(), 5u);  // ibsim_net.nd: 2 switches, 3 HCAs, in five views each
  std::vector<std::string> names;
  for (const auto& node : ib.nodes) {
    names.push_back(node.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"leaf-1 Quantum", "spine-1", "node01/mlx5_0",
                                             "node02/mlx5_0", "node03/mlx5_0"}));
  const IbNode& leaf = node_named(ib, "leaf-1 Quantum");
  EXPECT_EQ(leaf.kind, IbNodeKind::Switch);
  EXPECT_EQ(leaf.guid, 0x200000u);
  EXPECT_EQ(leaf.lid, 1u);
  EXPECT_EQ(leaf.port_count, 8u);
  EXPECT_EQ(leaf.ports.size(), 8u);  // iblinkinfo lists the down ports too
  const IbNode& node01 = node_named(ib, "node01/mlx5_0");
  EXPECT_EQ(node01.guid, 0x100000u);  // caguid, not the port GUID iblinkinfo and -p print
  EXPECT_EQ(node01.host, "node01");
  EXPECT_EQ(node01.device, "mlx5_0");
  EXPECT_EQ(node01.entity(), "nic:node01/mlx5_0");
  ASSERT_EQ(node01.ports.size(), 1u);
  EXPECT_EQ(node01.ports[0].guid, 0x100001u);
  EXPECT_EQ(node01.ports[0].lid, 2u);
  EXPECT_EQ(ib.find_node(0x100006)->name, "node03/mlx5_0");
  EXPECT_EQ(ib.find_switch("spine-1")->lid, 3u);
  for (const auto& view : {source::k_ibnetdiscover, source::k_iblinkinfo, source::k_ibnodes}) {
    EXPECT_EQ(node01.sources.at(view).availability, Availability::Observed) << view;
    EXPECT_EQ(ib.sources.at(view).availability, Availability::Observed) << view;
  }
}

TEST(IbLoader, CablingRunsBothWaysAndDownPortsAreNotCabled) {
  const IbFabric ib = testing::load_mem_bundle(ibsim_bundle()).ib;
  const IbNode& leaf = node_named(ib, "leaf-1 Quantum");
  const IbNode& spine = node_named(ib, "spine-1");
  const IbNode& node01 = node_named(ib, "node01/mlx5_0");
  const IbNode& node03 = node_named(ib, "node03/mlx5_0");
  EXPECT_EQ(port_of(leaf, 1).peer_guid, node01.guid);
  EXPECT_EQ(port_of(leaf, 1).peer_port, 1u);
  EXPECT_EQ(port_of(node01, 1).peer_guid, leaf.guid);
  EXPECT_EQ(port_of(node01, 1).peer_port, 1u);
  EXPECT_EQ(port_of(leaf, 5).peer_guid, spine.guid);
  EXPECT_EQ(port_of(spine, 5).peer_guid, leaf.guid);
  EXPECT_EQ(port_of(spine, 1).peer_guid, node03.guid);
  EXPECT_EQ(ib.peer_of(port_of(node03, 1)), &spine);
  for (const auto& node : ib.nodes) {
    for (const auto& port : node.ports) {
      if (!port.cabled()) {
        continue;
      }
      const IbNode* peer = ib.peer_of(port);
      ASSERT_NE(peer, nullptr) << node.name << " " << port.number;
      const IbPort& back = port_of(*peer, *port.peer_port);
      EXPECT_EQ(back.peer_guid, node.guid) << node.name << " " << port.number;
      EXPECT_EQ(back.peer_port, port.number) << node.name << " " << port.number;
    }
  }
  const IbPort& down = port_of(leaf, 4);
  EXPECT_FALSE(down.cabled());
  EXPECT_EQ(down.state, RdmaPortState::Down);
  EXPECT_EQ(down.phys, PhysState::Polling);
  EXPECT_FALSE(down.width);
  EXPECT_FALSE(down.is_up());
}

TEST(IbLoader, WidthSpeedAndWhatThePortCouldDo) {
  const IbFabric ib = testing::load_mem_bundle(ibsim_bundle()).ib;
  const IbPort& port = port_of(node_named(ib, "leaf-1 Quantum"), 3);
  EXPECT_EQ(port.state, RdmaPortState::Active);
  EXPECT_EQ(port.phys, PhysState::LinkUp);
  EXPECT_EQ(port.width, 4);
  EXPECT_EQ(port.speed, "SDR");
  EXPECT_DOUBLE_EQ(*port.lane_gbps, 2.5);
  EXPECT_DOUBLE_EQ(*port.data_gbps, 8.0);  // 4 lanes x 2 Gb/s after 8b/10b
  EXPECT_EQ(port.supported_width, 12);     // "Could be 12X Could be 10.0 Gbps"
  EXPECT_EQ(port.supported_speed, "QDR");
  EXPECT_DOUBLE_EQ(*port.supported_data_gbps, 96.0);
  EXPECT_EQ(port.lid, 1u);  // a switch port answers at the switch's LID
}

TEST(IbLoader, CountersAndRatesOverTwoSamples) {
  const Fabric fabric = testing::load_mem_bundle(ibsim_bundle());
  const IbFabric& ib = fabric.ib;
  ASSERT_EQ(ib.samples.size(), 2u);
  EXPECT_EQ(ib.captured_at(), (std::vector<double>{k_t0, k_t1}));
  const IbPort& port = port_of(node_named(ib, "leaf-1 Quantum"), 3);
  ASSERT_EQ(port.samples.size(), 2u);
  const MetricKey tx{"ib_tx_bytes", -1};
  // The -x block's 64-bit PortXmitData wins over the plain block's saturated 32-bit one.
  EXPECT_EQ(port.samples[0].get(tx), 4.0 * k_leaf_xmit_data);
  EXPECT_EQ(port.samples[1].get(tx), 4.0 * (k_leaf_xmit_data + k_more_words));
  EXPECT_EQ(port.saturated.count("ib_tx_bytes"), 0u);
  const Rate rate = rate_of(port.samples, tx);
  ASSERT_TRUE(rate.ok()) << to_string(rate.status);
  EXPECT_DOUBLE_EQ(rate.per_second, 4.0 * k_more_words / (k_t1 - k_t0));
  EXPECT_EQ(port.samples[0].get({"ib_rx_bytes", -1}), 4.0 * 4680);
  // Only the plain block has the error counters (ibsim's CapMask2 is 0).
  EXPECT_EQ(port.samples[0].get({"ib_link_downed", -1}), 7.0);
  EXPECT_EQ(port.samples[0].get({"ib_xmit_discards", -1}), 1234.0);
  EXPECT_EQ(port.samples[0].get({"ib_rcv_errors", -1}), 12.0);
  EXPECT_EQ(ib.sources.at(source::k_perfquery).availability, Availability::Observed);
}

TEST(IbLoader, SaturatedCountersAreRecordedNotCounted) {
  const IbFabric ib = testing::load_mem_bundle(ibsim_bundle()).ib;
  const IbPort& leaf3 = port_of(node_named(ib, "leaf-1 Quantum"), 3);
  // PortXmitWait 4294967295 and SymbolErrorCounter 65535 in the plain PortCounters block.
  EXPECT_EQ(leaf3.saturated.at("ib_xmit_wait"), 0u);
  EXPECT_EQ(leaf3.saturated.at("ib_symbol_errors"), 0u);
  for (const auto& sample : leaf3.samples) {
    EXPECT_FALSE(sample.get({"ib_xmit_wait", -1}));
    EXPECT_FALSE(sample.get({"ib_symbol_errors", -1}));
  }
  // node01: perfquery -x read it in sample 0 (no PortXmitWait there: ibqueryerrors does not
  // stand in); in sample 1 only ibqueryerrors names it, PortXmitWait == 4294967295.
  const IbPort& node01 = port_of(node_named(ib, "node01/mlx5_0"), 1);
  EXPECT_EQ(node01.samples[0].get({"ib_tx_bytes", -1}), 4.0 * 3024);
  EXPECT_FALSE(node01.samples[1].get({"ib_tx_bytes", -1}));
  EXPECT_EQ(node01.saturated.at("ib_xmit_wait"), 1u);
  // A port nothing read holds empty samples, not zeros.
  const IbPort& node02 = port_of(node_named(ib, "node02/mlx5_0"), 1);
  ASSERT_EQ(node02.samples.size(), 2u);
  EXPECT_TRUE(node02.samples[0].values.empty());
  EXPECT_TRUE(node02.saturated.empty());
}

TEST(IbLoader, SubnetManagerPerSample) {
  MemBundle b = ibsim_bundle();
  b.fabric_command("s1", {"sminfo"},
                   "ibwarn: [1234] mad_rpc: _do_madrpc failed; dport (Lid 1)\n"
                   "sminfo: iberror: failed: query\n");
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbFabric& ib = fabric.ib;
  ASSERT_EQ(ib.samples.size(), 2u);
  EXPECT_TRUE(ib.samples[0].sm_answered);
  ASSERT_EQ(ib.samples[0].managers.size(), 1u);
  const IbSubnetManager& sm = ib.samples[0].managers[0];
  EXPECT_EQ(sm.guid, 0x200000u);
  EXPECT_EQ(sm.lid, 1u);
  EXPECT_EQ(sm.state, 3u);
  EXPECT_EQ(sm.activity_count, 101u);
  EXPECT_EQ(sm.source, source::k_sminfo);
  EXPECT_FALSE(ib.samples[1].sm_answered);  // the query failed: no SM answered
  EXPECT_TRUE(ib.samples[1].managers.empty());
  EXPECT_TRUE(ib.samples[0].sm_queried);
  EXPECT_TRUE(ib.samples[1].sm_queried);  // it asked: "no SM" is an observation
}

// A garbled sminfo file is a problem naming it, and its sample did not ask for the SM: the
// other sample's master stands, and nothing reads the garbled one as "no SM".
TEST(IbLoader, GarbledSminfoIsAProblemAndItsSampleSaysNothingOfTheSm) {
  MemBundle b = ibsim_bundle();
  b.fabric_command("s1", {"sminfo"}, "\x1b[31m 0xdeadbeef garbage\n");
  const Fabric fabric = testing::load_mem_bundle(b);
  ASSERT_EQ(fabric.problems.size(), 1u) << problems_of(fabric);
  EXPECT_NE(problems_of(fabric).find("sminfo"), std::string::npos) << problems_of(fabric);
  ASSERT_EQ(fabric.ib.samples.size(), 2u);
  EXPECT_TRUE(fabric.ib.samples[0].sm_queried);
  EXPECT_FALSE(fabric.ib.samples[1].sm_queried);
  EXPECT_FALSE(fabric.ib.samples[1].sm_answered);
}

TEST(IbLoader, AbsentSminfoIsAbsentNotNoSm) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibnetdiscover"}, ib_fixture("ibsim_ibnetdiscover.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  ASSERT_EQ(fabric.ib.samples.size(), 1u);
  EXPECT_FALSE(fabric.ib.samples[0].sm_answered);
  EXPECT_FALSE(fabric.ib.samples[0].sm_queried);
  EXPECT_EQ(fabric.ib.sources.at(source::k_sminfo).availability, Availability::Absent);
  EXPECT_EQ(fabric.ib.sources.at(source::k_perfquery).availability, Availability::Absent);
  EXPECT_EQ(fabric.ib.nodes.size(), 5u);
}

TEST(IbLoader, GarbagePerfqueryFileIsAProblemNamingItAndTheRestLoads) {
  MemBundle b = ibsim_bundle();
  b.fabric_command("s0", {"perfquery", "-x", "9", "1"}, "\x01\x02 not perfquery at all\n");
  const Fabric fabric = testing::load_mem_bundle(b);
  ASSERT_EQ(fabric.problems.size(), 1u) << problems_of(fabric);
  EXPECT_EQ(fabric.problems[0].source, source::k_perfquery);
  EXPECT_NE(fabric.problems[0].error.describe().find("perfquery_-x_9_1"), std::string::npos)
      << fabric.problems[0].error.describe();
  EXPECT_EQ(fabric.ib.sources.at(source::k_perfquery).availability, Availability::Malformed);
  const IbPort& port = port_of(node_named(fabric.ib, "leaf-1 Quantum"), 3);
  EXPECT_EQ(port.samples[0].get({"ib_tx_bytes", -1}), 4.0 * k_leaf_xmit_data);
  EXPECT_EQ(fabric.ib.nodes.size(), 5u);
}

TEST(IbLoader, FabricOnlyBundleOpensAndLoads) {
  MemBundle b = ibsim_bundle();
  auto bundle = open_bundle_tree(std::shared_ptr<const FileTree>(b.build().tree), "fabric-only");
  ASSERT_TRUE(bundle.ok()) << bundle.error().describe();
  EXPECT_TRUE(bundle->hosts.empty());
  ASSERT_EQ(bundle->fabric_samples.size(), 2u);
  auto fabric = load_fabric(*bundle);
  ASSERT_TRUE(fabric.ok());
  EXPECT_EQ(fabric->ib.nodes.size(), 5u);
  EXPECT_EQ(fabric->ib.samples.size(), 2u);
}

TEST(IbLoader, WithheldViewsAreNotRead) {
  LoadOptions options;
  options.only_sources = std::set<std::string>{source::k_ibnetdiscover};
  auto fabric = load_fabric(ibsim_bundle().build(), options);
  ASSERT_TRUE(fabric.ok());
  const IbFabric& ib = fabric->ib;
  EXPECT_EQ(ib.nodes.size(), 5u);
  EXPECT_EQ(ib.sources.at(source::k_perfquery).detail, k_withheld);
  EXPECT_EQ(ib.sources.at(source::k_iblinkinfo).detail, k_withheld);
  EXPECT_EQ(ib.sources.at(source::k_sminfo).detail, k_withheld);
  EXPECT_FALSE(ib.samples[0].sm_answered);
  EXPECT_TRUE(port_of(node_named(ib, "leaf-1 Quantum"), 3).samples[0].values.empty());
  // Without iblinkinfo no port state but that a cabled link trained.
  EXPECT_EQ(port_of(node_named(ib, "leaf-1 Quantum"), 3).phys, PhysState::LinkUp);
  EXPECT_EQ(port_of(node_named(ib, "leaf-1 Quantum"), 3).state, RdmaPortState::Unknown);
  EXPECT_EQ(port_of(node_named(ib, "leaf-1 Quantum"), 4).phys, PhysState::Unknown);
  EXPECT_FALSE(port_of(node_named(ib, "leaf-1 Quantum"), 4).cabled());
}

// A real 8-switch SX6036 fabric (2014): 144 mlx4 HCAs at 4xQDR, inter-switch links at 4xFDR10.
TEST(IbLoader, RealSx6036FabricFromIbnetdiscover) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibnetdiscover"},
                   reference("ibnetdiscover_sx6036_fdr10_qdr_8switch_144ca_2014.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbFabric& ib = fabric.ib;
  std::size_t switches = 0;
  for (const auto& node : ib.nodes) {
    switches += node.kind == IbNodeKind::Switch ? 1 : 0;
  }
  EXPECT_EQ(switches, 8u);
  EXPECT_EQ(ib.nodes.size() - switches, 144u);
  for (std::size_t i = 0; i < switches; ++i) {
    EXPECT_EQ(ib.nodes[i].kind, IbNodeKind::Switch) << "switches come first";
  }
  const IbNode* ib5 = ib.find_switch("ib5");  // "MF0;ib5:SX6036/U1"
  ASSERT_NE(ib5, nullptr);
  EXPECT_EQ(ib5->model, "SX6036");
  EXPECT_EQ(ib5->guid, 0xf4521403001165a0u);
  EXPECT_EQ(ib5->lid, 128u);
  EXPECT_EQ(ib5->entity(), "switch:ib5");
  EXPECT_EQ(ib5->port_entity(21), "port:ib5/21");
  const IbPort& isl = port_of(*ib5, 21);  // to "MF0;ib8:SX6036/U1" port 26 at 4xFDR10
  EXPECT_EQ(isl.speed, "FDR10");
  EXPECT_DOUBLE_EQ(*isl.data_gbps, 40.0);
  EXPECT_EQ(ib.peer_of(isl)->name, "ib8");
  EXPECT_EQ(port_of(*ib.peer_of(isl), 26).peer_guid, ib5->guid);
  const IbPort& hca = port_of(*ib5, 1);
  EXPECT_EQ(hca.speed, "QDR");
  EXPECT_DOUBLE_EQ(*hca.data_gbps, 32.0);
  const IbNode* stage114 = ib.find_ca("stage114", "mlx4_0");
  ASSERT_NE(stage114, nullptr);
  EXPECT_EQ(stage114->guid, 0x24be05ffff980030u);
  EXPECT_EQ(port_of(*stage114, 1).guid, 0x24be05ffff980031u);
  EXPECT_EQ(port_of(*stage114, 1).lid, 105u);
  EXPECT_EQ(ib.peer_of(port_of(*stage114, 1)), ib5);
  std::size_t cabled = 0;
  for (const auto& node : ib.nodes) {
    for (const auto& port : node.ports) {
      if (const IbNode* peer = ib.peer_of(port)) {
        ++cabled;
        EXPECT_EQ(port_of(*peer, *port.peer_port).peer_guid, node.guid) << node.name;
      }
    }
  }
  EXPECT_GT(cabled, 2 * 144u);
}

// iblinkinfo alone (a Quantum HDR switch, 20 hosts, a SHARP Aggregation Node): HCAs known by
// their port GUID, cabled to the switch through its LID.
TEST(IbLoader, RealQuantumIblinkinfoAlone) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"iblinkinfo"},
                   reference("iblinkinfo_hdr_quantum_20hosts_sharp_aggnode.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbFabric& ib = fabric.ib;
  ASSERT_FALSE(ib.nodes.empty());
  const IbNode& quantum = ib.nodes.front();
  EXPECT_EQ(quantum.kind, IbNodeKind::Switch);
  EXPECT_EQ(quantum.name, "Quantum Mellanox Technologies");  // the only switch: unique
  EXPECT_EQ(quantum.lid, 3u);
  const IbNode* cu01 = ib.find_ca("cu01", "HCA-1");
  ASSERT_NE(cu01, nullptr);
  const IbPort& port = port_of(*cu01, 1);
  EXPECT_EQ(port.guid, 0xb8cef60300025b8cu);
  EXPECT_EQ(port.speed, "HDR");
  EXPECT_DOUBLE_EQ(*port.lane_gbps, 53.125);
  EXPECT_DOUBLE_EQ(*port.data_gbps, 200.0);
  EXPECT_EQ(ib.peer_of(port), &quantum);
  EXPECT_EQ(port.peer_port, 40u);
  EXPECT_EQ(port_of(quantum, 40).peer_guid, cu01->guid);
  // "Mellanox Technologies Aggregation Node" is no "<host> <dev>": named by GUID.
  bool aggregation_node = false;
  for (const auto& node : ib.nodes) {
    if (node.description == "Mellanox Technologies Aggregation Node") {
      aggregation_node = true;
      EXPECT_EQ(node.name, "0x0c42a103008982ac");
      EXPECT_TRUE(node.host.empty());
    }
  }
  EXPECT_TRUE(aggregation_node);
}

// Two switches named alike ("Quantum Mellanox Technologies", the factory description) are
// each named by GUID; "MF0;d32-03-1:MQM8700/U1" is d32-03-1, model MQM8700.
TEST(IbLoader, NamesTwoNodesWouldShareBecomeGuids) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibswitches"}, reference("ibswitches_ibhosts_hdr_two_switches_31cas.txt"));
  b.fabric_command("0", {"iblinkinfo"},
                   reference("iblinkinfo_hdr_quantum_20hosts_sharp_aggnode.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  const IbFabric& ib = fabric.ib;
  const IbNode* named = ib.find_switch("d32-03-1");
  ASSERT_NE(named, nullptr);
  EXPECT_EQ(named->model, "MQM8700");
  EXPECT_EQ(named->lid, 4u);
  EXPECT_EQ(ib.find_switch("Quantum Mellanox Technologies"), nullptr);
  ASSERT_NE(ib.find_node(0x08c0eb0300add04e), nullptr);
  EXPECT_EQ(ib.find_node(0x08c0eb0300add04e)->name, "0x08c0eb0300add04e");
  EXPECT_EQ(ib.find_node(0x0c42a103008982a4)->name, "0x0c42a103008982a4");
  EXPECT_EQ(ib.find_node(0x0c42a103008982a4)->entity(), "switch:0x0c42a103008982a4");
  EXPECT_NE(ib.find_ca("node1", "HCA-2"), nullptr);
}

// ibqueryerrors of a real SX6036 fabric (mail-quoted): 32-bit PortXmitWait at 4294967295 and
// 16-bit SymbolErrorCounter at 65535 are saturated, recorded as such and never counted.
TEST(IbLoader, IbqueryerrorsSaturatedCountersAreNotValues) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibqueryerrors"},
                   reference("ibqueryerrors_sx6036_saturated_xmitwait_emailquoted.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbNode* sw = fabric.ib.find_switch("ys23ib4");  // "MF0;ys23ib4:SX6036/U1"
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(sw->guid, 0x2c903006e29b0u);
  const IbPort& p1 = port_of(*sw, 1);
  EXPECT_EQ(p1.saturated.at("ib_xmit_wait"), 0u);
  EXPECT_FALSE(p1.samples[0].get({"ib_xmit_wait", -1}));
  EXPECT_EQ(p1.samples[0].get({"ib_link_downed", -1}), 8.0);
  const IbPort& p5 = port_of(*sw, 5);
  EXPECT_EQ(p5.saturated.at("ib_symbol_errors"), 0u);
  EXPECT_FALSE(p5.samples[0].get({"ib_symbol_errors", -1}));
  EXPECT_EQ(p5.samples[0].get({"ib_xmit_wait", -1}), 84704351.0);
  EXPECT_EQ(p5.samples[0].get({"ib_xmit_discards", -1}), 649.0);
  EXPECT_EQ(p5.saturated.count("ib_xmit_wait"), 0u);
  EXPECT_EQ(sw->find_port(0), nullptr);  // port 0 and "port ALL" are no cable's
}

// perfquery -x -l of a real EDR switch (CapMask2 0x2: error counters in the extended block).
TEST(IbLoader, RealPerfqueryEveryPortOfOneSwitch) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibswitches"},
                   "Switch\t: 0x7cfe9003009ce5b0 ports 36 \"MF0;edr-1:SB7800/U1\" enhanced port 0 "
                   "lid 1719 lmc 0\n");
  b.fabric_command("0", {"perfquery", "-x", "-l", "1719"},
                   reference("perfquery_x_edr_switch_lid1719_2ports_fixture.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbNode* sw = fabric.ib.find_switch("edr-1");
  ASSERT_NE(sw, nullptr);
  const IbPort& p1 = port_of(*sw, 1);
  EXPECT_EQ(p1.samples[0].get({"ib_tx_bytes", -1}), 4.0 * 36298026860928.0);
  EXPECT_EQ(p1.samples[0].get({"ib_rx_packets", -1}), 32262508468.0);
  EXPECT_EQ(p1.samples[0].get({"ib_xmit_wait", -1}), 22730501.0);
  EXPECT_EQ(p1.samples[0].get({"ib_symbol_errors", -1}), 0.0);
  EXPECT_EQ(port_of(*sw, 2).samples[0].get({"ib_xmit_wait", -1}), 36510964.0);
  EXPECT_TRUE(p1.saturated.empty());
  EXPECT_EQ(sw->sources.at(source::k_perfquery).availability, Availability::Observed);
}

// The HCA node of a loaded host takes its firmware, and the SM LID its port knows (sysfs) is
// one more view of the subnet manager.
TEST(IbLoader, HcasJoinTheirHosts) {
  MemBundle b = ibsim_bundle();
  const std::string ib = "/sys/class/infiniband/mlx5_0/";
  for (const std::string sample : {"0", "1"}) {
    b.time("node01", sample, sample == "0" ? k_t0 + 1 : k_t1 + 1);
    b.file("node01", sample, ib + "fw_ver", "20.30.1004\n");
    b.file("node01", sample, ib + "ports/1/state", "4: ACTIVE\n");
    b.file("node01", sample, ib + "ports/1/link_layer", "InfiniBand\n");
    b.file("node01", sample, ib + "ports/1/lid", "0x2\n");
    b.file("node01", sample, ib + "ports/1/sm_lid", "0x1\n");
    b.command("node01", sample, {"ibv_devinfo", "-v"},
              testing::parser_fixture("scenario_ibv_devinfo_-v.txt"));  // active_mtu 4096
  }
  const Fabric fabric = testing::load_mem_bundle(b);
  const IbNode& node01 = node_named(fabric.ib, "node01/mlx5_0");
  const Host* host = fabric.find_host("node01");
  ASSERT_NE(host, nullptr);
  ASSERT_FALSE(host->nics.empty());
  EXPECT_FALSE(node01.firmware.empty());
  EXPECT_EQ(node01.firmware, host->nics[0].firmware);
  EXPECT_EQ(port_of(node01, 1).mtu, 4096);
  EXPECT_FALSE(port_of(node_named(fabric.ib, "node02/mlx5_0"), 1).mtu);
  EXPECT_TRUE(node_named(fabric.ib, "node02/mlx5_0").firmware.empty());  // no such host
  for (const auto& sample : fabric.ib.samples) {
    bool sysfs = false;
    for (const auto& manager : sample.managers) {
      if (manager.source == "sysfs port") {
        sysfs = true;
        EXPECT_EQ(manager.lid, 1u);
        EXPECT_EQ(manager.guid, 0u);
      }
    }
    EXPECT_TRUE(sysfs) << sample.name;
  }
}

// iblinkinfo -l prints no node type: a GUID on several port numbers is a switch.
TEST(IbLoader, IblinkinfoLineFormAloneFindsSwitchesAndHcas) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"iblinkinfo"}, ib_fixture("ibsim_iblinkinfo_l.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbFabric& ib = fabric.ib;
  ASSERT_EQ(ib.nodes.size(), 5u);
  EXPECT_EQ(ib.nodes[0].name, "leaf-1 Quantum");
  EXPECT_EQ(ib.nodes[1].name, "spine-1");
  EXPECT_EQ(ib.nodes[1].kind, IbNodeKind::Switch);
  const IbNode* node03 = ib.find_ca("node03", "mlx5_0");
  ASSERT_NE(node03, nullptr);
  EXPECT_EQ(ib.peer_of(port_of(*node03, 1)), ib.find_switch("spine-1"));
  EXPECT_EQ(port_of(*ib.find_switch("spine-1"), 1).peer_guid, node03->guid);
}

// ibnetdiscover -p of a real HDR fabric: descriptions with leading and trailing spaces inside
// the quotes are kept as printed; names are trimmed.
TEST(IbLoader, PortFormKeepsDescriptionsAndTrimsNames) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibnetdiscover", "-p"},
                   reference("ibnetdiscover_p_hdr_spaces_in_desc_fixture.txt"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_TRUE(fabric.problems.empty()) << problems_of(fabric);
  const IbNode* spine = fabric.ib.find_switch("5FB0406-spine-IB02");
  ASSERT_NE(spine, nullptr);
  EXPECT_EQ(spine->description, " 5FB0406-spine-IB02 ");
  const IbNode* worker = fabric.ib.find_ca("worker20", "mlx5_3");
  ASSERT_NE(worker, nullptr);
  EXPECT_EQ(port_of(*worker, 1).lid, 88u);
  EXPECT_EQ(port_of(*worker, 1).speed, "HDR");
  EXPECT_EQ(port_of(*worker, 1).peer_port, 79u);
  // Its leaf prints no line of its own here: cabled to a node the model does not hold.
  EXPECT_EQ(port_of(*worker, 1).peer_guid, 0x946dae0300630bf6u);
  EXPECT_EQ(fabric.ib.peer_of(port_of(*worker, 1)), nullptr);
}

// A synthetic fabric of `leaves` 36-port leaf switches with 18 HCAs each, in the topology, -p
// and iblinkinfo forms, and one perfquery reading per HCA port.
MemBundle synthetic_fabric(int leaves) {
  std::string net;
  std::string ports;
  std::string links;
  std::string perf;
  int ca = 0;
  for (int leaf = 0; leaf < leaves; ++leaf) {
    const auto sw = static_cast<std::uint64_t>(0x7000000 + leaf);
    const int sw_lid = 1 + leaf;
    const std::string desc = fmt::format("MF0;leaf-{}:MQM8700/U1", leaf);
    net += fmt::format(
        "switchguid=0x{:x}({:x})\nSwitch\t36 \"S-{:016x}\"\t\t# \"{}\" enhanced port 0 "
        "lid {} lmc 0\n",
        sw, sw, sw, desc, sw_lid);
    std::string cas;
    for (int port = 1; port <= 18; ++port, ++ca) {
      const auto node = static_cast<std::uint64_t>(0x100000 + 2 * ca);
      const int lid = 10000 + ca;
      const std::string host = fmt::format("node{} mlx5_0", ca);
      net += fmt::format("[{}]\t\"H-{:016x}\"[1]({:x}) \t\t# \"{}\" lid {} 4xHDR\n", port, node,
                         node + 1, host, lid);
      cas += fmt::format(
          "\ncaguid=0x{:x}\nCa\t1 \"H-{:016x}\"\t\t# \"{}\"\n[1]({:x}) \t\"S-{:016x}\"[{}]"
          "\t\t# lid {} lmc 0 \"{}\" lid {} 4xHDR\n",
          node, node, host, node + 1, sw, port, lid, desc, sw_lid);
      ports +=
          fmt::format("CA {:5} {:2} 0x{:016x} 4x HDR - SW {:5} {:2} 0x{:016x} ( '{}' - '{}' )\n",
                      lid, 1, node + 1, sw_lid, port, sw, host, desc);
      links += fmt::format(
          "CA: {}:\n      0x{:016x} {:5}    1[  ] ==( 4X        53.125 Gbps "
          "Active/  LinkUp)==> {:5} {:4}[  ] \"{}\" ( )\n",
          host, node + 1, lid, sw_lid, port, desc);
      perf += fmt::format(
          "# Port extended counters: Lid {} port 1 (CapMask: 0x5300 CapMask2: "
          "0x0000002)\nPortXmitData:....................{}\n",
          lid, 1000 + ca);
    }
    net += cas + "\n";
  }
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_command("0", {"ibnetdiscover"}, net);
  b.fabric_command("0", {"ibnetdiscover", "-p"}, ports);
  b.fabric_command("0", {"iblinkinfo"}, links);
  b.fabric_command("0", {"perfquery", "-x", "-a"}, perf);
  return b;
}

// A fabric of 1,520 nodes joins every view of an HCA by its GUIDs (the loader's speed is
// measured by bench/diagnose_bench.sh with FABRIC=ib, not here).
TEST(IbLoader, LargeFabricJoinsEveryViewOfAnHca) {
  const MemBundle large = synthetic_fabric(80);
  const Fabric loaded = testing::load_mem_bundle(large);
  const IbNode* ca = loaded.ib.find_ca("node1000", "mlx5_0");
  ASSERT_NE(ca, nullptr);
  EXPECT_EQ(ca->guid, 0x100000u + 2000u);  // the -p and iblinkinfo port GUIDs joined to it
  EXPECT_EQ(ca->ports.front().samples[0].get({"ib_tx_bytes", -1}), 4.0 * 2000);
  EXPECT_EQ(loaded.ib.peer_of(ca->ports.front())->name, "leaf-55");
  EXPECT_EQ(loaded.ib.nodes.size(), 80u * 19u);
}

// An ibdiagnet run copied into a fabric sample (and nothing else) is a fabric: its switches,
// HCAs, port speeds, subnet managers and log findings reach the model.
TEST(IbLoader, IbdiagnetRunAloneIsAFabric) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  for (const std::string name : {"db_csv", "pm", "net_dump", "log"}) {
    b.fabric_file("0", "var/tmp/ibdiagnet2/ibdiagnet2." + name,
                  testing::ibdiag_fixture("ibdiagnet2." + name));
  }
  const Fabric fabric = testing::load_mem_bundle(b);
  ASSERT_NE(fabric.ib.find_switch("leaf-01"), nullptr);
  ASSERT_NE(fabric.ib.find_ca("node02", "mlx5_0"), nullptr);
  const IbPort* slow = fabric.ib.find_switch("leaf-01")->find_port(2);
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ(slow->speed, "EDR");
  EXPECT_EQ(slow->supported_speed, "HDR");
  ASSERT_EQ(fabric.ib.samples.size(), 1u);
  EXPECT_TRUE(fabric.ib.samples[0].sm_answered);
  EXPECT_FALSE(fabric.ib.samples[0].managers.empty());
  EXPECT_FALSE(fabric.ib.samples[0].diagnet_errors.empty());
  EXPECT_EQ(fabric.ib.sources.at(source::k_ibdiagnet).availability, Availability::Observed);
}

// A garbled ibdiagnet file is a problem naming it; the other files of the run still load.
TEST(IbLoader, GarbledIbdiagnetFileIsAProblemAndTheRestLoads) {
  MemBundle b;
  b.fabric_time("0", k_t0);
  b.fabric_file("0", "var/tmp/ibdiagnet2/ibdiagnet2.db_csv", "\x01\x02 not a db_csv\n");
  b.fabric_file("0", "var/tmp/ibdiagnet2/ibdiagnet2.net_dump",
                testing::ibdiag_fixture("ibdiagnet2.net_dump"));
  const Fabric fabric = testing::load_mem_bundle(b);
  EXPECT_NE(fabric.ib.find_switch("leaf-01"), nullptr);
  ASSERT_FALSE(fabric.problems.empty());
  EXPECT_NE(fabric.problems.front().error.describe().find("ibdiagnet2.db_csv"), std::string::npos)
      << fabric.problems.front().error.describe();
}

}  // namespace
}  // namespace netdoctor::model
