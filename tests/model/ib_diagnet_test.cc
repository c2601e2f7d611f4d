// apply_ibdiagnet (model/ib_diagnet.h): the tests/fixtures/ibdiag fabric (two HDR switches, two
// HCAs, README there) and the reference Quantum-2 NDR db_csv merged into the IB model.
#include "model/ib_diagnet.h"

#include <gtest/gtest.h>

#include <set>

#include "model/source_names.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;
using netdoctor::testing::source_dir;

constexpr std::uint64_t k_leaf = 0xb8cef603001bf9de;
constexpr std::uint64_t k_spine = 0xb8cef603001c0a10;
constexpr std::uint64_t k_node01 = 0x0c42a10300a1b2c0;
constexpr std::uint64_t k_node02 = 0x0c42a10300a1b2d0;

std::string fixture(const std::string& name) {
  return read_text(source_dir() + "/tests/fixtures/ibdiag/" + name);
}

IbDiagnetViews fixture_views(bool with_db_csv = true) {
  IbDiagnetViews v;
  if (with_db_csv) {
    v.db_csv = parsers::parse_ibdiagnet_db_csv(fixture("ibdiagnet2.db_csv")).value();
  }
  v.pm = parsers::parse_ibdiagnet_pm(fixture("ibdiagnet2.pm")).value();
  v.net_dump = parsers::parse_ibdiagnet_net_dump(fixture("ibdiagnet2.net_dump")).value();
  v.log = parsers::parse_ibdiagnet_log(fixture("ibdiagnet2.log")).value();
  v.dir = "fabric/1/var/tmp/ibdiagnet2";
  return v;
}

IbFabric two_samples() {
  IbFabric ib;
  ib.samples.push_back({.name = "0", .captured_at = 100.0});
  ib.samples.push_back({.name = "1", .captured_at = 160.0});
  return ib;
}

const IbPort& port(const IbFabric& ib, std::uint64_t guid, std::uint32_t number) {
  const IbNode* node = ib.find_node(guid);
  EXPECT_NE(node, nullptr) << std::hex << guid;
  const IbPort* p = node->find_port(number);
  EXPECT_NE(p, nullptr) << std::hex << guid << " port " << number;
  return *p;
}

std::optional<double> value(const IbPort& p, std::size_t sample, const std::string& metric) {
  return p.samples.at(sample).get({metric, -1});
}

