// The RoCE GID table: from sysfs (zero entries skipped, types and netdevs attached, malformed
// files named as problems) and, where sysfs has none, from the host's show_gids (real outputs of
// shared/reference/ibv/).
#include <gtest/gtest.h>

#include <algorithm>

#include "model/loader.h"
#include "model/nic_gids.h"
#include "tests/model/mem_bundle.h"
#include "tests/support/test_paths.h"

namespace netdoctor::model {
namespace {

using testing::MemBundle;

const std::string k_port = "/sys/class/infiniband/mlx5_0/ports/1/";

void add_nic(MemBundle& b, const std::string& host, const std::string& device = "mlx5_0") {
  b.time(host, "0", 100.0);
  b.file(host, "0", "/sys/class/infiniband/" + device + "/ports/1/link_layer", "Ethernet\n");
}

void add_gid(MemBundle& b, const std::string& host, int index, const std::string& gid,
             const std::string& type, const std::string& ndev = "ens1f0np0") {
  b.file(host, "0", k_port + "gids/" + std::to_string(index), gid + "\n");
  if (!type.empty()) {
    b.file(host, "0", k_port + "gid_attrs/types/" + std::to_string(index), type + "\n");
    b.file(host, "0", k_port + "gid_attrs/ndevs/" + std::to_string(index), ndev + "\n");
  }
}

const std::string k_zero = "0000:0000:0000:0000:0000:0000:0000:0000";
const std::string k_local = "fe80:0000:0000:0000:0e42:a1ff:fead:479a";
const std::string k_mapped = "0000:0000:0000:0000:0000:ffff:0a60:531a";

std::size_t problems_naming(const Fabric& fabric, const std::string& part) {
  return static_cast<std::size_t>(
      std::count_if(fabric.problems.begin(), fabric.problems.end(), [&](const Problem& p) {
        return p.source == "sysfs gids" && p.error.context.find(part) != std::string::npos;
      }));
}

// Link-local v1/v2 at 0/1, the IPv4 address v1/v2 at 2/3.
void expect_usual_layout(const Nic& nic, const std::string& ipv4, const std::string& ndev) {
  ASSERT_EQ(nic.gids.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const Gid& gid = nic.gids[static_cast<std::size_t>(i)];
    EXPECT_EQ(gid.index, i);
    EXPECT_EQ(gid.type, i % 2 == 0 ? k_gid_roce_v1 : k_gid_roce_v2);
    EXPECT_EQ(gid.ipv4, i < 2 ? "" : ipv4);
    EXPECT_EQ(gid.ndev, ndev);
  }
}

TEST(Gids, GidTextGivesTheMappedIpv4AndTellsZeroEntries) {
  EXPECT_EQ(parse_gid_text(k_mapped)->ipv4, "10.96.83.26");
  EXPECT_TRUE(parse_gid_text(k_local)->ipv4.empty());
  EXPECT_FALSE(parse_gid_text(k_local)->zero);
  EXPECT_TRUE(parse_gid_text(k_zero)->zero);
  EXPECT_FALSE(parse_gid_text("fe80::1").has_value());  // compressed: not how GIDs print
  EXPECT_FALSE(parse_gid_text("0000:0000:0000:0000:0000:ffff:0a60:531g").has_value());
  EXPECT_FALSE(parse_gid_text("00000:000:0000:0000:0000:ffff:0a60:531a").has_value());
}

TEST(Gids, SysfsTableSkipsZeroEntriesAndKeepsTypesAndNetdevsByIndex) {
  MemBundle b;
  add_nic(b, "node01");
  add_gid(b, "node01", 0, k_local, "IB/RoCE v1");
  add_gid(b, "node01", 1, k_local, "RoCE v2");
  add_gid(b, "node01", 2, k_mapped, "IB/RoCE v1");
  add_gid(b, "node01", 3, k_mapped, "RoCE v2");
  add_gid(b, "node01", 4, k_zero, "");
  add_gid(b, "node01", 10, k_zero, "");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->problems.empty()) << fabric->problems.front().error.describe();
  const Nic& nic = fabric->hosts.at(0).nics.at(0);
  expect_usual_layout(nic, "10.96.83.26", "ens1f0np0");
  EXPECT_EQ(nic.gids[3].gid, k_mapped);
  EXPECT_TRUE(nic.gids[0].ipv4.empty());
  EXPECT_EQ(nic.sources.at("sysfs gids").availability, Availability::Observed);
}

TEST(Gids, MalformedGidAndTypeFilesAreProblemsNamingTheFile) {
  MemBundle b;
  add_nic(b, "node02");
  add_gid(b, "node02", 0, k_local, "IB/RoCE v1");
  add_gid(b, "node02", 1, "not a gid", "RoCE v2");
  add_gid(b, "node02", 3, k_mapped, "RoCE v3");
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_EQ(problems_naming(*fabric, "gids/1"), 1u);
  EXPECT_EQ(problems_naming(*fabric, "gid_attrs/types/3"), 1u);
  const Nic& nic = fabric->hosts.at(0).nics.at(0);
  ASSERT_EQ(nic.gids.size(), 2u);  // the rest still loads; the bad type stays unknown
  EXPECT_EQ(nic.gids[1].index, 3);
  EXPECT_TRUE(nic.gids[1].type.empty());
  EXPECT_EQ(nic.sources.at("sysfs gids").availability, Availability::Malformed);
}

TEST(Gids, ShowGidsFillsTheTableWhereSysfsHasNone) {
  MemBundle b;
  add_nic(b, "node03");
  b.command("node03", "0", {"show_gids"},
            netdoctor::testing::read_text(
                netdoctor::testing::reference_file("ibv/show_gids_rdma0_tabs.txt")));
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->problems.empty()) << fabric->problems.front().error.describe();
  const Nic& nic = fabric->hosts.at(0).nics.at(0);
  expect_usual_layout(nic, "192.168.211.242", "rdma0");
  EXPECT_EQ(nic.sources.at("show_gids").availability, Availability::Observed);
  EXPECT_EQ(fabric->hosts[0].sources.at("show_gids").availability, Availability::Observed);
  EXPECT_EQ(nic.sources.at("sysfs gids").availability, Availability::Absent);
}

