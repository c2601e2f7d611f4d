// lspci and dmesg on real captures kept in tests/parsers/data. Where each came from:
//
// lspci_vvvs_cx5ex_gen4_at_8gts_fdio_csit.txt
//   FDio/csit docs/report/introduction/methodology_mellanox_nic.rst, an older revision of the
//   file (code index id 10704964224): `lspci -vvvs 5e:00.0` of a ConnectX-5 Ex (MCX556A-EDAT,
//   PCIe Gen4 x16 card) trained at 8GT/s; an lspci that prints no "(downgraded)" mark; rst
//   indentation (4 spaces before the tabs) kept.
// lspci_vvv_cx7_gen5_rtx_gpu_highpoint_puget_wrx90.txt
//   luigifcruz/stelline docs/quickstart/validated-hardware/server/puget-threadripper-pro-wrx90.md
//   @ 5abfb58163aa40435812fa5e5a06c6eff46a8917: the `sudo lspci -vvv -s` blocks of GPU #0,
//   the ConnectX-7 and the HighPoint carrier, markdown fences dropped.
// lspci_vvv_bcm57416_email_quoted_wrapped_netdev.txt, dmesg_kernlog_bnxt_en_tx_timeout_...txt
//   netdev list, "Re: [RFC] bnxt_en TX timeout detected, starting reset task, flapping link
//   after", Jakub Kicinski 2023-08-16 quoting Jinpu Wang (Message-ID
//   <20230816200120.603cc65a@kernel.org>): "> " quoted, indentation lost, long lines wrapped.
//   The kern.log excerpt is the first 84 lines of the quoted log.
// lspci_grep_width_cx6_ocp3_fragment.txt, dmesg_mlx5_cx6_ocp3_pcie_limited_x{4,16}_slot.txt
//   code index id 20528609102 (hardware notes "Mellanox cx6 ocp3网卡", 2022-03-10): a ConnectX-6
//   OCP3 card in an x4 and in an x16 slot.
// dmesg_tail_ixgbe_up_mlx5_down_lkml.txt
//   linux-kernel list, Arnaldo Carvalho de Melo 2024-12-04 (Message-ID <Z1CVTJ5jzIyNiB1R@x1>),
//   `dmesg | tail` between prompts.
// dmesg_T_mlx5_link_down_nvme_oops_linux_block.txt
//   linux-block list, NVMe/RDMA failover with PI report (code index id 44906434295), `dmesg -T`.
// dmesg_i40e_xl710_link_up_ellipsis.txt
//   code index id 9682718091: an i40e XL710 boot excerpt with "..." elisions.
// dmesg_aer_badtlp_injected_quoted_linux_pci.txt
//   linux-pci list, review of the RCEC/RCiEP AER series (code index id 12543891027): an
//   aer_inject log, quoted.
// dmesg_mlx5_cmd_exec_timeout_email_wrapped_netdev.txt
//   netdev list report on a devlink cqe_compress_type change (code index id 32154351839):
//   ACCESS_REG command timeout, wrapped by the mail client.
// dmesg_journal_pcieport_aer_receiver_error.txt
//   code index id 38164459641 (laptop setup notes, "PCIe error in dmesg"): journal lines.
// dmesg_grep_mlx5_probe_failed_tinycore.txt
//   GitHub issue PeterSuh-Q3/tinycore-redpill#9 (2023-11-17): `dmesg | grep mlx5`.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "parsers/dmesg.h"
#include "parsers/lspci.h"
#include "parsers/pcie.h"
#include "parsers/registry.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<const KernelLogEvent*> events_of(const KernelLog& log, KernelEventKind kind) {
  std::vector<const KernelLogEvent*> out;
  for (const auto& ev : log.events) {
    if (ev.kind == kind) {
      out.push_back(&ev);
    }
  }
  return out;
}

