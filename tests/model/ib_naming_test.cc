// model/ib_naming: the spec's InfiniBand entity names (spec/bundle.md, "Entity names").
#include "model/ib_naming.h"

#include <gtest/gtest.h>

namespace netdoctor::model {
namespace {

TEST(IbNaming, SwitchDescriptionLosesPrefixAndModelSuffix) {
  EXPECT_EQ(ib_switch_base_name("MF0;leaf-03:MQM8700/U1"), "leaf-03");
  EXPECT_EQ(ib_switch_base_name("MF0;ib-switch-sequoia:MQM9700/U1"), "ib-switch-sequoia");
  EXPECT_EQ(ib_switch_base_name("spine-1:Q3400_RA/U2"), "spine-1");
  EXPECT_EQ(ib_switch_base_name("Quantum-2 Mellanox Technologies"),
            "Quantum-2 Mellanox Technologies");
  EXPECT_EQ(ib_switch_base_name("5FB0405-leaf-IB01 "), "5FB0405-leaf-IB01");
  EXPECT_EQ(ib_switch_base_name("name:with-colon"), "name:with-colon");  // no /<unit>
  EXPECT_EQ(ib_model_from_description("MF0;leaf-03:MQM8700/U1"), "MQM8700");
  EXPECT_EQ(ib_model_from_description("Quantum-2 Mellanox Technologies"), "");
}

TEST(IbNaming, CaDescriptionOfTheLinuxDefaultForm) {
  IbCaName ca = ib_ca_name("node01 mlx5_0");
  EXPECT_EQ(ca.host, "node01");
  EXPECT_EQ(ca.device, "mlx5_0");
  EXPECT_TRUE(ib_ca_name("Mellanox Technologies Aggregation Node").host.empty());
  EXPECT_TRUE(ib_ca_name("node01").host.empty());
  EXPECT_EQ(ib_node_name(IbNodeKind::Ca, 0x1, "node01 mlx5_0", true), "node01/mlx5_0");
  EXPECT_EQ(ib_node_name(IbNodeKind::Ca, 0x1, "one two three", true), "0x0000000000000001");
  EXPECT_EQ(ib_node_name(IbNodeKind::Switch, 0xabc, "", true), "0x0000000000000abc");
  EXPECT_EQ(ib_node_name(IbNodeKind::Switch, 0xabc, "MF0;sw:X/U1", false), "0x0000000000000abc");
}

TEST(IbNaming, DuplicateNamesFallBackToGuidsAndNamedNodesKeepTheirs) {
  IbFabric ib;
  auto add = [&ib](IbNodeKind kind, std::uint64_t guid, std::string desc, std::string name) {
    IbNode n;
    n.kind = kind;
    n.guid = guid;
    n.description = std::move(desc);
    n.name = std::move(name);
    ib.nodes.push_back(std::move(n));
  };
  add(IbNodeKind::Switch, 0x10, "Quantum-2 Mellanox Technologies", "");
  add(IbNodeKind::Switch, 0x11, "Quantum-2 Mellanox Technologies", "");
  add(IbNodeKind::Switch, 0x12, "MF0;leaf-01:MQM8700/U1", "");
  add(IbNodeKind::Switch, 0x13, "MF0;kept:MQM8700/U1", "chosen-by-loader");
  add(IbNodeKind::Ca, 0x20, "localhost mlx5_0", "");
  add(IbNodeKind::Ca, 0x21, "localhost mlx5_0", "");
  add(IbNodeKind::Ca, 0x22, "node01 mlx5_0", "");
  name_ib_nodes(ib);
  EXPECT_EQ(ib.nodes[0].name, "0x0000000000000010");
  EXPECT_EQ(ib.nodes[1].name, "0x0000000000000011");
  EXPECT_EQ(ib.nodes[2].name, "leaf-01");
  EXPECT_EQ(ib.nodes[3].name, "chosen-by-loader");
  EXPECT_EQ(ib.nodes[4].name, "0x0000000000000020");
  EXPECT_TRUE(ib.nodes[4].host.empty());
  EXPECT_EQ(ib.nodes[4].entity(), "nic:0x0000000000000020");
  EXPECT_EQ(ib.nodes[6].name, "node01/mlx5_0");
  EXPECT_EQ(ib.nodes[6].entity(), "nic:node01/mlx5_0");
  EXPECT_EQ(ib.nodes[2].port_entity(7), "port:leaf-01/7");
}

}  // namespace
}  // namespace netdoctor::model
