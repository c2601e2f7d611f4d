// model/ib_names: the spec's InfiniBand entity names (spec/bundle.md, "Entity names").
#include <gtest/gtest.h>

#include "model/ib_names.h"

namespace netdoctor::model {
namespace {

std::string base(std::string_view description) {
  return parse_switch_description(description).name;
}

TEST(IbNaming, SwitchDescriptionLosesPrefixAndModelSuffix) {
  EXPECT_EQ(base("MF0;leaf-03:MQM8700/U1"), "leaf-03");
  EXPECT_EQ(base("MF0;ib-switch-sequoia:MQM9700/U1"), "ib-switch-sequoia");
  EXPECT_EQ(base("spine-1:Q3400_RA/U2"), "spine-1");
  EXPECT_EQ(base("Quantum-2 Mellanox Technologies"), "Quantum-2 Mellanox Technologies");
  EXPECT_EQ(base("5FB0405-leaf-IB01 "), "5FB0405-leaf-IB01");
  EXPECT_EQ(parse_switch_description("MF0;leaf-03:MQM8700/U1").model, "MQM8700");
  EXPECT_EQ(parse_switch_description("Quantum-2 Mellanox Technologies").model, "");
}

TEST(IbNaming, CaDescriptionOfTheLinuxDefaultForm) {
  auto ca = parse_ca_description("node01 mlx5_0");
  ASSERT_TRUE(ca.has_value());
  EXPECT_EQ(ca->host, "node01");
  EXPECT_EQ(ca->device, "mlx5_0");
  EXPECT_FALSE(parse_ca_description("Mellanox Technologies Aggregation Node").has_value());
  EXPECT_FALSE(parse_ca_description("node01").has_value());
  EXPECT_EQ(ib_guid_name(0xabc), "0x0000000000000abc");
}

TEST(IbNaming, DuplicateNamesFallBackToGuids) {
  std::vector<IbNode> nodes;
  auto add = [&nodes](IbNodeKind kind, std::uint64_t guid, std::string desc) {
    IbNode n;
    n.kind = kind;
    n.guid = guid;
    n.description = std::move(desc);
    nodes.push_back(std::move(n));
  };
  add(IbNodeKind::Switch, 0x10, "Quantum-2 Mellanox Technologies");
  add(IbNodeKind::Switch, 0x11, "Quantum-2 Mellanox Technologies");
  add(IbNodeKind::Switch, 0x12, "MF0;leaf-01:MQM8700/U1");
  add(IbNodeKind::Switch, 0x13, "");
  add(IbNodeKind::Ca, 0x20, "localhost mlx5_0");
  add(IbNodeKind::Ca, 0x21, "localhost mlx5_0");
  add(IbNodeKind::Ca, 0x22, "node01 mlx5_0");
  name_ib_nodes(nodes);
  EXPECT_EQ(nodes[0].name, "0x0000000000000010");
  EXPECT_EQ(nodes[1].name, "0x0000000000000011");
  EXPECT_EQ(nodes[2].name, "leaf-01");
  EXPECT_EQ(nodes[2].model, "MQM8700");
  EXPECT_EQ(nodes[3].name, "0x0000000000000013");
  EXPECT_EQ(nodes[4].name, "0x0000000000000020");
  EXPECT_TRUE(nodes[4].host.empty());
  EXPECT_EQ(nodes[4].entity(), "nic:0x0000000000000020");
  EXPECT_EQ(nodes[6].name, "node01/mlx5_0");
  EXPECT_EQ(nodes[6].entity(), "nic:node01/mlx5_0");
  EXPECT_EQ(nodes[2].port_entity(7), "port:leaf-01/7");
}

}  // namespace
}  // namespace netdoctor::model
