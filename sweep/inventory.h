// What the sweep tests: every host's active RDMA ports with their line rate and leaf, found by
// running ibv_devinfo, `rdma link show` and lldpcli on each host (docs/sweep.md, discovery).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sweep/remote.h"

namespace netdoctor::sweep {

struct Nic {
  std::string host;
  std::string device;  // "mlx5_0"
  int port = 1;
  std::string link_layer;  // "InfiniBand" or "Ethernet"
  double line_gbps = 0.0;  // the port's active rate
  std::string netdev;      // RoCE: the port's netdev; empty on InfiniBand
  std::string leaf;        // the switch it is cabled to; empty when unknown
  std::string leaf_port;   // that switch's port, when LLDP said
  std::string key() const { return host + "/" + device; }
  // The group the per-leaf cap and cross-leaf pairing use: the leaf, else the host itself.
  std::string leaf_group() const { return leaf.empty() ? "host:" + host : leaf; }
};

struct HostInventory {
  std::string host;
  std::vector<Nic> nics;  // active ports only, the --device filter applied
  std::string left_out;   // "" (tested), "unreachable" or "no-rdma"
  std::string detail;     // why it was left out
  double seconds = 0.0;   // the longest of its discovery commands
};

// Discovery of every host, `remote.parallel` commands at a time, in host order. A host whose
// ibv_devinfo times out or whose launcher fails to reach it is "unreachable"; one whose
// ibv_devinfo runs but shows no active port (or not the --device asked for) is "no-rdma".
// lldpcli and `rdma link show` are best effort: without them leaves come from `leaf_of` only.
struct Discovery {
  std::vector<HostInventory> hosts;
  double seconds = 0.0;  // wall time of the discovery commands
};
Discovery discover_hosts(const std::vector<std::string>& hosts, const Remote& remote,
                         const std::string& device,
                         const std::map<std::string, std::string>& leaf_of);

}  // namespace netdoctor::sweep
