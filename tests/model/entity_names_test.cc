#include "model/entity_names.h"

#include <gtest/gtest.h>

#include "model/fabric.h"

namespace netdoctor::model {
namespace {

TEST(EntityNames, MachinesNicsAndPortsFollowTheBundleSpec) {
  EXPECT_EQ(host_entity("node01"), "host:node01");
  EXPECT_EQ(switch_entity("leaf1"), "switch:leaf1");
  EXPECT_EQ(nic_entity("node01", "mlx5_0"), "nic:node01/mlx5_0");
  EXPECT_EQ(netdev_entity("node01", "ens1f0np0"), "netdev:node01/ens1f0np0");
  EXPECT_EQ(port_entity("leaf1", "Ethernet0"), "port:leaf1/Ethernet0");
}

TEST(EntityNames, ALinkIsNamedAlikeFromEitherEndWithoutKinds) {
  const auto a = link_entity(netdev_entity("node01", "eth0"), port_entity("leaf1", "Ethernet0"));
  EXPECT_EQ(a, "link:leaf1/Ethernet0~node01/eth0");
  EXPECT_EQ(link_entity(port_entity("leaf1", "Ethernet0"), netdev_entity("node01", "eth0")), a);
  EXPECT_EQ(link_entity("leaf1/Ethernet0", "node01/eth0"), a);  // bare ends as they are
}

TEST(EntityNames, TheKeepingKindsFormSortsWholeEnds) {
  EXPECT_EQ(link_entity_keeping_kinds("port:spine1/Ethernet0", "netdev:node01/eth0"),
            "link:netdev:node01/eth0~port:spine1/Ethernet0");
}

TEST(EntityNames, TheModelNamesItsEntitiesThroughThem) {
  Nic nic;
  nic.host = "node01";
  nic.device = "mlx5_0";
  nic.netdev = "eth0";
  nic.switch_name = "leaf1";
  nic.switch_port = "Ethernet0";
  EXPECT_EQ(nic.nic_entity(), nic_entity("node01", "mlx5_0"));
  EXPECT_EQ(nic.netdev_entity(), netdev_entity("node01", "eth0"));
  EXPECT_EQ(nic.port_entity(), port_entity("leaf1", "Ethernet0"));
  Host host;
  host.name = "node01";
  EXPECT_EQ(host.entity(), host_entity("node01"));
  Switch sw;
  sw.name = "leaf1";
  EXPECT_EQ(sw.entity(), switch_entity("leaf1"));
}

}  // namespace
}  // namespace netdoctor::model

namespace netdoctor::model {
namespace {

TEST(EntityNames, ReadBackIntoKindAndParts) {
  const EntityParts nic = parse_entity(nic_entity("gpu-a001", "mlx5_0"));
  EXPECT_EQ(nic.kind, EntityKind::Nic);
  EXPECT_EQ(nic.owner, "gpu-a001");
  EXPECT_EQ(nic.part, "mlx5_0");
  const EntityParts host = parse_entity(host_entity("gpu-a001"));
  EXPECT_EQ(host.kind, EntityKind::Host);
  EXPECT_EQ(host.owner, "gpu-a001");
  EXPECT_TRUE(host.part.empty());
  const EntityParts link = parse_entity(link_entity("port:leaf1/Ethernet0", "netdev:h/eth0"));
  EXPECT_EQ(link.kind, EntityKind::Link);
  EXPECT_EQ(link.owner, "h/eth0");
  EXPECT_EQ(link.part, "leaf1/Ethernet0");
  EXPECT_EQ(entity_kind(port_entity("leaf1", "Ethernet0")), EntityKind::Port);
  EXPECT_EQ(entity_kind(switch_entity("leaf1")), EntityKind::Switch);
  EXPECT_EQ(entity_kind("gpu-a001/mlx5_0"), EntityKind::Unknown);
  EXPECT_EQ(parse_entity("cable:x").kind, EntityKind::Unknown);
}

}  // namespace
}  // namespace netdoctor::model
