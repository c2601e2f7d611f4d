// show_gids, ibdev2netdev, rdma statistic, rdma resource, and the older `rdma link` form.
// Besides the reference outputs, tests/parsers/data holds small variants:
//  - show_gids_expanded_tabs_no_netdev.txt: a copy with tabs expanded to spaces and a row
//    without the netdev column (both quirks listed in reference/FORMATS.md), written by hand;
//  - ibdev2netdev_-v_public_shapes.txt: `ibdev2netdev -v` lines as public setup notes show them
//    (ConnectX-4/5/6 with PCI address, padded port state, a site suffix, an mlx4 line without
//    PCI address);
//  - rdma_statistic_qp_show_wrapped.txt: `rdma statistic qp show` as an iproute2 cover letter
//    wrapped it (a name and its value on two lines, "LQPN: <258>");
//  - rdma_resource_show_detail_forms.txt: the summary, qp and cq lines of a public rxe0 session,
//    plus mr / cm_id / "dev/-" lines written to the grammar of iproute2's rdma/res-*.c.
#include <gtest/gtest.h>

#include "parsers/ibdev2netdev.h"
#include "parsers/rdma_link.h"
#include "parsers/rdma_resource.h"
#include "parsers/rdma_statistic.h"
#include "parsers/show_gids.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

std::string reference(const char* name) {
  return read_text(reference_file(name));
}

// ---- show_gids ----------------------------------------------------------------------------

TEST(ShowGidsTest, TabSeparatedReferenceWithEmptyIpv4) {
  auto gids = parse_show_gids(reference("ibv/show_gids_rdma0_tabs.txt"));
  ASSERT_TRUE(gids.ok()) << gids.error().describe();
  ASSERT_EQ(gids->gids.size(), 4u);
  const auto& link_local = gids->gids[0];
  EXPECT_EQ(link_local.device, "mlx5_0");
  EXPECT_EQ(link_local.port, 1u);
  EXPECT_EQ(link_local.index, 0u);
  EXPECT_EQ(link_local.gid, "fe80:0000:0000:0000:0ac0:ebff:fe21:03da");
  EXPECT_EQ(link_local.ipv4, "");
  EXPECT_EQ(link_local.version, "v1");
  EXPECT_EQ(link_local.roce_version, 1u);
  EXPECT_EQ(link_local.netdev, "rdma0");
  const auto& v2 = gids->gids[3];
  EXPECT_EQ(v2.index, 3u);
  EXPECT_EQ(v2.gid, "0000:0000:0000:0000:0000:ffff:c0a8:d3f2");
  EXPECT_EQ(v2.ipv4, "192.168.211.242");
  EXPECT_EQ(v2.version, "v2");
  EXPECT_EQ(v2.roce_version, 2u);
  EXPECT_EQ(gids->n_gids_found, (std::vector<std::uint64_t>{4}));
  EXPECT_TRUE(gids->unparsed_lines.empty());
}

TEST(ShowGidsTest, TwoPastedOutputsKeepTheirLabelsAndFooters) {
  auto gids = parse_show_gids(reference("ibv/show_gids_bond_mlx5_and_huawei_hrn3.txt"));
  ASSERT_TRUE(gids.ok()) << gids.error().describe();
  ASSERT_EQ(gids->gids.size(), 8u);
  EXPECT_EQ(gids->gids[2].device, "mlx5_bond_0");
  EXPECT_EQ(gids->gids[2].ipv4, "10.96.83.26");
  EXPECT_EQ(gids->gids[2].netdev, "bond0");
  EXPECT_EQ(gids->gids[4].device, "hrn3_bond_0");
  EXPECT_EQ(gids->gids[4].version, "v2");
  EXPECT_EQ(gids->gids[5].ipv4, "27.105.180.3");
  EXPECT_EQ(gids->gids[5].gid, "0000:0000:0000:0000:0000:ffff:1b69:b403");
  EXPECT_EQ(gids->gids[7].netdev, "bond1");
  EXPECT_EQ(gids->gids[7].roce_version, 2u);
  EXPECT_EQ(gids->n_gids_found, (std::vector<std::uint64_t>{4, 4}));
  // The two Chinese labels ("(1) device one:", "(2) device two:") are kept, not dropped.
  EXPECT_EQ(gids->unparsed_lines, (std::vector<std::string>{"（1）设备一：", "（2）设备二："}));
}

