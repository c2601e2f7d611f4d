// ip address, ibv_devinfo / ibstat, rdma link, mlnx_qos, chronyc tracking, lldpcli.
#include <gtest/gtest.h>

#include "parsers/chronyc_tracking.h"
#include "parsers/ibv_devinfo.h"
#include "parsers/ip_address.h"
#include "parsers/lldpcli_json.h"
#include "parsers/mlnx_qos.h"
#include "parsers/rdma_link.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

TEST(IpAddressTest, ScenarioDetailedAddressList) {
  auto list = parse_ip_address(parser_fixture("scenario_ip_-d_address.txt"));
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->interfaces.size(), 6u);
  const auto* lo = list->find("lo");
  ASSERT_NE(lo, nullptr);
  EXPECT_EQ(lo->state, "UNKNOWN");
  EXPECT_EQ(lo->mtu, 65536u);
  const auto* nic = list->find("ens1f0np0");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->index, 3u);
  EXPECT_EQ(nic->mtu, 9000u);
  EXPECT_TRUE(nic->has_flag("LOWER_UP"));
  EXPECT_EQ(nic->mac, "0c:42:a1:6d:05:11");
  EXPECT_EQ(nic->parent_dev, "0000:1a:00.0");
  ASSERT_EQ(nic->addresses.size(), 2u);
  EXPECT_EQ(nic->addresses[0].address, "10.10.0.10");
  EXPECT_EQ(nic->addresses[0].prefix_len, 24u);
  EXPECT_EQ(nic->addresses[1].family, "inet6");
  EXPECT_EQ(nic->addresses[1].scope, "link");
}

TEST(IpAddressTest, ReferenceLinkShowWithPrompts) {
  auto list = parse_ip_address(read_text(reference_file("iplink/ip_link_show_cx_mtu9000.txt")));
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->interfaces.size(), 1u);
  EXPECT_EQ(list->interfaces[0].name, "enp4s0f0np0");
  EXPECT_EQ(list->interfaces[0].mtu, 9000u);
  EXPECT_EQ(list->interfaces[0].mac, "9c:dc:71:5f:d0:b0");
}

TEST(IpAddressTest, VlanSubinterfaceWithParent) {
  auto list = parse_ip_address(
      "7: vlan100@ens1f0np0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc noqueue state UP\n"
      "    link/ether 0c:42:a1:6d:05:11 brd ff:ff:ff:ff:ff:ff promiscuity 0\n"
      "    vlan protocol 802.1Q id 100 <REORDER_HDR> numtxqueues 1\n"
      "    inet 10.1.0.5/24 scope global vlan100\n");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->interfaces[0].name, "vlan100");
  EXPECT_EQ(list->interfaces[0].parent, "ens1f0np0");
  EXPECT_EQ(list->interfaces[0].vlan_id, 100u);
  EXPECT_FALSE(parse_ip_address("garbage\n").ok());
}

