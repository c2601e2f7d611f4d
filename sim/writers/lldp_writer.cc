#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "sim/writers/host_writers.h"

namespace netdoctor::sim {

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
    chassis[leaf.name] = {
        {"id", {{"type", "mac"}, {"value", leaf.mac}}},
        {"descr", "SONiC Software Version: SONiC.202311.1 - HwSku: " + leaf.hwsku +
                      " - Distribution: Debian 12.5 - Kernel: 6.1.0-11-2-amd64"},
        {"mgmt-ip", leaf.mgmt_ip},
        {"capability", capability}};
    nlohmann::ordered_json entry;
    entry["via"] = "LLDP";
    entry["rid"] = std::to_string(rid++);
    entry["age"] = "12 days, 03:11:42";
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

}  // namespace netdoctor::sim
