// utilization-ecmp: does ECMP spread each leaf's load over its uplinks? Reads the transmit
// utilisation of every switch port (show interfaces counters) and which ports of a leaf face
// other switches (show lldp table), and compares the uplinks of each leaf with each other.
//
// ECMP over many flows spreads a leaf's load within a few percent, so in a healthy fleet the
// uplinks of every leaf carry similar load (a low coefficient of variation). Imbalance needs
// hot links beside cold ones on the same leaf, which could have shared the load; a uniformly
// busy leaf is oversubscribed or just busy, not badly hashed (and comparing with the leaf's
// median instead misses the common case of half the uplinks hot):
//   ecmp-imbalance  a leaf's uplinks run near line rate while others idle and their spread is
//                   far beyond what hashing many flows gives: elephant flows hashed onto the
//                   same links.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "probes/fleet_probe.h"
#include "probes/switch_topology.h"

namespace netdoctor::probes {
namespace {

// Mathematics: balance is a comparison, so a leaf needs two uplinks with figures.
constexpr std::size_t k_min_uplinks = 2;

// The uplinks of one leaf that carry utilisation figures, and their spread.
struct LeafLoad {
  const model::Switch* sw = nullptr;
  std::vector<std::pair<const model::SwitchPort*, double>> loads;
  double mean = 0.0;
  double cv = 0.0;  // coefficient of variation
  double median = 0.0;
  double max_util = 0.0;
  std::string line;  // "leaf1: 16 uplinks, utilisation mean ..."
};

struct Survey {
  std::size_t leaves = 0;
  std::vector<LeafLoad> judged;  // leaves with enough uplinks to compare
};

// The hot and cold uplinks of a leaf, by entity.
struct Split {
  std::vector<std::string> hot;
  std::vector<std::string> idle;
};

std::optional<LeafLoad> leaf_load(const PortRoles& leaf) {
  LeafLoad out;
  out.sw = leaf.sw;
  for (const model::SwitchPort* port : leaf.uplinks) {
    if (auto util = tx_utilisation(*port)) {
      out.loads.emplace_back(port, *util);
    }
  }
  if (out.loads.size() < k_min_uplinks) {
    return std::nullopt;
  }
  std::vector<double> values;
  double sum = 0.0;
  for (const auto& [port, util] : out.loads) {
    values.push_back(util);
    sum += util;
  }
  out.mean = sum / static_cast<double>(values.size());
  double var = 0.0;
  for (double v : values) {
    var += (v - out.mean) * (v - out.mean);
  }
  out.cv = out.mean > 0.0 ? std::sqrt(var / static_cast<double>(values.size())) / out.mean : 0.0;
  out.median = median_of(values);
  out.max_util = *std::max_element(values.begin(), values.end());
  out.line = fmt::format("{}: {} uplinks, utilisation mean {}, max {}, CV {:.2f}", out.sw->name,
                         out.loads.size(), percent(out.mean), percent(out.max_util), out.cv);
  return out;
}

// Cold: carrying at most a share of what a hot link does.
double cold_utilisation(const Judgement& judgement) {
  return judgement.limit("hot_utilisation") * judgement.limit("cold_share_of_hot");
}

Split split_uplinks(const LeafLoad& leaf, const Judgement& judgement) {
  const double hot = judgement.limit("hot_utilisation");
  const double cold = cold_utilisation(judgement);
  Split split;
  for (const auto& [port, util] : leaf.loads) {
    if (util >= hot) {
      split.hot.push_back(port_entity(leaf.sw->name, port->name));
    } else if (util < cold) {
      split.idle.push_back(port_entity(leaf.sw->name, port->name));
    }
  }
  return split;
}

void find_imbalance(const LeafLoad& leaf, const Split& split, Judgement& judgement) {
  const double max_cv = judgement.limit("max_balanced_cv");
  std::vector<std::string> entities{leaf.sw->entity()};
  entities.insert(entities.end(), split.hot.begin(), split.hot.end());
  entities.insert(entities.end(), split.idle.begin(), split.idle.end());
  judgement.find(
      "ecmp-imbalance", entities,
      saturating(leaf.cv, max_cv * judgement.limit("imbalance_half_factor")),
      fmt::format("{}: {} of {} uplinks run at {} or more of line rate while {} run below {} "
                  "(median uplink {}; coefficient of variation {:.2f}, balanced is below "
                  "{:.1f})",
                  leaf.sw->name, split.hot.size(), leaf.loads.size(),
                  percent(judgement.limit("hot_utilisation")), split.idle.size(),
                  percent(cold_utilisation(judgement)), percent(leaf.median), leaf.cv, max_cv),
      leaf.max_util * 100.0, leaf.median * 100.0, "% utilisation");
}

class UtilizationEcmpProbe final : public FleetProbe<Survey> {
 public:
  UtilizationEcmpProbe()
      : FleetProbe({.id = "utilization-ecmp",
                    .description = "Per leaf: how evenly the uplinks carry traffic",
                    .cost = CostClass::Passive,
                    .reads = {source::k_show_interfaces_counters, source::k_show_lldp_table},
                    .findings = {"ecmp-imbalance"},
                    .clearing = "ecmp-balanced",
                    .thresholds = {"hot_utilisation", "cold_share_of_hot", "max_balanced_cv",
                                   "imbalance_half_factor", "balanced_strength"},
                    .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    const std::vector<PortRoles> leaves = leaf_roles(judgement.fabric());
    fleet.leaves = leaves.size();
    for (const auto& leaf : leaves) {
      if (auto load = leaf_load(leaf)) {
        fleet.judged.push_back(std::move(*load));
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"leaves", "uplink utilisation (show interfaces counters, show lldp table)",
             fleet.judged.size(), fleet.leaves}};
  }

  // A leaf is imbalanced only with hot and cold uplinks side by side and a spread beyond what
  // hashing gives; every other leaf is listed as balanced.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const LeafLoad& leaf : fleet.judged) {
      const Split split = split_uplinks(leaf, judgement);
      if (split.hot.empty() || split.idle.empty() ||
          leaf.cv <= judgement.limit("max_balanced_cv")) {
        judgement.rule_out(leaf.line);
        continue;
      }
      find_imbalance(leaf, split, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    std::string text = "uplinks balanced: ";
    for (std::size_t i = 0; i < fleet.judged.size(); ++i) {
      text += (i == 0 ? "" : "; ") + fleet.judged[i].line;
    }
    Clearance clear;
    clear.summary = text;
    clear.strength = judgement.limit("balanced_strength");
    clear.ruled_out = false;  // judge listed each leaf
    return clear;
  }
};

}  // namespace

std::unique_ptr<Probe> make_utilization_ecmp_probe() {
  return std::make_unique<UtilizationEcmpProbe>();
}

}  // namespace netdoctor::probes
