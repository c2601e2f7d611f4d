#include "plan/plan_check.h"

#include <gtest/gtest.h>

#include <string>

namespace netdoctor::plan {
namespace {

model::SwitchPort port(const std::string& name, double gbps, const std::string& peer = "",
                       const std::string& peer_port = "",
                       model::LinkState oper = model::LinkState::Up) {
  model::SwitchPort p;
  p.name = name;
  p.speed_gbps = gbps;
  p.oper = oper;
  p.admin = model::LinkState::Up;
  p.peer_device = peer;
  p.peer_port = peer_port;
  return p;
}

// Two leaves and two spines: "good" has 8 x 200G down and 4 x 400G up (2 per spine) = 1:1;
// "bad" has 16 x 200G down and 2 x 400G up (1 per spine) = 3.2 : 0.8 = 4:1.
model::Fabric two_leaf_fabric() {
  model::Fabric f;
  f.name = "hand-built";
  model::Switch good;
  good.name = "good";
  for (int i = 0; i < 8; ++i) {
    good.ports.push_back(port("Ethernet" + std::to_string(i * 4), 200, "ga" + std::to_string(i / 4),
                              "eth" + std::to_string(i % 4)));
  }
  good.ports.push_back(port("Ethernet256", 400, "spine1", "Ethernet0"));
  good.ports.push_back(port("Ethernet264", 400, "spine2", "Ethernet0"));
  good.ports.push_back(port("Ethernet272", 400, "spine1", "Ethernet8"));
  good.ports.push_back(port("Ethernet280", 400, "spine2", "Ethernet8"));
  model::Switch bad;
  bad.name = "bad";
  for (int i = 0; i < 16; ++i) {
    bad.ports.push_back(port("Ethernet" + std::to_string(i * 4), 200, "hb" + std::to_string(i / 4),
                             "eth" + std::to_string(i % 4)));
  }
  bad.ports.push_back(port("Ethernet256", 400, "spine1", "Ethernet16"));
  bad.ports.push_back(port("Ethernet264", 400, "spine2", "Ethernet16"));
  model::Switch spine1;
  spine1.name = "spine1";
  spine1.ports.push_back(port("Ethernet0", 400, "good", "Ethernet256"));
  spine1.ports.push_back(port("Ethernet8", 400, "good", "Ethernet272"));
  spine1.ports.push_back(port("Ethernet16", 400, "bad", "Ethernet256"));
  model::Switch spine2;
  spine2.name = "spine2";
  spine2.ports.push_back(port("Ethernet0", 400, "good", "Ethernet264"));
  spine2.ports.push_back(port("Ethernet8", 400, "good", "Ethernet280"));
  spine2.ports.push_back(port("Ethernet16", 400, "bad", "Ethernet264"));
  f.switches = {bad, good, spine1, spine2};
  return f;
}

const LeafFigures* leaf(const CheckReport& r, const std::string& name) {
  for (const LeafFigures& l : r.leaves) {
    if (l.name == name) {
      return &l;
    }
  }
  return nullptr;
}

std::vector<CheckFinding> with_code(const CheckReport& r, const std::string& code) {
  std::vector<CheckFinding> out;
  for (const CheckFinding& f : r.findings) {
    if (f.code == code) {
      out.push_back(f);
    }
  }
  return out;
}

TEST(PlanCheck, ReportsEachLeafsRealOversubscriptionAndFlagsTheFourToOneLeaf) {
  const CheckReport r = check_fabric(two_leaf_fabric(), {});
  ASSERT_EQ(r.leaves.size(), 2u);
  ASSERT_EQ(r.spines.size(), 2u);
  const LeafFigures* good = leaf(r, "good");
  const LeafFigures* bad = leaf(r, "bad");
  ASSERT_TRUE(good && bad);
  EXPECT_EQ(good->downlinks, 8);
  EXPECT_EQ(good->uplinks, 4);
  EXPECT_DOUBLE_EQ(*good->oversubscription, (8 * 200.0) / (4 * 400.0));  // 1:1
  EXPECT_EQ(bad->downlinks, 16);
  EXPECT_EQ(bad->uplinks, 2);
  EXPECT_DOUBLE_EQ(*bad->oversubscription, (16 * 200.0) / (2 * 400.0));  // 4:1
  const auto over = with_code(r, "oversubscribed");
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].entity, "switch:bad");
  EXPECT_EQ(over[0].severity, Severity::Problem);
  EXPECT_NE(over[0].message.find("4:1"), std::string::npos);
  // Both leaves reach both spines; the spare figure cannot be known from in-use ports only.
  EXPECT_TRUE(with_code(r, "missing-link").empty());
  EXPECT_TRUE(with_code(r, "spare-below-target").empty());
  EXPECT_FALSE(good->spare_fraction.has_value());
}

TEST(PlanCheck, LooserTargetAcceptsTheFourToOneLeaf) {
  CheckTargets targets;
  targets.oversubscription = 4.0;
  const CheckReport r = check_fabric(two_leaf_fabric(), targets);
  EXPECT_TRUE(with_code(r, "oversubscribed").empty());
}

