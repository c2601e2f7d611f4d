// nccl-log (NCCL_DEBUG=INFO job logs). Real excerpts kept in tests/parsers/data (last partial
// line of each excerpt dropped), from GitHub issue threads:
//   nccl_log_issue302_mpirun_rank_prefix_mixed_ib_roce_warn.txt  NVIDIA/nccl#302, comment by
//     cswinter 2020-03-17 (mpirun "[56]" prefix, NCCL 2.6 "Ring" lines, ibv_modify_qp WARN)
//   nccl_log_tests185_dgxh100_roce_ro_two_hosts.txt  NVIDIA/nccl-tests#185 (chgdragon2023)
//   nccl_log_tests227_irdma_ibext_v8.txt  NVIDIA/nccl-tests#227 (thsmfe001): Intel irdma, HPC-X
//     plugin IBext_v8
//   nccl_log_issue707_a100_channels_gdrdma_busid.txt  NVIDIA/nccl#707 (ConnollyLeon): channels
//     with bus ids, /GDRDMA
//   nccl_log_issue1412_init_complete_16ranks.txt  NVIDIA/nccl#1412 (JuiceLemonLemon)
//   nccl_log_issue1537_roce_gdr_disabled.txt  NVIDIA/nccl#1537 (blegear, 2024-12-09)
//   nccl_log_issue899_gdr_no_module_channels_two_hosts.txt  NVIDIA/nccl#899 (raninbowlalala)
//   nccl_log_nvpeermem56_socket_and_ib_nccl247.txt  Mellanox/nv_peer_memory#56, comment by
//     vilmara 2020-01-07
//   nccl_log_issue1657_channel_net_ib_gid_index_0.txt  NVIDIA/nccl#1657 (SecurityNeo)
//   nccl_log_aks36_gdr_level_sys_channels_gdrdma.txt  Azure/aks-rdma-infiniband#36, comment by
//     chewong 2025-04-10 (`k logs ... | grep GDR`)
// and the reference file nccl/nccl_info_channel_via_net_ib_roce_gid.txt.
#include "parsers/nccl_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "parsers/registry.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(NcclLogTest, ReferenceRoceChannelsAlternateTwoNicsWithoutGdr) {
  auto r =
      parse_nccl_log(read_text(reference_file("nccl/nccl_info_channel_via_net_ib_roce_gid.txt")));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->env.at("NCCL_IB_GID_INDEX"), "3");
  ASSERT_EQ(r->channels.size(), 16u);
  const NcclLogChannel& c0 = r->channels[0];
  EXPECT_EQ(c0.host, "");  // the capture stripped the host name
  EXPECT_EQ(c0.pid, 22901u);
  EXPECT_EQ(c0.channel, 0u);
  EXPECT_EQ(c0.from_rank, 0u);
  EXPECT_EQ(c0.to_rank, 1u);
  EXPECT_EQ(c0.direction, "send");
  EXPECT_EQ(c0.transport, "NET/IB");
  EXPECT_EQ(c0.nic, 4u);
  EXPECT_FALSE(c0.gdrdma);
  EXPECT_EQ(r->channels[15].channel, 15u);
  EXPECT_EQ(r->channels[15].nic, 5u);
  EXPECT_EQ(std::count_if(r->channels.begin(), r->channels.end(),
                          [](const NcclLogChannel& c) { return c.nic == 4u; }),
            8);
  ASSERT_EQ(r->hosts.size(), 1u);
  EXPECT_EQ(r->hosts[0].rings_gdr, false);  // "use ring PXN 0 GDR 0"
  EXPECT_EQ(r->nccl_lines, 18u);
  EXPECT_EQ(r->unrecognised_lines, 0u);
}

