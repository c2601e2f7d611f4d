// ib-congestion, the congestion tree. A port waits for credits when the port at the other end
// of its cable has no buffer to give: that node cannot forward fast enough. If that node is
// itself waiting to send onward (on any port other than the one back), the wait passed through
// it and this port is a victim; the wait starts where the node ahead does not wait: at a port
// facing the slow or oversubscribed receiver (an HCA), or a link that carries more than it can.
#include <algorithm>
#include <set>

#include "probes/ib_congestion.h"

namespace netdoctor::probes::ib_congestion {
namespace {

using Waiting = std::map<const model::IbNode*, std::vector<const PortWait*>>;

// The waiting ports of the node ahead of `wait`, except the one back towards it.
std::vector<const PortWait*> downstream(const PortWait& wait, const Waiting& by_node) {
  std::vector<const PortWait*> out;
  if (wait.end->faces_ca()) {
    return out;
  }
  const auto it = by_node.find(wait.end->peer);
  if (it == by_node.end()) {
    return out;
  }
  for (const PortWait* next : it->second) {
    if (next->end->port != wait.end->peer_port) {
      out.push_back(next);
    }
  }
  return out;
}

// The roots a victim's wait leads to, following the waiting ports ahead of it.
std::vector<const PortWait*> roots_ahead(const PortWait& victim, const Waiting& by_node) {
  std::vector<const PortWait*> roots;
  std::set<const PortWait*> seen{&victim};
  std::vector<const PortWait*> stack = downstream(victim, by_node);
  while (!stack.empty()) {
    const PortWait* at = stack.back();
    stack.pop_back();
    if (!seen.insert(at).second) {
      continue;
    }
    const auto next = downstream(*at, by_node);
    if (next.empty()) {
      roots.push_back(at);
    }
    stack.insert(stack.end(), next.begin(), next.end());
  }
  return roots;
}

}  // namespace

Tree build_tree(const Survey& fleet, double wait_share) {
  Waiting by_node;
  std::vector<const PortWait*> waiting;
  for (const auto& port : fleet.ports) {
    if (port.share >= wait_share) {
      by_node[port.end->node].push_back(&port);
      waiting.push_back(&port);
    }
  }
  Tree tree;
  for (const PortWait* wait : waiting) {
    if (downstream(*wait, by_node).empty()) {
      tree.roots.push_back(wait);
    }
  }
  for (const PortWait* wait : waiting) {
    if (std::find(tree.roots.begin(), tree.roots.end(), wait) != tree.roots.end()) {
      continue;
    }
    const auto roots = roots_ahead(*wait, by_node);
    if (roots.empty()) {
      tree.looped.push_back(wait);
    }
    for (const PortWait* root : roots) {
      tree.victims[root].push_back(wait);
    }
  }
  return tree;
}

}  // namespace netdoctor::probes::ib_congestion