TEST(IbvDevinfoTest, Cx6InfiniBandWithLspciPreamble) {
  auto info = parse_ibv_devinfo(read_text(reference_file("ibv/ibv_devinfo_cx6_hdr_ib.txt")));
  ASSERT_TRUE(info.ok());
  ASSERT_EQ(info->devices.size(), 1u);
  const auto& dev = info->devices[0];
  EXPECT_EQ(dev.hca_id, "mlx5_0");
  EXPECT_EQ(dev.fw_ver, "20.41.1000");
  EXPECT_EQ(dev.vendor_part_id, 4123u);
  EXPECT_EQ(dev.board_id, "MT_0000000222");
  ASSERT_EQ(dev.ports.size(), 1u);
  EXPECT_EQ(dev.ports[0].state, "PORT_ACTIVE");
  EXPECT_EQ(dev.ports[0].state_num, 4u);
  EXPECT_EQ(dev.ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(dev.ports[0].port_lid, 35u);
}

TEST(IbvDevinfoTest, DgxSparkFourRoceHcasWithDownPorts) {
  auto info =
      parse_ibv_devinfo(read_text(reference_file("ibv/ibv_devinfo_dgxspark_cx7_roce_4hca.txt")));
  ASSERT_TRUE(info.ok());
  ASSERT_EQ(info->devices.size(), 4u);
  EXPECT_EQ(info->devices[2].hca_id, "roceP2p1s0f0");
  EXPECT_EQ(info->devices[0].board_id, "NVD0000000087");
  EXPECT_EQ(info->devices[0].fw_ver, "28.45.4028");
  const auto& down = info->devices[1].ports.at(0);
  EXPECT_EQ(down.state, "PORT_DOWN");
  EXPECT_EQ(down.state_num, 1u);
  EXPECT_EQ(down.active_mtu_bytes, 1024u);
  EXPECT_EQ(down.max_mtu_bytes, 4096u);
  EXPECT_EQ(down.link_layer, "Ethernet");
}

TEST(IbvDevinfoTest, IbstatCx5RoceWithSpaces) {
  auto info = parse_ibv_devinfo(read_text(reference_file("ibv/ibstat_cx5_roce_ethernet.txt")));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->source, "ibstat");
  const auto& dev = info->devices.at(0);
  EXPECT_EQ(dev.hca_id, "rdma0");
  EXPECT_EQ(dev.fw_ver, "16.35.3006");
  EXPECT_EQ(dev.vendor_part_id, 4120u);
  EXPECT_EQ(dev.ports.at(0).rate_gbps, 100.0);
  EXPECT_EQ(dev.ports.at(0).state_num, 4u);
  EXPECT_EQ(dev.ports.at(0).phys_state_num, 5u);
  EXPECT_EQ(dev.ports.at(0).link_layer, "Ethernet");
}

TEST(IbvDevinfoTest, ScenarioVerboseWithGidsAndSpeed) {
  auto info = parse_ibv_devinfo(parser_fixture("scenario_ibv_devinfo_-v.txt"));
  ASSERT_TRUE(info.ok());
  ASSERT_EQ(info->devices.size(), 4u);
  for (const auto& dev : info->devices) {
    const auto& port = dev.ports.at(0);
    EXPECT_EQ(port.active_width_lanes, 4u);
    EXPECT_EQ(port.active_speed_gbps, 50.0);
    EXPECT_EQ(port.rate_gbps, 200.0);  // every device, not only the last
    ASSERT_EQ(port.gids.size(), 1u);
    EXPECT_EQ(port.gids[0].index, 3u);
    EXPECT_EQ(port.gids[0].type, "RoCE v2");
  }
  EXPECT_EQ(info->devices[0].ports[0].gids[0].gid, "::ffff:10.10.0.10");
}

TEST(IbvDevinfoTest, ExpandedTabsMarkdownIndentAndSingleSpaceLines) {
  auto info = parse_ibv_devinfo(
      "    hca_id:    mlx4_0\n        fw_ver:                2.42.5000\n"
      "        phys_port_cnt:         2\n                port:   1\n"
      "                        state:                  PORT_ACTIVE (4)\n"
      "                        active_mtu:             2048 (4)\n \n"
      "                port:   2\n                        state:   PORT_DOWN (1)\n");
  ASSERT_TRUE(info.ok());
  const auto& dev = info->devices.at(0);
  EXPECT_EQ(dev.fw_ver, "2.42.5000");
  ASSERT_EQ(dev.ports.size(), 2u);
  EXPECT_EQ(dev.ports[0].active_mtu_bytes, 2048u);
  EXPECT_EQ(dev.ports[1].state, "PORT_DOWN");
  EXPECT_EQ(parse_ibv_devinfo("No IB devices found\n").error().code, ErrorCode::Parse);
}