TEST(NcclLogTest, RoceHcasPerHostWithRelaxedOrdering) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_tests185_dgxh100_roce_ro_two_hosts.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->versions, std::vector<std::string>{"2.19.3+cuda12.3"});
  ASSERT_EQ(r->hosts.size(), 2u);
  EXPECT_EQ(r->hosts[0].host, "dgxh100-4");
  EXPECT_EQ(r->hosts[1].host, "dgxh100-3");
  for (const auto& h : r->hosts) {
    ASSERT_EQ(h.ib_devices.size(), 2u) << h.host;
    EXPECT_EQ(h.ib_devices[0].name, "mlx5_10");
    EXPECT_EQ(h.ib_devices[1].name, "mlx5_11");
    EXPECT_EQ(h.ib_devices[1].index, 1u);
    EXPECT_EQ(h.ib_devices[1].port, 1u);
    EXPECT_EQ(h.ib_devices[1].link, "RoCE");
    EXPECT_TRUE(h.relaxed_ordering);
    EXPECT_EQ(h.network, "IB");
  }
  EXPECT_EQ(r->find_host("dgxh100-3")->oob, "enp220s0np0:11.1.128.128<0>");
  EXPECT_EQ(r->find_host("dgxh100-3")->pids, std::vector<std::uint64_t>{2152176});
  EXPECT_EQ(r->nccl_lines, 13u);
  EXPECT_EQ(r->unrecognised_lines, 9u);  // bootstrap, plugin, driver lines and "# Rank"
}

TEST(NcclLogTest, MpirunRankPrefixMixedIbAndRoceRingLinesAndWarning) {
  auto r =
      parse_nccl_log(parser_fixture("nccl_log_issue302_mpirun_rank_prefix_mixed_ib_roce_warn.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->hosts.size(), 1u);
  const NcclLogHost& h = r->hosts[0];
  EXPECT_EQ(h.host, "crow-ib-new-nccl-262-b-7");
  ASSERT_EQ(h.ib_devices.size(), 4u);
  EXPECT_EQ(h.ib_devices[0].name, "mlx5_3");
  EXPECT_EQ(h.ib_devices[0].link, "IB");
  EXPECT_EQ(h.ib_devices[2].name, "mlx5_2");
  EXPECT_EQ(h.ib_devices[2].link, "RoCE");
  EXPECT_EQ(h.oob, "eth0:10.100.72.18<0>");
  ASSERT_EQ(r->channels.size(), 2u);
  EXPECT_TRUE(r->channels[0].ring);
  EXPECT_EQ(r->channels[0].direction, "receive");
  EXPECT_EQ(r->channels[0].from_rank, 51u);
  EXPECT_EQ(r->channels[0].from_device, "3d000");
  EXPECT_EQ(r->channels[0].local_rank(), 56u);
  EXPECT_EQ(r->channels[0].nic, 2u);  // mlx5_2, the RoCE port
  EXPECT_EQ(r->channels[1].transport, "P2P/IPC");
  EXPECT_EQ(r->channels[1].direction, "");
  EXPECT_FALSE(r->channels[1].nic.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].location, "misc/ibvwrap.cc:284");
  EXPECT_EQ(r->warnings[0].message, "Call to ibv_modify_qp failed with error Invalid argument");
  EXPECT_EQ(r->warnings[0].pid, 7240u);
}

TEST(NcclLogTest, IrdmaRoceThroughTheIbextPlugin) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_tests227_irdma_ibext_v8.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->versions, std::vector<std::string>{"2.21.5+cuda12.4"});
  ASSERT_EQ(r->hosts.size(), 2u);
  for (const auto& h : r->hosts) {
    EXPECT_EQ(h.network, "IBext_v8") << h.host;
    ASSERT_EQ(h.ib_devices.size(), 2u);
    EXPECT_EQ(h.ib_devices[0].name, "irdma0");
    EXPECT_EQ(h.ib_devices[1].name, "irdma3");
    EXPECT_EQ(h.ib_devices[1].link, "RoCE");
  }
  EXPECT_EQ(r->find_host("ai-worker03")->oob, "eth0:172.16.207.69<0>");
}

