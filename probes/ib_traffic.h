// What the InfiniBand traffic probes (ib_congestion.cc, ib_routing.cc) share: every cabled link
// of the subnet seen from each of its ends, with the node and port at the other end; each
// switch's tier in the fat tree, counted up from the HCAs; one port's PMA counter over the
// window; and the names a finding gives a port.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/ib_fabric.h"
#include "probes/probe_support.h"

namespace netdoctor::probes::ib {

// One end of a cabled link that is up: `port` of `node`, and the node and port at the other end.
struct LinkEnd {
  const model::IbNode* node = nullptr;
  const model::IbPort* port = nullptr;
  const model::IbNode* peer = nullptr;
  const model::IbPort* peer_port = nullptr;

  bool on_switch() const { return node->kind != model::IbNodeKind::Ca; }
  bool faces_ca() const { return peer->kind == model::IbNodeKind::Ca; }
};

// Every up port cabled to a node and port the model knows, in the model's order (switches
// first). Each link appears twice, once from each end.
std::vector<LinkEnd> cabled_ends(const model::IbFabric& ib);
// The ends of `node`'s own cabled ports (a subset of cabled_ends, the same order).
std::vector<const LinkEnd*> ends_of(const std::vector<LinkEnd>& ends, const model::IbNode* node);

// The entity one end names: "port:<switch>/<n>" on a switch, the HCA's own "nic:<host>/<dev>".
std::string end_entity(const LinkEnd& end);
// The far end's entity (the HCA behind a leaf port, the spine's port).
std::string peer_entity(const LinkEnd& end);
// "leaf-01/3" or "node01/mlx5_0", for summaries.
std::string end_label(const LinkEnd& end);
std::string peer_label(const LinkEnd& end);

// Each switch's tier, by node GUID: 1 for a switch with an HCA cabled to it (a leaf), then one
// more per hop away from the leaves (spines 2, a core above them 3). A switch with no path to
// an HCA has no tier.
std::map<std::uint64_t, int> switch_tiers(const std::vector<LinkEnd>& ends);
// An up-port: a switch port whose peer is a switch of a higher tier.
bool is_up_port(const LinkEnd& end, const std::map<std::uint64_t, int>& tiers);

// One PMA counter of a port over the window (a rate with two samples or more).
Reading port_counter(const model::IbPort& port, const char* metric);
// The sample from which `metric` sat at its all-ones maximum, when it did.
std::optional<std::size_t> saturated_from(const model::IbPort& port, const char* metric);
// The value of `metric` in `sample`, when that sample read it.
std::optional<double> value_at(const model::IbPort& port, const char* metric, std::size_t sample);

// Bytes per second as Gb/s.
double gbps(double bytes_per_second);
// The data rate of one lane in Gb/s (the port's data rate over its width), when known.
std::optional<double> lane_data_gbps(const model::IbPort& port);

}  // namespace netdoctor::probes::ib