TEST(IbDiagnet, NodesAreCreatedNamedAndSortedSwitchesFirst) {
  IbFabric ib = two_samples();
  std::vector<Problem> problems;
  apply_ibdiagnet(fixture_views(), 1, ib, problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(ib.nodes.size(), 4u);
  EXPECT_EQ(ib.nodes[0].name, "leaf-01");
  EXPECT_EQ(ib.nodes[1].name, "spine-01");
  EXPECT_EQ(ib.nodes[2].name, "node01/mlx5_0");
  EXPECT_EQ(ib.nodes[3].name, "node02/mlx5_0");
  const IbNode* leaf = ib.find_switch("leaf-01");
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(leaf->guid, k_leaf);
  EXPECT_EQ(leaf->kind, IbNodeKind::Switch);
  EXPECT_EQ(leaf->lid, 1u);
  EXPECT_EQ(leaf->port_count, 41u);
  EXPECT_EQ(leaf->vendor_id, "0x2c9");
  EXPECT_EQ(leaf->device_id, "0xd2f0");
  EXPECT_EQ(leaf->model, "MQM8700");
  EXPECT_EQ(leaf->firmware, "27.2012.1010");
  EXPECT_EQ(leaf->sources.at(source::k_ibdiagnet).availability, Availability::Observed);
  const IbNode* node01 = ib.find_ca("node01", "mlx5_0");
  ASSERT_NE(node01, nullptr);
  EXPECT_EQ(node01->lid, 7u);
  EXPECT_EQ(node01->firmware, "20.40.1000");  // GENERAL_INFO_SMP
  EXPECT_EQ(node01->entity(), "nic:node01/mlx5_0");
  EXPECT_EQ(ib.sources.at(source::k_ibdiagnet).availability, Availability::Observed);
  EXPECT_EQ(ib.by_guid.at(k_node02), 3u);  // reindexed after sorting
}

TEST(IbDiagnet, PortsCarryStateWidthSpeedCapabilityMtuAndPeers) {
  IbFabric ib = two_samples();
  std::vector<Problem> problems;
  apply_ibdiagnet(fixture_views(), 1, ib, problems);
  const IbPort& p1 = port(ib, k_leaf, 1);
  EXPECT_EQ(p1.state, RdmaPortState::Active);
  EXPECT_EQ(p1.phys, PhysState::LinkUp);
  EXPECT_EQ(p1.width, 4);
  EXPECT_EQ(p1.speed, "HDR");
  EXPECT_EQ(p1.lane_gbps, 53.125);
  EXPECT_EQ(p1.data_gbps, 200.0);
  EXPECT_EQ(p1.supported_width, 4);
  EXPECT_EQ(p1.supported_speed, "HDR");
  EXPECT_EQ(p1.mtu, 4096);
  EXPECT_EQ(p1.lid, 1u);  // a switch port: the switch's LID
  EXPECT_EQ(p1.peer_guid, k_node01);
  EXPECT_EQ(p1.peer_port, 1u);
  // Trained down to EDR while both ends could run HDR.
  const IbPort& p2 = port(ib, k_leaf, 2);
  EXPECT_EQ(p2.speed, "EDR");
  EXPECT_EQ(p2.data_gbps, 100.0);
  EXPECT_EQ(p2.supported_data_gbps, 200.0);
  const IbPort& p3 = port(ib, k_leaf, 3);
  EXPECT_EQ(p3.state, RdmaPortState::Down);
  EXPECT_EQ(p3.phys, PhysState::Polling);
  EXPECT_FALSE(p3.width.has_value());
  EXPECT_TRUE(p3.speed.empty());
  EXPECT_FALSE(p3.cabled());
  const IbPort& hca = port(ib, k_node02, 1);
  EXPECT_EQ(hca.mtu, 2048);
  EXPECT_EQ(hca.lid, 8u);
  EXPECT_EQ(hca.peer_guid, k_leaf);
  EXPECT_EQ(hca.peer_port, 2u);
  EXPECT_EQ(ib.peer_of(port(ib, k_spine, 1))->name, "leaf-01");
  // net_dump's spine port 2 (not in PORTS) is still known: disabled.
  EXPECT_EQ(port(ib, k_spine, 2).phys, PhysState::Disabled);
}

TEST(IbDiagnet, CountersBecomeCanonicalMetricsOfTheSample) {
  IbFabric ib = two_samples();
  std::vector<Problem> problems;
  apply_ibdiagnet(fixture_views(), 1, ib, problems);
  const IbPort& p1 = port(ib, k_leaf, 1);
  ASSERT_EQ(p1.samples.size(), 2u);
  EXPECT_TRUE(p1.samples[0].values.empty());
  EXPECT_EQ(p1.samples[0].captured_at, 100.0);
  EXPECT_EQ(p1.samples[1].captured_at, 160.0);
  // The 64-bit PortXmitDataExtended, in octets; the saturated 32-bit one is not used.
  EXPECT_EQ(value(p1, 1, "ib_tx_bytes"), 48e9);
  EXPECT_EQ(value(p1, 1, "ib_rx_bytes"), 44e9);
  EXPECT_EQ(value(p1, 1, "ib_tx_packets"), 52000.0);
  EXPECT_EQ(value(p1, 1, "ib_xmit_wait"), 4100.0);
  EXPECT_TRUE(p1.saturated.empty());
  const IbPort& p2 = port(ib, k_leaf, 2);
  EXPECT_EQ(value(p2, 1, "ib_symbol_errors"), 12.0);
  EXPECT_EQ(value(p2, 1, "ib_link_error_recovery"), 3.0);
  // node02: LinkDownedCounter 255 (8 bits, all ones) with no extended value: saturated.
  const IbPort& hca = port(ib, k_node02, 1);
  EXPECT_FALSE(value(hca, 1, "ib_link_downed").has_value());
  EXPECT_EQ(hca.saturated.at("ib_link_downed"), 1u);
  EXPECT_EQ(value(hca, 1, "ib_rcv_errors"), 7.0);
  // Ports PM_INFO lacks come from ibdiagnet2.pm (its own counter names).
  const IbPort& p4 = port(ib, k_leaf, 4);
  EXPECT_EQ(value(p4, 1, "ib_tx_bytes"), 24e9);
  EXPECT_EQ(value(p4, 1, "ib_xmit_discards"), 5.0);
  EXPECT_EQ(value(p4, 1, "ib_xmit_wait"), 10000.0);
  const IbPort& spine = port(ib, k_spine, 1);
  EXPECT_EQ(value(spine, 1, "ib_tx_bytes"), 1.25e9);      // 32-bit only, not saturated
  EXPECT_EQ(value(spine, 1, "ib_link_downed"), 1.0);      // link_down_counter
  EXPECT_EQ(spine.saturated.at("ib_symbol_errors"), 1u);  // 0xffff: 16 bits all ones
  // node01 is found by its port GUID.
  EXPECT_EQ(value(port(ib, k_node01, 1), 1, "ib_tx_bytes"), 0x2cb417800 * 4.0);
}

TEST(IbDiagnet, ValuesAlreadyReadFromPerfqueryWin) {
  IbFabric ib = two_samples();
  IbNode leaf;
  leaf.kind = IbNodeKind::Switch;
  leaf.guid = k_leaf;
  leaf.name = "leaf-01";
  leaf.description = "MF0;leaf-01:MQM8700/U1";
  IbPort p1;
  p1.number = 1;
  p1.state = RdmaPortState::Init;  // as an earlier view saw it
  p1.samples.resize(2);
  p1.samples[1].values[{"ib_tx_bytes", -1}] = 5.0;
  leaf.ports.push_back(p1);
  ib.nodes.push_back(leaf);
  ib.reindex();
  std::vector<Problem> problems;
  apply_ibdiagnet(fixture_views(), 1, ib, problems);
  const IbPort& merged = port(ib, k_leaf, 1);
  EXPECT_EQ(value(merged, 1, "ib_tx_bytes"), 5.0);
  EXPECT_EQ(value(merged, 1, "ib_rx_bytes"), 44e9);
  EXPECT_EQ(merged.state, RdmaPortState::Init);
  EXPECT_EQ(merged.speed, "HDR");  // what the earlier view left unset is filled
  EXPECT_EQ(ib.nodes.size(), 4u);
}

TEST(IbDiagnet, ManagersAndLogLinesOfTheSample) {
  IbFabric ib = two_samples();
  std::vector<Problem> problems;
  apply_ibdiagnet(fixture_views(), 1, ib, problems);
  const IbFabricSample& s = ib.samples[1];
  EXPECT_TRUE(s.sm_answered);
  EXPECT_FALSE(ib.samples[0].sm_answered);
  ASSERT_EQ(s.managers.size(), 2u);  // SM_INFO; the log's Master/Standby lines add nothing new
  EXPECT_EQ(s.managers[0].guid, k_node01);
  EXPECT_EQ(s.managers[0].state, 3u);
  EXPECT_EQ(s.managers[0].priority, 15u);
  EXPECT_EQ(s.managers[0].lid, 7u);
  EXPECT_EQ(s.managers[0].activity_count, 53811u);
  EXPECT_EQ(s.managers[0].source, "ibdiagnet");
  EXPECT_EQ(s.managers[1].state, 2u);
  ASSERT_EQ(s.diagnet_errors.size(), 3u);
  EXPECT_EQ(s.diagnet_errors[1], "-E- lid=0x0001 dev=54000 MF0;leaf-01:MQM8700/U1/P2");
  ASSERT_EQ(s.diagnet_warnings.size(), 2u);
  EXPECT_EQ(s.diagnet_warnings[0].rfind("-W- Link Speed Check", 0), 0u);
}

// ibdiagnet2.sm alone: its master and standby are the sample's SMs, and the sample asked for
// them; a report that found no SM is "asked, no master", not "no data".
TEST(IbDiagnet, TheSmReportAloneGivesTheSamplesManagers) {
  IbFabric ib = two_samples();
  std::vector<Problem> problems;
  IbDiagnetViews views;
  views.sm = parsers::parse_ibdiagnet_sm(fixture("ibdiagnet2.sm")).value();
  apply_ibdiagnet(views, 1, ib, problems);
  const IbFabricSample& s = ib.samples[1];
  EXPECT_TRUE(s.sm_queried);
  EXPECT_TRUE(s.sm_answered);
  ASSERT_EQ(s.managers.size(), 2u);
  EXPECT_EQ(s.managers[0].guid, k_node01);
  EXPECT_EQ(s.managers[0].state, 3u);
  EXPECT_EQ(s.managers[0].lid, 7u);
  EXPECT_EQ(s.managers[1].guid, k_node02);
  EXPECT_EQ(s.managers[1].state, 2u);

  IbFabric none = two_samples();
  IbDiagnetViews empty;
  empty.sm = parsers::parse_ibdiagnet_sm("ibdiagnet fabric SM report\n").value();
  apply_ibdiagnet(empty, 0, none, problems);
  EXPECT_TRUE(none.samples[0].sm_queried);
  EXPECT_FALSE(none.samples[0].sm_answered);
  EXPECT_TRUE(none.samples[0].managers.empty());
  EXPECT_TRUE(problems.empty());
}

TEST(IbDiagnet, NetDumpAloneGivesSwitchesNeighboursAndLinks) {
  IbFabric ib = two_samples();
  std::vector<Problem> problems;
  IbDiagnetViews v = fixture_views(false);
  v.pm.reset();
  v.log.reset();
  apply_ibdiagnet(v, 0, ib, problems);
  ASSERT_EQ(ib.nodes.size(), 4u);
  EXPECT_EQ(ib.nodes[0].name, "leaf-01");
  EXPECT_EQ(ib.nodes[3].name, "node02/mlx5_0");
  EXPECT_EQ(ib.nodes[3].kind, IbNodeKind::Ca);
  const IbPort& p2 = port(ib, k_leaf, 2);
  EXPECT_EQ(p2.speed, "EDR");
  EXPECT_EQ(p2.width, 4);
  EXPECT_EQ(p2.data_gbps, 100.0);
  EXPECT_EQ(p2.peer_guid, k_node02);
  const IbPort& hca = port(ib, k_node02, 1);
  EXPECT_EQ(hca.peer_guid, k_leaf);
  EXPECT_EQ(hca.peer_port, 2u);
  EXPECT_EQ(hca.lid, 8u);
  EXPECT_FALSE(ib.samples[0].sm_answered);
}

TEST(IbDiagnet, ReferenceNdrFabric) {
  IbDiagnetViews v;
  v.db_csv =
      parsers::parse_ibdiagnet_db_csv(
          read_text(reference_file("ibdiag/ibdiagnet2_db_csv_quantum2_ndr_272nodes_full.txt")))
          .value();
  IbFabric ib;
  ib.samples.push_back({.name = "0", .captured_at = 1.0});
  std::vector<Problem> problems;
  apply_ibdiagnet(v, 0, ib, problems);
  ASSERT_EQ(ib.nodes.size(), 272u);
  std::set<std::string> names;
  std::size_t switches = 0;
  for (const auto& n : ib.nodes) {
    names.insert(n.name);
    switches += n.kind == IbNodeKind::Switch ? 1u : 0u;
  }
  EXPECT_EQ(names.size(), 272u);  // every name unique
  EXPECT_EQ(switches, 9u);
  const IbNode* sequoia = ib.find_switch("ib-switch-sequoia");
  ASSERT_NE(sequoia, nullptr);
  EXPECT_EQ(sequoia->lid, 180u);
  EXPECT_EQ(sequoia->model, "MQM9700");
  // The eight "Quantum-2 Mellanox Technologies" switches are named by GUID.
  EXPECT_NE(ib.find_switch("0xfc6a1c030091cf00"), nullptr);
  const IbPort* p1 = sequoia->find_port(1);
  ASSERT_NE(p1, nullptr);
  EXPECT_EQ(p1->speed, "NDR");
  EXPECT_EQ(p1->data_gbps, 400.0);
  EXPECT_EQ(p1->samples.at(0).get({"ib_tx_bytes", -1}), 299195507523.0 * 4);
  ASSERT_EQ(ib.samples[0].managers.size(), 1u);
  EXPECT_EQ(ib.samples[0].managers[0].lid, 180u);
  EXPECT_TRUE(problems.empty());
}

TEST(IbDiagnet, TruncatedDbCsvIsMergedAndReported) {
  std::string text =
      read_text(reference_file("ibdiag/ibdiagnet2_db_csv_quantum2_ndr_272nodes_full.txt"));
  IbDiagnetViews v;
  v.db_csv =
      parsers::parse_ibdiagnet_db_csv(text.substr(0, text.find("START_LINKS") + 200)).value();
  v.dir = "fabric/0/var/tmp/ibdiagnet2";
  IbFabric ib;
  std::vector<Problem> problems;
  apply_ibdiagnet(v, 0, ib, problems);
  EXPECT_EQ(ib.samples.size(), 1u);  // grown to hold the sample
  EXPECT_EQ(ib.nodes.size(), 272u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].source, "ibdiagnet");
  EXPECT_EQ(problems[0].error.context, "fabric/0/var/tmp/ibdiagnet2/ibdiagnet2.db_csv");
  EXPECT_NE(problems[0].error.message.find("truncated"), std::string::npos);
}

}  // namespace
}  // namespace netdoctor::model