TEST(Gids, ShowGidsOfSeveralDevicesGoesToEachNic) {
  MemBundle b;
  add_nic(b, "node04", "hrn3_bond_0");
  add_nic(b, "node04", "mlx5_bond_0");
  b.command("node04", "0", {"show_gids"},
            netdoctor::testing::read_text(
                netdoctor::testing::reference_file("ibv/show_gids_bond_mlx5_and_huawei_hrn3.txt")));
  auto fabric = load_fabric(b.build());
  ASSERT_TRUE(fabric.ok());
  const auto& nics = fabric->hosts.at(0).nics;
  ASSERT_EQ(nics.size(), 2u);
  const Nic& huawei = nics[0].device == "hrn3_bond_0" ? nics[0] : nics[1];
  const Nic& mlx5 = nics[0].device == "hrn3_bond_0" ? nics[1] : nics[0];
  ASSERT_EQ(huawei.gids.size(), 2u);
  EXPECT_EQ(huawei.gids[1].ipv4, "27.105.180.3");
  EXPECT_EQ(huawei.gids[1].type, k_gid_roce_v2);
  // Two hosts' outputs pasted together: both mlx5_bond_0 tables land on the one device.
  EXPECT_EQ(mlx5.gids.size(), 6u);
  EXPECT_EQ(mlx5.gids[2].ipv4, "10.96.83.26");
}

TEST(Gids, WithheldSourcesLeaveTheTableEmpty) {
  MemBundle b;
  add_nic(b, "node05");
  add_gid(b, "node05", 3, k_mapped, "RoCE v2");
  LoadOptions options;
  options.only_sources = std::set<std::string>{"sysfs port"};
  auto fabric = load_fabric(b.build(), options);
  ASSERT_TRUE(fabric.ok());
  EXPECT_TRUE(fabric->hosts.at(0).nics.at(0).gids.empty());
}

}  // namespace
}  // namespace netdoctor::model