TEST(ShowGidsTest, ExpandedTabsAndMissingNetdev) {
  auto gids = parse_show_gids(parser_fixture("show_gids_expanded_tabs_no_netdev.txt"));
  ASSERT_TRUE(gids.ok()) << gids.error().describe();
  ASSERT_EQ(gids->gids.size(), 3u);
  EXPECT_EQ(gids->gids[1].ipv4, "10.10.0.10");
  EXPECT_EQ(gids->gids[1].netdev, "ens1f0np0");
  EXPECT_EQ(gids->gids[2].device, "mlx5_1");
  EXPECT_EQ(gids->gids[2].netdev, "");
  EXPECT_EQ(gids->gids[2].roce_version, 2u);
  EXPECT_EQ(gids->n_gids_found, (std::vector<std::uint64_t>{3}));
}

TEST(ShowGidsTest, RejectsOtherOutputsAndKeepsTruncatedRows) {
  EXPECT_EQ(parse_show_gids("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_show_gids(reference("iplink/ibdev2netdev_dgxspark.txt")).ok());
  EXPECT_FALSE(parse_show_gids(reference("rdma/rdma_link_gx10_dgxspark_aligned_columns.txt")).ok());
  EXPECT_FALSE(parse_show_gids("mlx5_0\t1\t0\tfe80:0000:0000\n").ok());  // cut before VER
  // Under a header, the cut row is kept as text rather than dropped or misread.
  auto cut = parse_show_gids("DEV\tPORT\tINDEX\tGID\tIPv4\tVER\tDEV\nmlx5_0\t1\t0\tfe80:0000\n");
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(cut->gids.empty());
  EXPECT_EQ(cut->unparsed_lines, (std::vector<std::string>{"mlx5_0\t1\t0\tfe80:0000"}));
}

// ---- ibdev2netdev -------------------------------------------------------------------------

TEST(Ibdev2netdevTest, DgxSparkMixedCaseNamesAfterAPrompt) {
  auto map = parse_ibdev2netdev(reference("iplink/ibdev2netdev_dgxspark.txt"));
  ASSERT_TRUE(map.ok()) << map.error().describe();
  ASSERT_EQ(map->entries.size(), 4u);
  EXPECT_EQ(map->entries[0].device, "rocep1s0f0");
  EXPECT_EQ(map->entries[0].netdev, "enp1s0f0np0");
  EXPECT_EQ(map->entries[0].state, "Down");
  const auto& p2 = map->entries[3];
  EXPECT_EQ(p2.device, "roceP2p1s0f1");
  EXPECT_EQ(p2.port, 1u);
  EXPECT_EQ(p2.netdev, "enP2p1s0f1np1");
  EXPECT_EQ(p2.state, "Up");
  EXPECT_FALSE(p2.verbose);
  EXPECT_TRUE(map->unparsed_lines.empty());  // the "eugr@spark:~$ ibdev2netdev" prompt
}

TEST(Ibdev2netdevTest, VerboseFormWithPciFirmwareAndPaddedState) {
  auto map = parse_ibdev2netdev(parser_fixture("ibdev2netdev_-v_public_shapes.txt"));
  ASSERT_TRUE(map.ok()) << map.error().describe();
  ASSERT_EQ(map->entries.size(), 5u);
  const auto& cx4 = map->entries[0];
  EXPECT_TRUE(cx4.verbose);
  EXPECT_EQ(cx4.pci_address, "0000:02:00.0");
  EXPECT_EQ(cx4.device, "mlx5_0");
  EXPECT_EQ(cx4.device_id, "MT4115");
  EXPECT_EQ(cx4.part_id, "MT1523X04353");
  EXPECT_EQ(cx4.description, "CX456A - ConnectX-4 QSFP");
  EXPECT_EQ(cx4.firmware, "12.23.1020");
  EXPECT_EQ(cx4.port, 1u);
  EXPECT_EQ(cx4.port_state, "ACTIVE");
  EXPECT_EQ(cx4.netdev, "enp2s0f0");
  EXPECT_EQ(cx4.state, "Up");
  const auto& vf = map->entries[1];
  EXPECT_EQ(vf.part_id, "NA");
  EXPECT_EQ(vf.description, "");
  EXPECT_EQ(vf.port_state, "DOWN");
  EXPECT_EQ(vf.state, "Down");
  EXPECT_EQ(map->entries[2].part_id, "7359059");
  const auto& cx6 = map->entries[3];
  EXPECT_EQ(cx6.device, "mlx5_13");
  EXPECT_EQ(cx6.description,
            "ConnectX-6 VPI adapter card, 100Gb/s (HDR100, EDR IB and 100GbE), dual-port QSFP56");
  EXPECT_EQ(cx6.firmware, "20.26.4012");
  EXPECT_EQ(cx6.netdev, "ib4");
  EXPECT_EQ(cx6.extra, "(o2ib)");
  const auto& mlx4 = map->entries[4];
  EXPECT_EQ(mlx4.pci_address, "");
  EXPECT_EQ(mlx4.device, "mlx4_0");
  EXPECT_EQ(mlx4.device_id, "mt26428");
  EXPECT_EQ(mlx4.firmware, "2.9.1000");
  EXPECT_EQ(mlx4.netdev, "ib0");
}

TEST(Ibdev2netdevTest, KeepsOtherLinesAndRejectsOtherOutputs) {
  auto mixed = parse_ibdev2netdev(reference("sysfs/rdma_statistic_show_mlx5_bond.txt"));
  ASSERT_TRUE(mixed.ok());
  ASSERT_EQ(mixed->entries.size(), 1u);
  EXPECT_EQ(mixed->entries[0].device, "mlx5_bond_0");
  EXPECT_EQ(mixed->entries[0].netdev, "bond0");
  ASSERT_EQ(mixed->unparsed_lines.size(), 1u);  // the statistic line, kept
  EXPECT_TRUE(mixed->unparsed_lines[0].starts_with("link mlx5_bond_0/1 rx_write_requests 0"));
  EXPECT_EQ(parse_ibdev2netdev("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_ibdev2netdev(reference("ibv/show_gids_rdma0_tabs.txt")).ok());
  EXPECT_FALSE(parse_ibdev2netdev("mlx5_0 port 1 ==> ens1f0np0\n").ok());  // cut before state
  EXPECT_FALSE(parse_ibdev2netdev("mlx5_0 port x ==> ens1f0np0 (Up)\n").ok());
}

// ---- rdma statistic -----------------------------------------------------------------------

TEST(RdmaStatisticTest, SingleLineRecordKeepsEveryCounter) {
  auto stats = parse_rdma_statistic(reference("sysfs/rdma_statistic_show_mlx5_bond.txt"));
  ASSERT_TRUE(stats.ok()) << stats.error().describe();
  ASSERT_EQ(stats->links.size(), 1u);
  const auto* bond = stats->find("mlx5_bond_0", 1);
  ASSERT_NE(bond, nullptr);
  EXPECT_EQ(bond->counters.size(), 29u);
  EXPECT_EQ(bond->counters.at("resp_cqe_error"), 3297u);
  EXPECT_EQ(bond->counters.at("resp_cqe_flush_error"), 2792u);
  EXPECT_EQ(bond->counters.at("rx_write_requests"), 0u);
  EXPECT_EQ(bond->counters.at("rx_icrc_encapsulated"), 0u);
  EXPECT_TRUE(bond->extra.empty());
  EXPECT_EQ(stats->unparsed_lines, (std::vector<std::string>{"mlx5_bond_0 port 1 ==> bond0 (Up)"}));
}

TEST(RdmaStatisticTest, EmailWrappedRecordAndModeLines) {
  auto stats = parse_rdma_statistic(
      reference("rdma/rdma_statistic_mode_and_show_mlx5_optional_cc_counters_emailwrapped.txt"));
  ASSERT_TRUE(stats.ok()) << stats.error().describe();
  ASSERT_EQ(stats->links.size(), 2u);
  const auto* f0 = stats->find("rocep8s0f0", 1);
  ASSERT_NE(f0, nullptr);
  EXPECT_EQ(f0->counters.size(), 30u);  // 8 wrapped lines, one record
  EXPECT_EQ(f0->counters.count("out_of_sequence"), 1u);
  EXPECT_EQ(f0->counters.count("resp_cqe_flush_error"), 1u);
  EXPECT_EQ(f0->counters.at("cc_rx_ce_pkts"), 0u);
  EXPECT_EQ(f0->counters.at("cc_rx_cnp_pkts"), 0u);  // alone on the last wrapped line
  EXPECT_EQ(f0->supported_optional_counters,
            (std::vector<std::string>{"cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts"}));
  EXPECT_EQ(f0->optional_counters, (std::vector<std::string>{"cc_rx_ce_pkts"}));  // the last mode
  const auto* f1 = stats->find("rocep8s0f1", 1);
  ASSERT_NE(f1, nullptr);
  EXPECT_TRUE(f1->counters.empty());
  EXPECT_EQ(f1->supported_optional_counters.size(), 3u);
  EXPECT_TRUE(stats->unparsed_lines.empty());
}

TEST(RdmaStatisticTest, QpCountersWrappedBetweenNameAndValue) {
  auto stats = parse_rdma_statistic(parser_fixture("rdma_statistic_qp_show_wrapped.txt"));
  ASSERT_TRUE(stats.ok()) << stats.error().describe();
  ASSERT_EQ(stats->links.size(), 1u);
  const auto& qp = stats->links[0];
  EXPECT_EQ(qp.device, "mlx5_2");
  EXPECT_EQ(qp.cntn, 4u);
  EXPECT_EQ(qp.extra.at("pid"), "9829");
  EXPECT_EQ(qp.extra.at("comm"), "ib_send_bw");
  EXPECT_EQ(qp.extra.at("LQPN:"), "<258>");
  EXPECT_EQ(qp.counters.size(), 8u);
  EXPECT_EQ(qp.counters.at("out_of_sequence"), 0u);  // its value on the next line
  EXPECT_EQ(qp.counters.at("packet_seq_err"), 0u);
  EXPECT_EQ(stats->find("mlx5_2", 1), nullptr);  // a bound counter, not the port's default
  EXPECT_EQ(stats->unparsed_lines, (std::vector<std::string>{"link mlx5_2/1 qp auto type on"}));
}

TEST(RdmaStatisticTest, RejectsLinkResourceAndTruncatedOutputs) {
  EXPECT_EQ(parse_rdma_statistic("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(
      parse_rdma_statistic(reference("rdma/rdma_link_gx10_dgxspark_aligned_columns.txt")).ok());
  EXPECT_FALSE(parse_rdma_statistic("link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 3 "
                                    "sm_lid 1 lmc 0 state DOWN physical_state DISABLED\n")
                   .ok());
  EXPECT_FALSE(parse_rdma_statistic(reference("sysfs/rdma_resource_show_mlx5_bond.txt")).ok());
  EXPECT_FALSE(parse_rdma_statistic("link mlx5_0/1\n").ok());
  auto big = parse_rdma_statistic("link mlx5_0/1 rx_write_requests 18446744073709551615\n");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->links[0].counters.at("rx_write_requests"), 18446744073709551615u);
}

// ---- rdma resource ------------------------------------------------------------------------

TEST(RdmaResourceTest, SummaryReference) {
  auto res = parse_rdma_resource(reference("sysfs/rdma_resource_show_mlx5_bond.txt"));
  ASSERT_TRUE(res.ok()) << res.error().describe();
  ASSERT_EQ(res->devices.size(), 1u);
  const auto& bond = res->devices[0];
  EXPECT_EQ(bond.index, 2u);
  EXPECT_EQ(bond.device, "mlx5_bond_0");
  EXPECT_EQ(bond.counts,
            (std::map<std::string, std::uint64_t>{
                {"pd", 3}, {"cq", 5}, {"qp", 8}, {"cm_id", 0}, {"mr", 3}, {"ctx", 2}}));
  EXPECT_TRUE(res->objects.empty());
  EXPECT_TRUE(res->unparsed_lines.empty());
}

TEST(RdmaResourceTest, DetailFormsTellTheirResource) {
  auto res = parse_rdma_resource(parser_fixture("rdma_resource_show_detail_forms.txt"));
  ASSERT_TRUE(res.ok()) << res.error().describe();
  ASSERT_EQ(res->devices.size(), 1u);
  EXPECT_EQ(res->devices[0].device, "rxe0");
  EXPECT_EQ(res->devices[0].counts.at("srq"), 0u);
  ASSERT_EQ(res->objects.size(), 5u);
  const auto& qp = res->objects[0];
  EXPECT_EQ(qp.resource, "qp");
  EXPECT_EQ(qp.device, "rxe0");
  EXPECT_EQ(qp.port, 1u);
  EXPECT_EQ(qp.fields.at("type"), "GSI");
  EXPECT_EQ(qp.fields.at("state"), "RTS");
  EXPECT_EQ(qp.fields.at("comm"), "[ib_core]");
  EXPECT_EQ(res->objects[1].device, "mlx5_0");
  EXPECT_FALSE(res->objects[1].port.has_value());  // "mlx5_0/-"
  const auto& cq = res->objects[2];
  EXPECT_EQ(cq.resource, "cq");
  EXPECT_FALSE(cq.port.has_value());
  EXPECT_EQ(cq.fields.at("cqe"), "1023");
  EXPECT_EQ(cq.fields.at("poll-ctx"), "WORKQUEUE");
  EXPECT_EQ(res->objects[3].resource, "mr");
  EXPECT_EQ(res->objects[3].fields.at("mrlen"), "131072");
  EXPECT_EQ(res->objects[4].resource, "cm_id");
  EXPECT_EQ(res->objects[4].fields.at("src-addr"), "0.0.0.0:7174");
}

TEST(RdmaResourceTest, RejectsStatisticLinkAndGarbage) {
  EXPECT_EQ(parse_rdma_resource("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(parse_rdma_resource(reference("sysfs/rdma_statistic_show_mlx5_bond.txt")).ok());
  EXPECT_FALSE(
      parse_rdma_resource(reference("rdma/rdma_link_gx10_dgxspark_aligned_columns.txt")).ok());
  EXPECT_FALSE(parse_rdma_resource("3/1: mlx5_1/1: state ACTIVE physical_state LINK_UP\n").ok());
  EXPECT_FALSE(parse_rdma_resource("2: mlx5_bond_0:\n").ok());  // cut after the name
}

// ---- rdma link: the older iproute2 form ---------------------------------------------------

TEST(RdmaLinkTest, OlderIndexPortForm) {
  auto links =
      parse_rdma_link("3/1: mlx5_1/1: state ACTIVE physical_state LINK_UP netdev ens803f1\n");
  ASSERT_TRUE(links.ok()) << links.error().describe();
  ASSERT_EQ(links->links.size(), 1u);
  const auto& link = links->links[0];
  EXPECT_EQ(link.device, "mlx5_1");
  EXPECT_EQ(link.port, 1u);
  EXPECT_EQ(link.index, 3u);
  EXPECT_EQ(link.state, "ACTIVE");
  EXPECT_EQ(link.physical_state, "LINK_UP");
  EXPECT_EQ(link.netdev, "ens803f1");
  EXPECT_FALSE(parse_rdma_link("3/x: mlx5_1/1: state ACTIVE\n").ok());
  EXPECT_FALSE(parse_rdma_link("3/1: mlx5_1/1 state ACTIVE\n").ok());  // no ':' after dev/port
}

TEST(RdmaLinkTest, AlignedColumnsReferenceStillParses) {
  auto links = parse_rdma_link(reference("rdma/rdma_link_gx10_dgxspark_aligned_columns.txt"));
  ASSERT_TRUE(links.ok()) << links.error().describe();
  ASSERT_EQ(links->links.size(), 4u);
  EXPECT_EQ(links->links[2].device, "roceP2p1s0f0");
  EXPECT_EQ(links->links[2].netdev, "enP2p1s0f0np0");
  EXPECT_EQ(links->links[2].state, "ACTIVE");
  EXPECT_FALSE(links->links[2].index.has_value());
}

}  // namespace
}  // namespace netdoctor::parsers