TEST(PlanCheck, LeafMissingASpineIsFlaggedAsMissingLink) {
  model::Fabric f = two_leaf_fabric();
  // bad loses its link to spine2 on both ends.
  f.switches[0].ports.back().oper = model::LinkState::Down;
  f.switches[0].ports.back().peer_device.clear();
  f.switches[3].ports.back().oper = model::LinkState::Down;
  f.switches[3].ports.back().peer_device.clear();
  const CheckReport r = check_fabric(f, {});
  const auto missing = with_code(r, "missing-link");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].entity, "switch:bad");
  EXPECT_NE(missing[0].message.find("spine2"), std::string::npos);
  // 16 x 200G : 1 x 400G = 8:1 now; and one listed port is free, so spare is measurable.
  EXPECT_DOUBLE_EQ(*leaf(r, "bad")->oversubscription, 8.0);
  ASSERT_TRUE(leaf(r, "bad")->spare_fraction.has_value());
  EXPECT_DOUBLE_EQ(*leaf(r, "bad")->spare_fraction, 1.0 / 18.0);
  EXPECT_EQ(with_code(r, "spare-below-target").size(), 1u);
}

TEST(PlanCheck, UplinkSeenOnlyFromTheSpineStillCounts) {
  model::Fabric f = two_leaf_fabric();
  for (model::SwitchPort& p : f.switches[1].ports) {  // good: no LLDP towards spines
    if (p.peer_device.rfind("spine", 0) == 0) {
      p.peer_device.clear();
      p.peer_port.clear();
    }
  }
  const CheckReport r = check_fabric(f, {});
  EXPECT_EQ(leaf(r, "good")->uplinks, 4);
  EXPECT_DOUBLE_EQ(*leaf(r, "good")->oversubscription, 1.0);
}

TEST(PlanCheck, SpeedMismatchBetweenLinkEndsNamesTheLink) {
  model::Fabric f = two_leaf_fabric();
  f.switches[2].ports[0].speed_gbps = 200;  // spine1/Ethernet0 runs 200G, good/Ethernet256 400G
  const CheckReport r = check_fabric(f, {});
  const auto mismatch = with_code(r, "speed-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].entity, "link:port:good/Ethernet256~port:spine1/Ethernet0");
}

TEST(PlanCheck, HostNicSlowerThanItsLeafPortIsAMismatch) {
  model::Fabric f = two_leaf_fabric();
  model::Host host;
  host.name = "ga0";
  model::Nic nic;
  nic.host = "ga0";
  nic.device = "mlx5_0";
  nic.netdev = "eth0";
  nic.speed_gbps = 100;
  nic.switch_name = "good";
  nic.switch_port = "Ethernet0";
  host.nics.push_back(nic);
  f.hosts.push_back(host);
  const CheckReport r = check_fabric(f, {});
  const auto mismatch = with_code(r, "speed-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].entity, "link:netdev:ga0/eth0~port:good/Ethernet0");
}

TEST(PlanCheck, AgainstAPlanReportsMissingUplinksWrongSpeedsAndSpare) {
  FabricInputs in;
  in.nodes = 4;
  in.gpus_per_node = 4;
  in.nic_gbps = 200;
  in.leaf_ports = 16;
  in.leaf_port_gbps = 400;
  in.nodes_per_leaf = 2;  // 8 downlinks (4 ports) + 4 uplinks per leaf
  in.spines = 2;
  in.spare = 0.2;
  auto design = size_fabric(in);
  ASSERT_TRUE(design.ok()) << design.error().describe();
  ASSERT_EQ(design->leaf.uplinks, 4);
  CheckTargets targets;
  targets.plan = *design;
  const CheckReport r = check_fabric(two_leaf_fabric(), targets);
  // bad: 2 of 4 planned uplinks, 16 host links where 8 are planned.
  bool missing_bad = false;
  for (const auto& f : with_code(r, "missing-link")) {
    missing_bad = missing_bad || f.entity == "switch:bad";
  }
  EXPECT_TRUE(missing_bad);
  EXPECT_EQ(with_code(r, "extra-link").size(), 1u);
  // good uses 8/2 + 4 = 8 of 16 ports: 50 % spare; bad uses 16/2 + 2 = 10: 37.5 %.
  EXPECT_DOUBLE_EQ(*leaf(r, "good")->spare_fraction, 0.5);
  EXPECT_DOUBLE_EQ(*leaf(r, "bad")->spare_fraction, 6.0 / 16.0);
  EXPECT_TRUE(with_code(r, "spare-below-target").empty());

  model::Fabric slow = two_leaf_fabric();
  slow.switches[1].ports[0].speed_gbps = 100;  // good/Ethernet0 at 100G, plan says 200G NICs
  const CheckReport r2 = check_fabric(slow, targets);
  bool flagged = false;
  for (const auto& f : with_code(r2, "speed-mismatch")) {
    flagged = flagged || f.entity == "port:good/Ethernet0";
  }
  EXPECT_TRUE(flagged);
}

}  // namespace
}  // namespace netdoctor::plan
