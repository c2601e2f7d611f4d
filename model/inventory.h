// Inventory: what the model holds, for tools (JSON) and for people (a compact text table).
// The JSON field set is a contract other tools read (see inventory_json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/fabric.h"

namespace netdoctor::model {

// The entity-ish name of a switch port's LLDP peer: "host:node01/ens1f0np0" when the peer is a
// host of the fabric, "switch:spine1/Ethernet0" for a switch; empty when it has no peer.
std::string peer_entity(const Fabric& fabric, const SwitchPort& port);

// Every LLDP adjacency once, as "link:<a>~<b>" with a and b the port/netdev entity names in
// sorted order; from the switches' LLDP tables and the hosts' own LLDP. Sorted.
std::vector<std::string> lldp_links(const Fabric& fabric);

// {"name", "hosts": [{name, samples, clock{offset_s, synchronised}, nics: [{device, netdev,
// vendor, driver, firmware, mtu, active_mtu, rate_gbps, state, ipv4[], switch_port}]}],
// "switches": [{name, samples, ports: [{name, speed_gbps, mtu, oper, peer}]}],
// "perftest": [{client, server, test, device, baseline, bw_avg_gbps, lat_typical_us, error}],
// "links": [...], "problems": [{entity, source, file, why}]}. Unknown values are null.
nlohmann::json inventory_json(const Fabric& fabric);

// Hosts x NICs (firmware, MTU, rate, state, switch port), switches with port counts and links,
// then the problems.
std::string inventory_text(const Fabric& fabric);

}  // namespace netdoctor::model
