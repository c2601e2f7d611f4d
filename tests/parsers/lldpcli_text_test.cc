// `lldpcli show neighbors` in its text form.
//
// tests/parsers/data/lldpcli_text_two_veth.txt, lldpcli_text_details_two_veth.txt and
// lldpcli_json_two_veth_same_capture.json are real outputs of lldpd 1.0.16 (Debian 12 package),
// captured on the build machine: two network namespaces joined by two veth pairs (host side
// ens1f0np0 / ens1f1np1, "switch" side Ethernet0 / Ethernet4), one `lldpd -d -u <socket>` in
// each namespace, system names set with `lldpcli configure system hostname` (gpu-node-01, leaf1)
// and the switch side set to `configure lldp portidsubtype ifname`; then, in the host namespace,
// `lldpcli show neighbors`, `lldpcli show neighbors details` and `lldpcli show neighbors -f json`
// within a second of each other. The daemons were stopped and the namespaces deleted after.
#include "parsers/lldpcli_text.h"

#include <gtest/gtest.h>

#include "parsers/lldpcli_json.h"
#include "tests/parsers/parser_test_util.h"

namespace netdoctor::parsers {
namespace {

using netdoctor::testing::parser_fixture;
using netdoctor::testing::read_text;
using netdoctor::testing::reference_file;

using Fields = std::vector<std::pair<std::string, std::string>>;

std::string value_of(const LldpTextExtra& extra, std::string_view label) {
  for (const auto& [l, v] : extra.fields) {
    if (l == label) {
      return v;
    }
  }
  return "<absent>";
}

TEST(LldpcliTextTest, TwoNeighboursOverVeth) {
  auto text = parse_lldpcli_text(parser_fixture("lldpcli_text_two_veth.txt"));
  ASSERT_TRUE(text.ok()) << text.error().describe();
  const auto& list = text->neighbors.neighbors;
  ASSERT_EQ(list.size(), 2u);
  ASSERT_EQ(text->extras.size(), 2u);
  const auto& first = list[0];
  EXPECT_EQ(first.local_interface, "ens1f0np0");
  EXPECT_EQ(first.via, "LLDP");
  EXPECT_EQ(first.chassis_name, "leaf1");
  EXPECT_EQ(first.chassis_id_type, "mac");
  EXPECT_EQ(first.chassis_id, "06:1a:8c:ad:4f:0c");
  EXPECT_EQ(first.chassis_descr, "netdoctor test leaf");
  EXPECT_EQ(first.mgmt_ips, (std::vector<std::string>{"10.200.0.2"}));
  EXPECT_EQ(first.port_id_type, "ifname");
  EXPECT_EQ(first.port_id, "Ethernet0");
  EXPECT_EQ(first.port_descr, "Ethernet0");
  EXPECT_EQ(first.ttl, 120u);
  EXPECT_EQ(list[1].local_interface, "ens1f1np1");
  EXPECT_EQ(list[1].port_id, "Ethernet4");
  // Nothing printed is lost: the rest of the Interface line and every other label.
  EXPECT_EQ(text->extras[0].fields, (Fields{{"RID", "1"},
                                            {"Time", "0 day, 00:00:13"},
                                            {"MgmtIface", "5"},
                                            {"Capability", "Bridge, off"},
                                            {"Capability", "Router, off"},
                                            {"Capability", "Wlan, off"},
                                            {"Capability", "Station, on"}}));
  EXPECT_EQ(value_of(text->extras[1], "Time"), "0 day, 00:00:04");
  EXPECT_TRUE(text->unparsed_lines.empty());
}

// The loaders read both forms through one record: the same capture must give the same one.
TEST(LldpcliTextTest, SameRecordAsTheJsonFormOfTheSameCapture) {
  auto text = parse_lldpcli_text(parser_fixture("lldpcli_text_two_veth.txt"));
  auto json = parse_lldpcli_json(parser_fixture("lldpcli_json_two_veth_same_capture.json"));
  ASSERT_TRUE(text.ok());
  ASSERT_TRUE(json.ok()) << json.error().describe();
  ASSERT_EQ(text->neighbors.neighbors.size(), json->neighbors.size());
  for (std::size_t i = 0; i < json->neighbors.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& t = text->neighbors.neighbors[i];
    const auto& j = json->neighbors[i];
    EXPECT_EQ(t.local_interface, j.local_interface);
    EXPECT_EQ(t.via, j.via);
    EXPECT_EQ(t.chassis_name, j.chassis_name);
    EXPECT_EQ(t.chassis_id_type, j.chassis_id_type);
    EXPECT_EQ(t.chassis_id, j.chassis_id);
    EXPECT_EQ(t.chassis_descr, j.chassis_descr);
    EXPECT_EQ(t.mgmt_ips, j.mgmt_ips);
    EXPECT_EQ(t.port_id_type, j.port_id_type);
    EXPECT_EQ(t.port_id, j.port_id);
    EXPECT_EQ(t.port_descr, j.port_descr);
    EXPECT_EQ(t.ttl, j.ttl);
  }
}

TEST(LldpcliTextTest, DetailsKeepTheAutonegotiationLines) {
  auto text = parse_lldpcli_text(parser_fixture("lldpcli_text_details_two_veth.txt"));
  ASSERT_TRUE(text.ok()) << text.error().describe();
  ASSERT_EQ(text->neighbors.neighbors.size(), 2u);
  EXPECT_EQ(text->neighbors.neighbors[1].port_id, "Ethernet4");
  EXPECT_EQ(value_of(text->extras[0], "PMD autoneg"), "supported: no, enabled: no");
  EXPECT_EQ(value_of(text->extras[0], "MAU oper type"),
            "10GbaseT - Four-pair Category 6A or better, full duplex mode only");
  EXPECT_TRUE(text->unparsed_lines.empty());
}

// lldpd's text writer continues a multi-line value under its first character (a switch's
// SysDescr); older lldpd prints TTL beside Chassis and Port rather than inside Port.
TEST(LldpcliTextTest, MultiLineSysDescrAndOlderTtlPlacement) {
  auto text = parse_lldpcli_text(
      "root@node01:~# lldpcli show neighbors\n"
      "-------------------------------------------------------------------------------\n"
      "LLDP neighbors:\n"
      "-------------------------------------------------------------------------------\n"
      "Interface:    eth2, via: LLDP, RID: 3, Time: 12 days, 01:02:03\n"
      "  Chassis:     \n"
      "    ChassisID:    mac 00:1c:73:aa:bb:cc\n"
      "    SysName:      spine-07.example\n"
      "    SysDescr:     Arista Networks EOS version 4.28.3M running on an Arista DCS-7280\n"
      "                  Technical Support: https://www.arista.com/support\n"
      "    MgmtIP:       192.0.2.7\n"
      "    MgmtIP:       2001:db8::7\n"
      "  Port:        \n"
      "    PortID:       ifname Ethernet3/1\n"
      "  TTL:          120\n"
      "-------------------------------------------------------------------------------\n");
  ASSERT_TRUE(text.ok()) << text.error().describe();
  ASSERT_EQ(text->neighbors.neighbors.size(), 1u);
  const auto& n = text->neighbors.neighbors[0];
  EXPECT_EQ(n.chassis_descr,
            "Arista Networks EOS version 4.28.3M running on an Arista DCS-7280\n"
            "Technical Support: https://www.arista.com/support");
  EXPECT_EQ(n.mgmt_ips, (std::vector<std::string>{"192.0.2.7", "2001:db8::7"}));
  EXPECT_EQ(n.port_id, "Ethernet3/1");
  EXPECT_EQ(n.ttl, 120u);
  EXPECT_EQ(value_of(text->extras[0], "Time"), "12 days, 01:02:03");
  EXPECT_TRUE(text->unparsed_lines.empty());
}

TEST(LldpcliTextTest, HeaderAloneIsNoNeighbours) {
  auto text = parse_lldpcli_text(
      "-------------------------------------------------------------------------------\n"
      "LLDP neighbors:\n"
      "-------------------------------------------------------------------------------\n");
  ASSERT_TRUE(text.ok()) << text.error().describe();
  EXPECT_TRUE(text->neighbors.neighbors.empty());
}

TEST(LldpcliTextTest, RejectsOtherLldpcliOutputsJsonAndGarbage) {
  EXPECT_EQ(parse_lldpcli_text("NIC stat").error().code, ErrorCode::Parse);
  EXPECT_FALSE(
      parse_lldpcli_text(read_text(reference_file("lldp/lldpcli_json_two_ifaces_veth.json"))).ok());
  auto chassis = parse_lldpcli_text(
      "-------------------------------------------------------------------------------\n"
      "Local chassis:\n"
      "-------------------------------------------------------------------------------\n"
      "Chassis:     \n"
      "  ChassisID:    mac 32:a2:99:31:82:24\n");
  ASSERT_FALSE(chassis.ok());
  EXPECT_NE(chassis.error().message.find("Local chassis"), std::string::npos);
  EXPECT_FALSE(parse_lldpcli_text("LLDP interfaces:\n"
                                  "Interface:    eth0, via: unknown, Time: 0 day, 00:01:00\n")
                   .ok());
  EXPECT_FALSE(parse_lldpcli_text("Interface:\n").ok());  // cut before the interface name
}

}  // namespace
}  // namespace netdoctor::parsers
