#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {
namespace {

// What a leaf says of itself in LLDP, in both forms.
std::string leaf_descr(const Switch& leaf) {
  return "SONiC Software Version: SONiC.202311.1 - HwSku: " + leaf.hwsku +
         " - Distribution: Debian 12.5 - Kernel: 6.1.0-11-2-amd64";
}

constexpr const char* k_lldp_age = "12 days, 03:11:42";

}  // namespace

std::string lldp_neighbors(const Fabric& fabric, const Host& host) {
  nlohmann::ordered_json interfaces = nlohmann::ordered_json::array();
  int rid = 1;
  for (const Nic& nic : host.nics) {
    const Switch& leaf = fabric.switches[nic.leaf];
    const Port& port = leaf.ports[nic.port];
    nlohmann::ordered_json capability = nlohmann::ordered_json::array();
    capability.push_back({{"type", "Bridge"}, {"enabled", true}});
    capability.push_back({{"type", "Router"}, {"enabled", true}});
    nlohmann::ordered_json chassis;
    chassis[leaf.name] = {{"id", {{"type", "mac"}, {"value", leaf.mac}}},
                          {"descr", leaf_descr(leaf)},
                          {"mgmt-ip", leaf.mgmt_ip},
                          {"capability", capability}};
    nlohmann::ordered_json entry;
    entry["via"] = "LLDP";
    entry["rid"] = std::to_string(rid++);
    entry["age"] = k_lldp_age;
    entry["chassis"] = chassis;
    entry["port"] = {
        {"id", {{"type", "local"}, {"value", port.name}}}, {"descr", port.alias}, {"ttl", "120"}};
    nlohmann::ordered_json item;
    item[nic.netdev] = entry;
    interfaces.push_back(item);
  }
  nlohmann::ordered_json root;
  root["lldp"]["interface"] = interfaces;
  return json_text(root, 2) + "\n";
}

// lldpd's text writer: labels padded to a column, "Chassis:" and "Port:" section titles with
// trailing blanks, a rule of 79 dashes between neighbours (tests/parsers/data/
// lldpcli_text_two_veth.txt is a real capture of this form).
std::string lldp_neighbors_text(const Fabric& fabric, const Host& host) {
  const std::string rule = std::string(79, '-') + "\n";
  std::string out = rule + "LLDP neighbors:\n" + rule;
  int rid = 1;
  for (const Nic& nic : host.nics) {
    const Switch& leaf = fabric.switches[nic.leaf];
    const Port& port = leaf.ports[nic.port];
    out += fmt::format("Interface:    {}, via: LLDP, RID: {}, Time: {}\n", nic.netdev, rid++,
                       k_lldp_age);
    out += "  Chassis:     \n";
    out += fmt::format("    ChassisID:    mac {}\n", leaf.mac);
    out += fmt::format("    SysName:      {}\n", leaf.name);
    out += fmt::format("    SysDescr:     {}\n", leaf_descr(leaf));
    out += fmt::format("    MgmtIP:       {}\n", leaf.mgmt_ip);
    out += "    Capability:   Bridge, on\n    Capability:   Router, on\n";
    out += "  Port:        \n";
    out += fmt::format("    PortID:       local {}\n", port.name);
    out += fmt::format("    PortDescr:    {}\n", port.alias);
    out += "    TTL:          120\n";
    out += rule;
  }
  return out;
}

}  // namespace netdoctor::sim