TEST(NcclLogTest, OlderChannelLinesWithBusIdsAndGdrdma) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_issue707_a100_channels_gdrdma_busid.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->channels.size(), 12u);
  std::set<std::uint32_t> nics;
  for (const auto& c : r->channels) {
    EXPECT_TRUE(c.gdrdma);
    EXPECT_EQ(c.transport, "NET/IB");
    nics.insert(c.nic.value_or(99));
  }
  EXPECT_EQ(nics, (std::set<std::uint32_t>{0, 2, 4, 5}));
  const NcclLogChannel& c = r->channels[2];
  EXPECT_EQ(c.cuda_dev, 3u);
  EXPECT_EQ(c.channel, 1u);
  EXPECT_EQ(c.from_device, "ca000");
  EXPECT_EQ(c.to_device, "c7000");
  EXPECT_EQ(c.direction, "send");
  EXPECT_EQ(c.local_rank(), 3u);
  EXPECT_EQ(c.via, "NET/IB/2/GDRDMA");
  EXPECT_EQ(r->unrecognised_lines, 0u);
}

TEST(NcclLogTest, RanksFromInitComplete) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_issue1412_init_complete_16ranks.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->ranks.size(), 5u);
  for (const auto& rank : r->ranks) {
    EXPECT_TRUE(rank.init_complete);
    EXPECT_EQ(rank.nranks, 16u);
    EXPECT_EQ(rank.host, "swat1-04");
    EXPECT_EQ(rank.comm_id, "0x49bbd7790311d5eb");
  }
  auto zero = std::find_if(r->ranks.begin(), r->ranks.end(),
                           [](const NcclLogRank& rank) { return rank.rank == 0; });
  ASSERT_NE(zero, r->ranks.end());
  EXPECT_EQ(zero->bus_id, "7000");
  EXPECT_EQ(zero->cuda_dev, 0u);
  EXPECT_EQ(zero->comm, "0x8d57d40");
  EXPECT_EQ(r->unrecognised_lines, 3u);  // "Init timings"
}

TEST(NcclLogTest, GdrDisabledPerHcaBeforeInitCompletes) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_issue1537_roce_gdr_disabled.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const NcclLogHost* h = r->find_host("hostname1");
  ASSERT_NE(h, nullptr);
  ASSERT_EQ(h->gdr.size(), 2u);
  EXPECT_FALSE(h->gdr[0].enabled);
  EXPECT_EQ(h->gdr[0].hca_index, 0u);
  EXPECT_EQ(h->gdr[0].hca, "mlx5_0");
  EXPECT_EQ(h->gdr[1].hca, "mlx5_1");
  EXPECT_TRUE(h->relaxed_ordering);
  EXPECT_EQ(h->oob, "primaryip:10.10.10.10<0>");
  ASSERT_EQ(r->ranks.size(), 1u);
  EXPECT_FALSE(r->ranks[0].init_complete);  // "Init START"
  EXPECT_EQ(r->ranks[0].nranks, 16u);
  EXPECT_EQ(r->ranks[0].bus_id, "1c000");
}

TEST(NcclLogTest, GdrWithoutPeerMemoryModuleAndChannelsOfTwoHosts) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_issue899_gdr_no_module_channels_two_hosts.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->hosts.size(), 2u);
  const NcclLogHost& h = r->hosts[0];
  EXPECT_EQ(h.host, "21346d5cefce");
  ASSERT_EQ(h.gdr.size(), 3u);
  EXPECT_EQ(h.gdr[0].hca_index, 1u);
  EXPECT_EQ(h.gdr[0].note, "no module");
  EXPECT_EQ(r->hosts[1].host, "6a5a91752e39");
  EXPECT_EQ(r->channels.size(), 11u);
  EXPECT_TRUE(std::none_of(r->channels.begin(), r->channels.end(),
                           [](const NcclLogChannel& c) { return c.gdrdma; }));
}