TEST(RdmaLinkTest, ScenarioAndInfiniBandLines) {
  auto links = parse_rdma_link(parser_fixture("scenario_rdma_link_show.txt"));
  ASSERT_TRUE(links.ok());
  ASSERT_EQ(links->links.size(), 4u);
  EXPECT_EQ(links->links[2].device, "mlx5_2");
  EXPECT_EQ(links->links[2].port, 1u);
  EXPECT_EQ(links->links[2].state, "ACTIVE");
  EXPECT_EQ(links->links[2].physical_state, "LINK_UP");
  EXPECT_EQ(links->links[2].netdev, "ens3f0np0");
  auto ib = parse_rdma_link(
      "link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 3 sm_lid 1 lmc 0 state DOWN "
      "physical_state DISABLED\n");
  ASSERT_TRUE(ib.ok());
  EXPECT_EQ(ib->links[0].netdev, "");
  EXPECT_EQ(ib->links[0].fields.at("lid"), "3");
  EXPECT_FALSE(parse_rdma_link("hello\n").ok());
}

TEST(MlnxQosTest, FirmwareControlledReferenceWithVendorTsaAndTrailingSpaces) {
  auto qos =
      parse_mlnx_qos(read_text(reference_file("qos/mlnx_qos_cx5_firmware_controlled_dcbx.txt")));
  ASSERT_TRUE(qos.ok());
  EXPECT_EQ(qos->dcbx_mode, "Firmware controlled");
  EXPECT_EQ(qos->trust_state, "dscp");
  EXPECT_EQ(qos->priority_of_dscp(26), 3u);
  EXPECT_EQ(qos->priority_of_dscp(0), 0u);
  EXPECT_EQ(qos->receive_buffer_bytes,
            (std::vector<std::uint64_t>{130944, 130944, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(qos->max_buffer_size, 262016u);
  EXPECT_EQ(qos->cable_len, 7u);
  ASSERT_EQ(qos->pfc_enabled.size(), 8u);
  EXPECT_EQ(qos->pfc_enabled_on(3), true);
  EXPECT_EQ(qos->pfc_enabled_on(4), false);
  EXPECT_EQ(qos->pfc_buffer.at(3), 1u);
  ASSERT_EQ(qos->tcs.size(), 3u);
  EXPECT_EQ(qos->tcs[0].bw_percent, 50u);
  EXPECT_EQ(qos->tcs[0].priorities, (std::vector<std::uint32_t>{0, 1, 2, 4, 5, 7}));
  EXPECT_EQ(qos->tcs[2].tsa, "vendor");
  EXPECT_FALSE(qos->tcs[2].bw_percent.has_value());
}

TEST(MlnxQosTest, ScenarioOsControlled) {
  auto qos = parse_mlnx_qos(parser_fixture("scenario_mlnx_qos_-i_ens1f0np0.txt"));
  ASSERT_TRUE(qos.ok());
  EXPECT_EQ(qos->dcbx_mode, "OS controlled");
  EXPECT_FALSE(qos->max_buffer_size.has_value());
  EXPECT_EQ(qos->tcs.size(), 8u);
  EXPECT_EQ(qos->pfc_enabled_on(3), true);
  EXPECT_FALSE(qos->pfc_enabled_on(9).has_value());
  EXPECT_FALSE(parse_mlnx_qos("Reference ID : 0\n").ok());
}

TEST(ChronyTrackingTest, LinodeSlowClockIsNegative) {
  auto t =
      parse_chronyc_tracking(read_text(reference_file("clock/chronyc_tracking_linode_2026.txt")));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->reference_id, "AC69C04A");
  EXPECT_EQ(t->reference_name, "172-105-192-74.ip.linodeusercontent.com");
  EXPECT_EQ(t->stratum, 3u);
  EXPECT_DOUBLE_EQ(*t->system_time_offset_s, -0.000003264);
  EXPECT_DOUBLE_EQ(*t->last_offset_s, -0.000043458);
  EXPECT_DOUBLE_EQ(*t->frequency_ppm, 6.725);  // "fast"
  EXPECT_DOUBLE_EQ(*t->residual_freq_ppm, -19.823);
  EXPECT_DOUBLE_EQ(*t->root_delay_s, 0.002041159);
  EXPECT_DOUBLE_EQ(*t->update_interval_s, 2.0);
  EXPECT_EQ(t->ref_time, "Mon Mar 09 06:00:25 2026");
  EXPECT_TRUE(t->synchronised);
}

TEST(ChronyTrackingTest, LocalSynchronisedFastAndUnsynchronised) {
  auto fast =
      parse_chronyc_tracking(read_text(reference_file("local/chronyc_tracking_synchronised.txt")));
  ASSERT_TRUE(fast.ok());
  EXPECT_DOUBLE_EQ(*fast->system_time_offset_s, 0.000006463);
  EXPECT_DOUBLE_EQ(*fast->last_offset_s, 0.000000260);
  EXPECT_TRUE(fast->synchronised);
  auto unsync = parse_chronyc_tracking(
      read_text(reference_file("local/chronyc_tracking_unsynchronised.txt")));
  ASSERT_TRUE(unsync.ok());
  EXPECT_EQ(unsync->reference_id, "00000000");
  EXPECT_EQ(unsync->reference_name, "");
  EXPECT_EQ(unsync->stratum, 0u);
  EXPECT_EQ(unsync->leap_status, "Not synchronised");
  EXPECT_FALSE(unsync->synchronised);
  auto scenario = parse_chronyc_tracking(parser_fixture("scenario_chronyc_tracking.txt"));
  ASSERT_TRUE(scenario.ok());
  EXPECT_DOUBLE_EQ(*scenario->system_time_offset_s, -0.000366024);
  EXPECT_FALSE(parse_chronyc_tracking("NIC statistics:\n").ok());
}

TEST(LldpcliJsonTest, ReferenceListFormWithTwoNeighbours) {
  auto n = parse_lldpcli_json(read_text(reference_file("lldp/lldpcli_json_two_ifaces_veth.json")));
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(n->neighbors.size(), 2u);
  EXPECT_EQ(n->neighbors[0].local_interface, "vB1");
  EXPECT_EQ(n->neighbors[0].chassis_name, "leaf1");
  EXPECT_EQ(n->neighbors[0].chassis_id, "ba:bc:ef:82:1f:08");
  EXPECT_EQ(n->neighbors[0].port_descr, "vA1");
  EXPECT_EQ(n->neighbors[1].port_id, "9a:85:91:c2:b1:05");
  EXPECT_EQ(n->neighbors[1].ttl, 120u);
}

TEST(LldpcliJsonTest, ScenarioAndSingleObjectForm) {
  auto scenario = parse_lldpcli_json(parser_fixture("scenario_lldpcli_show_neighbors.json"));
  ASSERT_TRUE(scenario.ok());
  EXPECT_EQ(scenario->neighbors.at(0).port_id, "Ethernet0");
  EXPECT_EQ(scenario->neighbors.at(0).mgmt_ips, std::vector<std::string>{"10.255.0.1"});
  auto single = parse_lldpcli_json(
      R"({"lldp": {"interface": {"eth0": {"via": "LLDP", "chassis": {"sw1": {"id": )"
      R"({"type": "mac", "value": "aa:bb"}, "mgmt-ip": ["10.0.0.1", "fe80::1"]}},)"
      R"( "port": {"id": {"type": "ifname", "value": "Ethernet8"}, "ttl": "120"}}}}})");
  ASSERT_TRUE(single.ok());
  ASSERT_EQ(single->neighbors.size(), 1u);
  EXPECT_EQ(single->neighbors[0].local_interface, "eth0");
  EXPECT_EQ(single->neighbors[0].chassis_name, "sw1");
  EXPECT_EQ(single->neighbors[0].mgmt_ips.size(), 2u);
  EXPECT_EQ(single->neighbors[0].port_id, "Ethernet8");
  auto none = parse_lldpcli_json(R"({"lldp": {}})");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->neighbors.empty());
  EXPECT_EQ(parse_lldpcli_json("{\"lldp\": [").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_lldpcli_json("{\"other\": 1}").error().code, ErrorCode::Parse);
}

}  // namespace
}  // namespace netdoctor::parsers
