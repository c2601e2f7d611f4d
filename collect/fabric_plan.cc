#include "collect/fabric_plan.h"

#include "parsers/perfquery.h"

namespace netdoctor::collect {
namespace {

// perfquery's port argument for "every port" (with -l: one block per port).
constexpr const char* k_all_ports = "255";

bool is_switch(const parsers::IbnetNode& node) {
  return node.type == "Switch";
}

}  // namespace

std::vector<std::vector<std::string>> fabric_view_commands() {
  return {{"ibnetdiscover"}, {"ibnetdiscover", "-p"}, {"iblinkinfo"}, {"sminfo"}, {"ibswitches"},
          {"ibhosts"},       {"ibqueryerrors"}};
}

SweepPlan plan_perfquery_sweep(const parsers::IbNetDiscover& topology) {
  SweepPlan plan;
  plan.nodes = topology.nodes.size();
  std::vector<PerfTarget> hca_ports;
  for (const auto& node : topology.nodes) {
    if (is_switch(node)) {
      if (node.lid && *node.lid > 0) {
        plan.targets.push_back(PerfTarget{node.description, true, *node.lid, 0});
      } else {
        ++plan.nodes_without_lid;
      }
      continue;
    }
    bool addressed = false;
    for (const auto& link : node.links) {
      if (link.lid && *link.lid > 0) {
        hca_ports.push_back(PerfTarget{node.description, false, *link.lid, link.port});
        addressed = true;
      }
    }
    if (!addressed) {
      ++plan.nodes_without_lid;
    }
  }
  plan.targets.insert(plan.targets.end(), hca_ports.begin(), hca_ports.end());
  return plan;
}

std::vector<std::string> extended_perfquery(const PerfTarget& target) {
  if (target.is_switch) {
    return {"perfquery", "-x", "-l", std::to_string(target.lid), k_all_ports};
  }
  return {"perfquery", "-x", std::to_string(target.lid), std::to_string(target.port)};
}

std::vector<std::string> plain_perfquery(const PerfTarget& target) {
  if (target.is_switch) {
    return {"perfquery", "-l", std::to_string(target.lid), k_all_ports};
  }
  return {"perfquery", std::to_string(target.lid), std::to_string(target.port)};
}

bool needs_plain_counters(std::string_view extended_output) {
  auto parsed = parsers::parse_perfquery(extended_output);
  if (!parsed.ok()) {
    return false;
  }
  for (const auto& block : parsed->blocks) {
    if (!block.extended) {
      continue;
    }
    if ((block.cap_mask2 && *block.cap_mask2 == 0) || block.find("SymbolErrorCounter") == nullptr ||
        block.find("PortXmitWait") == nullptr) {
      return true;
    }
  }
  return false;
}

}  // namespace netdoctor::collect