TEST(PcieTest, AddressesAreNormalisedAndValidated) {
  EXPECT_EQ(normalize_pci_address("3b:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_pci_address("0000:3B:00.1"), "0000:3b:00.1");
  EXPECT_EQ(normalize_pci_address("1ac5:00:02.0"), "1ac5:00:02.0");
  EXPECT_EQ(normalize_pci_address("10000:e1:00.0"), "10000:e1:00.0");
  EXPECT_EQ(normalize_pci_address("1:05:00.0"), "0001:05:00.0");
  for (const char* bad : {"3b:00.8", "3b:0.0", "eth0", "0000:3b:00.0:", "zz:00.0", ":3b:00.0"}) {
    EXPECT_FALSE(normalize_pci_address(bad).has_value()) << bad;
  }
}

TEST(PcieTest, GenerationsAndTheBandwidthRule) {
  EXPECT_EQ(pcie_generation(2.5), 1u);
  EXPECT_EQ(pcie_generation(5), 2u);
  EXPECT_EQ(pcie_generation(8), 3u);
  EXPECT_EQ(pcie_generation(16), 4u);
  EXPECT_EQ(pcie_generation(32), 5u);
  EXPECT_EQ(pcie_generation(64), 6u);
  EXPECT_FALSE(pcie_generation(10).has_value());
  // 8b/10b for gen1/2.
  EXPECT_DOUBLE_EQ(*pcie_bandwidth_gbit_s(2.5, 16), 32.0);
  EXPECT_DOUBLE_EQ(*pcie_bandwidth_gbit_s(5, 1), 4.0);
  // 128b/130b for gen3-5: the kernel's "63.008" and "252.048" round the per-lane rate first.
  EXPECT_NEAR(*pcie_bandwidth_gbit_s(8, 8), 63.0154, 1e-4);
  EXPECT_NEAR(*pcie_bandwidth_gbit_s(16, 16), 252.0615, 1e-4);
  EXPECT_NEAR(*pcie_bandwidth_gbit_s(32, 16), 504.1231, 1e-4);
  // 242/256 FLIT for gen6.
  EXPECT_DOUBLE_EQ(*pcie_bandwidth_gbit_s(64, 16), 968.0);
  EXPECT_FALSE(pcie_bandwidth_gbit_s(8, 0).has_value());
  EXPECT_FALSE(pcie_bandwidth_gbit_s(7, 8).has_value());
  EXPECT_DOUBLE_EQ(*parse_gt_s("Speed 2.5GT/s (downgraded)"), 2.5);
  EXPECT_DOUBLE_EQ(*parse_gt_s("8.0 GT/s PCIe x8"), 8.0);
  EXPECT_FALSE(parse_gt_s("Speed unknown").has_value());
  EXPECT_EQ(parse_lane_width("x16 (ok)"), 16u);
  EXPECT_FALSE(parse_lane_width("16").has_value());
}

TEST(LspciTest, ConnectX5ExGen4CardTrainedAtGen3WithoutDowngradeMarks) {
  auto r = parse_lspci(parser_fixture("lspci_vvvs_cx5ex_gen4_at_8gts_fdio_csit.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->devices.size(), 1u);
  const LspciDevice& d = r->devices[0];
  EXPECT_EQ(d.address, "0000:5e:00.0");
  EXPECT_EQ(d.class_name, "Ethernet controller");
  EXPECT_EQ(d.description, "Mellanox Technologies MT28800 Family [ConnectX-5 Ex]");
  EXPECT_EQ(d.subsystem, "Mellanox Technologies MT28800 Family [ConnectX-5 Ex]");
  ASSERT_TRUE(d.link_capability && d.link_status);
  EXPECT_DOUBLE_EQ(*d.link_capability->speed_gt_s, 16.0);
  EXPECT_EQ(d.link_capability->width, 16u);
  EXPECT_EQ(d.link_capability->generation, 4u);
  EXPECT_NEAR(*d.link_capability->bandwidth_gbit_s, 252.06, 0.01);
  EXPECT_DOUBLE_EQ(*d.link_status->speed_gt_s, 8.0);
  EXPECT_EQ(d.link_status->width, 16u);
  EXPECT_EQ(d.link_status->generation, 3u);
  EXPECT_NEAR(*d.link_status->bandwidth_gbit_s, 126.03, 0.01);
  // This lspci prints no "(downgraded)": the slower link is found by comparing with LnkCap.
  EXPECT_FALSE(d.link_status->speed_downgraded);
  EXPECT_TRUE(d.link_degraded);
  EXPECT_EQ(d.kernel_driver, "mlx5_core");
  EXPECT_EQ(d.kernel_modules, "mlx5_core");
  EXPECT_EQ(d.product_name, "CX556A - ConnectX-5 QSFP28");
  EXPECT_EQ(d.part_number, "MCX556A-EDAT");
  EXPECT_EQ(d.serial_number, "MT1945X00360");
  EXPECT_EQ(d.vpd.at("V0"), "PCIeGen4 x16");
  EXPECT_TRUE(d.link_capability2.empty());
  EXPECT_TRUE(d.link_status2.starts_with("Current De-emphasis Level: -6dB"));
  EXPECT_TRUE(has(d.capabilities, "[48] Vital Product Data"));
  EXPECT_TRUE(has(d.lines, "Capabilities: [420 v1] #25"));
  EXPECT_EQ(r->other_lines, std::vector<std::string>{"$ sudo lspci -vvvs 5e:00.0"});
  EXPECT_EQ(r->find("5e:00.0"), &r->devices[0]);
}

TEST(LspciTest, ConnectX7Gen5FullLinkBesideDowngradedGpuAndNarrowedController) {
  auto r = parse_lspci(parser_fixture("lspci_vvv_cx7_gen5_rtx_gpu_highpoint_puget_wrx90.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->devices.size(), 3u);
  const LspciDevice* cx7 = r->find("0000:21:00.0");
  ASSERT_NE(cx7, nullptr);
  EXPECT_EQ(cx7->description, "Mellanox Technologies MT2910 Family [ConnectX-7]");
  EXPECT_DOUBLE_EQ(*cx7->link_status->speed_gt_s, 32.0);
  EXPECT_EQ(cx7->link_status->width, 16u);
  EXPECT_EQ(cx7->link_status->generation, 5u);
  EXPECT_NEAR(*cx7->link_status->bandwidth_gbit_s, 504.12, 0.01);
  EXPECT_DOUBLE_EQ(*cx7->max_supported_speed_gt_s, 32.0);
  EXPECT_FALSE(cx7->link_degraded);
  EXPECT_EQ(cx7->part_number, "MCX755106AS-HEAT");
  EXPECT_EQ(cx7->serial_number, "MT2421600CDE");
  EXPECT_EQ(cx7->vpd.at("V0"), "PCIeGen5 x16");
  EXPECT_EQ(cx7->kernel_driver, "mlx5_core");

  const LspciDevice* gpu = r->find("c1:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->class_name, "VGA compatible controller");
  EXPECT_EQ(gpu->description, "NVIDIA Corporation AD102GL [RTX 6000 Ada Generation]");
  EXPECT_EQ(gpu->revision, "a1");  // "(rev a1) (prog-if 00 [VGA controller])"
  EXPECT_DOUBLE_EQ(*gpu->link_status->speed_gt_s, 2.5);
  EXPECT_TRUE(gpu->link_status->speed_downgraded);
  EXPECT_FALSE(gpu->link_status->width_downgraded);
  EXPECT_DOUBLE_EQ(*gpu->link_status->bandwidth_gbit_s, 32.0);
  EXPECT_TRUE(gpu->link_degraded);
  EXPECT_EQ(gpu->kernel_driver, "nvidia");

  const LspciDevice* raid = r->find("0000:11:00.0");
  ASSERT_NE(raid, nullptr);
  EXPECT_EQ(raid->revision, "01");
  EXPECT_EQ(raid->link_capability->width, 2u);
  EXPECT_EQ(raid->link_status->width, 1u);
  EXPECT_TRUE(raid->link_status->width_downgraded);
  EXPECT_DOUBLE_EQ(*raid->link_status->bandwidth_gbit_s, 4.0);
  EXPECT_TRUE(raid->link_degraded);
  EXPECT_TRUE(raid->kernel_driver.empty());
  EXPECT_TRUE(has(r->other_lines, "[sudo] password for sonata:"));
}

TEST(LspciTest, QuotedBroadcomBlockWithLostIndentationAndWrappedHeader) {
  auto r = parse_lspci(parser_fixture("lspci_vvv_bcm57416_email_quoted_wrapped_netdev.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->devices.size(), 1u);
  const LspciDevice& d = r->devices[0];
  EXPECT_EQ(d.address, "0000:45:00.0");
  // The mail client cut the header line: the rest is kept as the block's first line.
  EXPECT_EQ(d.description, "Broadcom Inc. and subsidiaries BCM57416");
  EXPECT_EQ(d.lines.at(0), "NetXtreme-E Dual-Media 10G RDMA Ethernet Controller (rev 01)");
  EXPECT_DOUBLE_EQ(*d.link_status->speed_gt_s, 8.0);
  EXPECT_EQ(d.link_status->width, 8u);
  EXPECT_FALSE(d.link_status->speed_downgraded);  // "(ok)"
  EXPECT_FALSE(d.link_degraded);
  EXPECT_NEAR(*d.link_status->bandwidth_gbit_s, 63.015, 0.001);
  EXPECT_DOUBLE_EQ(*d.max_supported_speed_gt_s, 8.0);
  EXPECT_EQ(d.kernel_driver, "bnxt_en");
  EXPECT_TRUE(has(d.capabilities, "[13c v1] Device Serial Number 3c-ec-ef-ff-fe-91-5c-92"));
  EXPECT_EQ(r->other_lines, std::vector<std::string>{"sudo lspci  -vvv -s 45:00.0"});
}

TEST(LspciTest, GrepFragmentIsOneDeviceWithoutAddress) {
  auto r = parse_lspci(parser_fixture("lspci_grep_width_cx6_ocp3_fragment.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->devices.size(), 1u);
  const LspciDevice& d = r->devices[0];
  EXPECT_EQ(d.address, "");
  EXPECT_DOUBLE_EQ(*d.link_capability->speed_gt_s, 16.0);
  EXPECT_DOUBLE_EQ(*d.link_status->speed_gt_s, 8.0);
  EXPECT_TRUE(d.link_status->speed_downgraded);
  EXPECT_FALSE(d.link_status->width_downgraded);  // "Width x16 (ok)"
  EXPECT_TRUE(d.link_degraded);
  EXPECT_EQ(r->other_lines.size(), 2u);  // the stray kernel line and the prompt
}

// Both marks on one LnkSta: the two lines of `lspci -s 01:00.0 -vvvvv` in a kernel bugzilla
// notification mail (code index id 32089247416; the LnkCap line was wrapped after "Exit").
TEST(LspciTest, SpeedAndWidthBothDowngraded) {
  auto r = parse_lspci(
      "                LnkCap: Port #0, Speed 16GT/s, Width x16, ASPM L0s L1, Exit\n"
      "                LnkSta: Speed 8GT/s (downgraded), Width x8 (downgraded)\n");
  ASSERT_TRUE(r.ok());
  const LspciDevice& d = r->devices.at(0);
  EXPECT_TRUE(d.link_status->speed_downgraded);
  EXPECT_TRUE(d.link_status->width_downgraded);
  EXPECT_NEAR(*d.link_status->bandwidth_gbit_s, 63.015, 0.001);
  EXPECT_NEAR(*d.link_capability->bandwidth_gbit_s, 252.06, 0.01);
}

// `lspci -nn -v | grep Mellanox` on an Azure VM (code index id 3046969078): numeric class and
// ids, a 4-hex-digit domain, a revision.
TEST(LspciTest, NumericIdsAndDomain) {
  auto r = parse_lspci(
      "1ac5:00:02.0 Ethernet controller [0200]: Mellanox Technologies MT27710 Family "
      "[ConnectX-4 Lx Virtual Function] [15b3:1016] (rev 80)\n"
      "   Subsystem: Mellanox Technologies Device [15b3:0190]\n");
  ASSERT_TRUE(r.ok());
  const LspciDevice& d = r->devices.at(0);
  EXPECT_EQ(d.address, "1ac5:00:02.0");
  EXPECT_EQ(d.class_name, "Ethernet controller");
  EXPECT_EQ(d.class_code, "0200");
  EXPECT_EQ(d.description, "Mellanox Technologies MT27710 Family [ConnectX-4 Lx Virtual Function]");
  EXPECT_EQ(d.vendor_device, "15b3:1016");
  EXPECT_EQ(d.revision, "80");
  EXPECT_EQ(d.subsystem, "Mellanox Technologies Device [15b3:0190]");
  EXPECT_FALSE(d.link_status.has_value());
  EXPECT_FALSE(d.link_degraded);
}

TEST(LspciTest, RejectsOtherText) {
  EXPECT_EQ(parse_lspci("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_EQ(
      parse_lspci(parser_fixture("dmesg_mlx5_cx6_ocp3_pcie_limited_x16_slot.txt")).error().code,
      ErrorCode::Parse);
  EXPECT_EQ(
      parse_lspci(read_text(reference_file("ethtool/i40e_25g_ethtool_settings.txt"))).error().code,
      ErrorCode::Parse);
  EXPECT_FALSE(parse_lspci("").ok());
}

TEST(DmesgTest, Mlx5InX4SlotLimitedTo2Point5GtX4ThenLinkDown) {
  auto r = parse_dmesg(parser_fixture("dmesg_mlx5_cx6_ocp3_pcie_limited_x4_slot.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->lines.size(), 11u);
  EXPECT_EQ(r->other_lines, std::vector<std::string>{"sudo dmesg | grep mlx5_core"});
  auto bw = events_of(*r, KernelEventKind::PcieBandwidth);
  ASSERT_EQ(bw.size(), 1u);
  const KernelLogLine& line = r->lines[bw[0]->entry];
  EXPECT_DOUBLE_EQ(*line.timestamp_s, 1.438142);
  EXPECT_EQ(line.source, "mlx5_core");
  EXPECT_EQ(line.device, "0000:04:00.0");
  EXPECT_TRUE(bw[0]->bandwidth_limited);
  EXPECT_DOUBLE_EQ(*bw[0]->available_gbit_s, 8.0);
  EXPECT_DOUBLE_EQ(*bw[0]->link_speed_gt_s, 2.5);
  EXPECT_EQ(bw[0]->link_width, 4u);
  EXPECT_EQ(bw[0]->limiting_device, "0000:00:1b.4");
  EXPECT_DOUBLE_EQ(*bw[0]->capable_gbit_s, 252.048);
  EXPECT_DOUBLE_EQ(*bw[0]->capable_speed_gt_s, 16.0);
  EXPECT_EQ(bw[0]->capable_width, 16u);
  auto down = events_of(*r, KernelEventKind::LinkDown);
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(r->lines[down[0]->entry].interface, "enp4s0np0");
  EXPECT_DOUBLE_EQ(*r->lines[down[0]->entry].timestamp_s, 5.203057);
  EXPECT_EQ(r->unclassified, 9u);
}

TEST(DmesgTest, Mlx5InX16SlotTrainedAtGen3ThenLinkUp) {
  auto r = parse_dmesg(parser_fixture("dmesg_mlx5_cx6_ocp3_pcie_limited_x16_slot.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto bw = events_of(*r, KernelEventKind::PcieBandwidth);
  ASSERT_EQ(bw.size(), 1u);
  EXPECT_DOUBLE_EQ(*bw[0]->available_gbit_s, 126.016);
  EXPECT_DOUBLE_EQ(*bw[0]->link_speed_gt_s, 8.0);
  EXPECT_EQ(bw[0]->link_width, 16u);
  EXPECT_EQ(bw[0]->limiting_device, "0000:00:01.0");
  EXPECT_DOUBLE_EQ(*bw[0]->capable_gbit_s, 252.048);
  auto up = events_of(*r, KernelEventKind::LinkUp);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_DOUBLE_EQ(*r->lines[up[0]->entry].timestamp_s, 21.129045);
  EXPECT_EQ(r->lines[up[0]->entry].interface, "enp1s0np0");
  EXPECT_EQ(r->lines[up[0]->entry].message, "Link up");
  EXPECT_EQ(events_of(*r, KernelEventKind::LinkDown).size(), 1u);
}

TEST(DmesgTest, KernLogPrefixedWrappedBnxtTxTimeouts) {
  auto r = parse_dmesg(parser_fixture("dmesg_kernlog_bnxt_en_tx_timeout_email_wrapped_netdev.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->lines.size(), 38u);
  const KernelLogLine& first = r->lines[0];
  EXPECT_EQ(first.level, "kern.err");
  EXPECT_EQ(first.timestamp_text, "Aug 15 12:21:39");
  EXPECT_EQ(first.host, "ps502b-104");
  EXPECT_DOUBLE_EQ(*first.timestamp_s, 325978.631877);
  EXPECT_EQ(first.source, "bnxt_en");
  EXPECT_EQ(first.device, "0000:45:00.0");
  EXPECT_EQ(first.interface, "eth0");
  EXPECT_EQ(first.message, "TX timeout detected, starting reset task!");
  // A ring dump wrapped twice (after "bnxt_en" and inside "{...}") is one message again.
  EXPECT_EQ(r->lines[2].message,
            "[0]: rx{fw_ring: 1 prod: 135} rx_agg{fw_ring: 9 agg_prod: 31f sw_agg_prod: 31f}");
  EXPECT_EQ(r->lines[2].line_number, 5u);
  auto errors = events_of(*r, KernelEventKind::DriverError);
  ASSERT_EQ(errors.size(), 7u);
  EXPECT_EQ(errors[0]->keyword, "timeout");
  EXPECT_EQ(std::count_if(errors.begin(), errors.end(),
                          [](const KernelLogEvent* e) { return e->keyword == "failed"; }),
            5);
  EXPECT_TRUE(events_of(*r, KernelEventKind::PcieAer).empty());  // "[0]: tx{...}" is no AER
  EXPECT_EQ(r->unclassified, 31u);
  EXPECT_TRUE(r->other_lines.empty());
}

TEST(DmesgTest, DmesgTailMixesNicLinkEventsWithOtherSubsystems) {
  auto r = parse_dmesg(parser_fixture("dmesg_tail_ixgbe_up_mlx5_down_lkml.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->lines.size(), 10u);
  auto up = events_of(*r, KernelEventKind::LinkUp);
  ASSERT_EQ(up.size(), 1u);
  const KernelLogLine& ixgbe = r->lines[up[0]->entry];
  EXPECT_EQ(ixgbe.source, "ixgbe");
  EXPECT_EQ(ixgbe.interface, "enp5s0");
  EXPECT_DOUBLE_EQ(*up[0]->link_speed_gbit_s, 10.0);
  auto down = events_of(*r, KernelEventKind::LinkDown);
  ASSERT_EQ(down.size(), 2u);
  EXPECT_EQ(r->lines[down[1]->entry].device, "0000:01:00.1");
  EXPECT_EQ(r->lines[down[1]->entry].interface, "enp1s0f1np1");
  EXPECT_EQ(r->lines[3].source, "input");
  EXPECT_EQ(r->unclassified, 7u);
  EXPECT_EQ(r->other_lines.size(), 2u);  // the two prompts
}

TEST(DmesgTest, HumanTimestampsOfDmesgT) {
  auto r = parse_dmesg(parser_fixture("dmesg_T_mlx5_link_down_nvme_oops_linux_block.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->lines.size(), 10u);
  EXPECT_EQ(r->lines[0].timestamp_text, "Tue Feb 14 18:48:25 2023");
  EXPECT_FALSE(r->lines[0].timestamp_s.has_value());
  auto down = events_of(*r, KernelEventKind::LinkDown);
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(r->lines[down[0]->entry].device, "0000:02:00.0");
  EXPECT_EQ(r->lines[down[0]->entry].interface, "ens2f0np0");
  EXPECT_EQ(r->other_lines, (std::vector<std::string>{"...", "..."}));
}

TEST(DmesgTest, I40eNicLinkIsUp40GbpsFullDuplex) {
  auto r = parse_dmesg(parser_fixture("dmesg_i40e_xl710_link_up_ellipsis.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto up = events_of(*r, KernelEventKind::LinkUp);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_DOUBLE_EQ(*up[0]->link_speed_gbit_s, 40.0);
  EXPECT_EQ(up[0]->duplex, "full");
  EXPECT_EQ(r->lines[up[0]->entry].interface, "eth0");
  EXPECT_EQ(r->lines[up[0]->entry].device, "0000:d8:00.0");
  EXPECT_EQ(r->lines[0].source, "i40e");
  EXPECT_EQ(r->unclassified, 7u);
}

TEST(DmesgTest, AerBadTlpDetailTakesTheSeverityOfItsBusError) {
  auto r = parse_dmesg(parser_fixture("dmesg_aer_badtlp_injected_quoted_linux_pci.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto aer = events_of(*r, KernelEventKind::PcieAer);
  ASSERT_EQ(aer.size(), 5u);
  EXPECT_EQ(aer[2]->severity, "Corrected");
  EXPECT_EQ(aer[2]->error_type, "Data Link Layer");
  EXPECT_EQ(aer[4]->error_name, "BadTLP");
  EXPECT_EQ(aer[4]->severity, "Corrected");
  EXPECT_EQ(r->lines[aer[4]->entry].device, "0000:e9:00.0");
  EXPECT_EQ(r->lines[aer[0]->entry].source, "pcieport");
  EXPECT_EQ(r->unclassified, 0u);
}

TEST(DmesgTest, JournalKernelLinesBesideAnotherDaemonsLine) {
  auto r = parse_dmesg(parser_fixture("dmesg_journal_pcieport_aer_receiver_error.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->lines.size(), 3u);
  EXPECT_EQ(r->lines[0].host, "laptop64");
  EXPECT_EQ(r->lines[0].timestamp_text, "Feb 21 16:09:01");
  EXPECT_TRUE(r->other_lines.at(0).starts_with("Feb 21 16:08:58 localhost systemd-udevd[75]:"));
  auto aer = events_of(*r, KernelEventKind::PcieAer);
  ASSERT_EQ(aer.size(), 3u);
  EXPECT_EQ(aer[2]->error_name, "Receiver Error");
  EXPECT_EQ(aer[2]->severity, "Corrected");
  EXPECT_EQ(aer[2]->error_type, "Physical Layer");
}

TEST(DmesgTest, Mlx5CommandTimeoutWrappedByTheMailClient) {
  auto r = parse_dmesg(parser_fixture("dmesg_mlx5_cmd_exec_timeout_email_wrapped_netdev.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->lines.size(), 3u);
  EXPECT_EQ(r->lines[1].line_number, 5u);
  EXPECT_EQ(r->lines[1].message,
            "wait_func:1189:(pid 72061): ACCESS_REG(0x805) timeout. Will cause a leak of a "
            "command resource");
  EXPECT_EQ(r->lines[0].message,
            "wait_func_handle_exec_timeout:1159:(pid 72061): cmd[0]: ACCESS_REG(0x805) No done "
            "completion");
  auto errors = events_of(*r, KernelEventKind::DriverError);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[1]->keyword, "timeout");
}

TEST(DmesgTest, Mlx5ProbeFailures) {
  auto r = parse_dmesg(parser_fixture("dmesg_grep_mlx5_probe_failed_tinycore.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto errors = events_of(*r, KernelEventKind::DriverError);
  ASSERT_EQ(errors.size(), 3u);
  const KernelLogLine& probe = r->lines[errors[2]->entry];
  EXPECT_EQ(probe.source, "mlx5_core");
  EXPECT_EQ(probe.device, "0000:03:00.0");  // named in the message only
  EXPECT_EQ(probe.message, "probe of 0000:03:00.0 failed with error -22");
  EXPECT_EQ(errors[2]->keyword, "failed");
}

// Messages written from the drivers' format strings (mlx5 health.c and cmd.c, ice
// ice_print_link_msg, bnxt_en bnxt_report_link, the PCI core's bandwidth notice) and the
// "link state changed to down" form, with the prefixes dmesg adds.
TEST(DmesgTest, DriverMessageFormats) {
  auto r = parse_dmesg(
      "[   17.982092] mlx5_core 0000:41:00.0: poll_health:852:(pid 0): device's health "
      "compromised - reached miss count\n"
      "[   66.816635] mlx5_core 0000:03:00.0: wait_func:964:(pid 112): ENABLE_HCA(0x104) "
      "timeout. Will cause a leak of a command resource\n"
      "[   80.000001] ice 0000:31:00.0 ens1f0: NIC Link is up 100 Gbps Full Duplex, Requested "
      "FEC: RS-FEC, Negotiated FEC: RS-FEC, Autoneg Advertised: On, Autoneg Negotiated: False, "
      "Flow Control: None\n"
      "[   81.000002] bnxt_en 0000:45:00.0 eth0: NIC Link is Up, 100000 Mbps full duplex, Flow "
      "control: none\n"
      "[   82.000003] ionic 0000:b5:00.0 enp181s0: link state changed to down\n"
      "<6>[   83.000004] mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth (8.0 GT/s "
      "PCIe x8 link)\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->events.size(), 6u);
  EXPECT_EQ(r->events[0].keyword, "health");
  EXPECT_EQ(r->events[1].keyword, "timeout");
  EXPECT_EQ(r->events[2].kind, KernelEventKind::LinkUp);
  EXPECT_DOUBLE_EQ(*r->events[2].link_speed_gbit_s, 100.0);
  EXPECT_EQ(r->lines[2].interface, "ens1f0");
  EXPECT_DOUBLE_EQ(*r->events[3].link_speed_gbit_s, 100.0);  // 100000 Mbps
  EXPECT_EQ(r->events[4].kind, KernelEventKind::LinkDown);
  const KernelLogEvent& bw = r->events[5];
  EXPECT_FALSE(bw.bandwidth_limited);
  EXPECT_DOUBLE_EQ(*bw.available_gbit_s, 63.008);
  EXPECT_DOUBLE_EQ(*bw.capable_gbit_s, 63.008);
  EXPECT_DOUBLE_EQ(*bw.link_speed_gt_s, 8.0);
  EXPECT_EQ(bw.link_width, 8u);
  EXPECT_EQ(r->lines[5].level, "<6>");
}

TEST(DmesgTest, RejectsTextWithoutKernelLines) {
  EXPECT_EQ(parse_dmesg("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_EQ(parse_dmesg("Hello world\nthis is [not] a log: really\n").error().code,
            ErrorCode::Parse);
  EXPECT_EQ(parse_dmesg(parser_fixture("lspci_vvvs_cx5ex_gen4_at_8gts_fdio_csit.txt")).error().code,
            ErrorCode::Parse);
  EXPECT_EQ(parse_dmesg(read_text(reference_file("nccl/nccl_info_channel_via_net_ib_roce_gid.txt")))
                .error()
                .code,
            ErrorCode::Parse);
  EXPECT_FALSE(parse_dmesg("").ok());
}

TEST(KernelPcieRegistryTest, KindsAreRegisteredAndConvert) {
  for (const char* kind : {"lspci", "dmesg"}) {
    EXPECT_TRUE(is_parser_kind(kind)) << kind;
  }
  auto dmesg =
      parse_to_json("dmesg", parser_fixture("dmesg_mlx5_cx6_ocp3_pcie_limited_x16_slot.txt"));
  ASSERT_TRUE(dmesg.ok());
  EXPECT_EQ((*dmesg)["events"][0]["kind"], "pcie_bandwidth");
  EXPECT_EQ((*dmesg)["events"][0]["limiting_device"], "0000:00:01.0");
  auto lspci =
      parse_to_json("lspci", parser_fixture("lspci_vvvs_cx5ex_gen4_at_8gts_fdio_csit.txt"));
  ASSERT_TRUE(lspci.ok());
  EXPECT_EQ((*lspci)["devices"][0]["link_status"]["generation"], 3);
  EXPECT_EQ((*lspci)["devices"][0]["link_degraded"], true);
}

}  // namespace
}  // namespace netdoctor::parsers