TEST(NcclLogTest, SocketDevicesIbAndEnvironment) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_nvpeermem56_socket_and_ib_nccl247.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->versions, std::vector<std::string>{"2.4.7+cuda10.0"});
  EXPECT_EQ(r->env.at("NCCL_IB_DISABLE"), "0");
  const NcclLogHost* h = r->find_host("master_node");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->socket_devices, std::vector<std::string>{"ib0:192.168.11.1<0>"});
  ASSERT_EQ(h->ib_devices.size(), 1u);
  EXPECT_EQ(h->ib_devices[0].link, "IB");
  EXPECT_EQ(h->pids.size(), 4u);
}

TEST(NcclLogTest, GdrLevelFromEnvironmentAndGdrdmaChannels) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_aks36_gdr_level_sys_channels_gdrdma.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->env.at("NCCL_NET_GDR_LEVEL"), "SYS");
  ASSERT_EQ(r->channels.size(), 7u);
  const NcclLogChannel& last = r->channels.back();
  EXPECT_EQ(last.channel, 4u);
  EXPECT_EQ(last.from_rank, 5u);
  EXPECT_EQ(last.to_rank, 12u);
  EXPECT_EQ(last.nic, 4u);
  EXPECT_TRUE(last.gdrdma);
  EXPECT_EQ(r->unrecognised_lines, 1u);  // the `k logs ... | grep GDR` command
}

TEST(NcclLogTest, GidIndexZeroAndOneChannel) {
  auto r = parse_nccl_log(parser_fixture("nccl_log_issue1657_channel_net_ib_gid_index_0.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->env.at("NCCL_IB_GID_INDEX"), "0");
  ASSERT_EQ(r->channels.size(), 1u);
  EXPECT_EQ(r->channels[0].direction, "send");
  EXPECT_EQ(r->channels[0].nic, 0u);
  EXPECT_EQ(r->unrecognised_lines, 8u);
}

// Lines written from NCCL's format strings (net_ib.cc "GPU Direct RDMA %s for HCA %d '%s'",
// channel "via %s" of the socket and shared-memory transports), with a host:pid:tid prefix.
TEST(NcclLogTest, GdrEnabledSocketAndShmChannels) {
  auto r = parse_nccl_log(
      "node1:100:200 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'\n"
      "node1:100:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n"
      "node1:100:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[2] via SHM/direct/direct\n"
      "node1:100:200 [0] NCCL INFO Using network Socket\n"
      "job step finished\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const NcclLogHost& h = r->hosts.at(0);
  ASSERT_EQ(h.gdr.size(), 1u);
  EXPECT_TRUE(h.gdr[0].enabled);
  EXPECT_EQ(h.network, "Socket");
  EXPECT_EQ(r->channels.at(0).transport, "NET/Socket");
  EXPECT_EQ(r->channels.at(0).nic, 0u);
  EXPECT_EQ(r->channels.at(1).transport, "SHM");
  EXPECT_EQ(r->unrecognised_lines, 1u);
}

TEST(NcclLogTest, RejectsTextWithoutNcclLines) {
  EXPECT_EQ(parse_nccl_log("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_nccl_log(parser_fixture("dmesg_tail_ixgbe_up_mlx5_down_lkml.txt")).error().code,
            ErrorCode::Parse);
  EXPECT_EQ(
      parse_nccl_log(parser_fixture("lspci_vvvs_cx5ex_gen4_at_8gts_fdio_csit.txt")).error().code,
      ErrorCode::Parse);
  EXPECT_FALSE(parse_nccl_log("").ok());
}

TEST(NcclLogRegistryTest, KindIsRegisteredAndConverts) {
  EXPECT_TRUE(is_parser_kind("nccl-log"));
  auto json =
      parse_to_json("nccl-log", parser_fixture("nccl_log_tests185_dgxh100_roce_ro_two_hosts.txt"));
  ASSERT_TRUE(json.ok());
  EXPECT_EQ((*json)["hosts"][1]["ib_devices"][0]["name"], "mlx5_10");
  EXPECT_EQ((*json)["hosts"][1]["relaxed_ordering"], true);
}

}  // namespace
}  // namespace netdoctor::parsers
