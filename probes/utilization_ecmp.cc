// utilization-ecmp: per leaf, how evenly its uplinks carry traffic. ECMP over many flows
// spreads load within a few percent; a few uplinks near line rate while the others idle means
// elephant flows hashed onto the same links.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "probes/builtin.h"
#include "probes/probe_support.h"
#include "probes/switch_topology.h"

namespace netdoctor::probes {
namespace {

// A link at 80 % of line rate or more is saturated in practice (queues build, pause starts).
constexpr double k_hot_utilisation = 0.8;
// Cold: below half the hot threshold, i.e. carrying at most half of what a hot link does.
// Imbalance needs both on one leaf: hot links beside cold ones could have shared the load;
// a uniformly busy leaf is oversubscribed or just busy, not badly hashed. (Comparing with
// the leaf's median instead misses the common case of half the uplinks hot.)
constexpr double k_cold_utilisation = k_hot_utilisation / 2.0;
// Coefficient of variation above 0.3 is far outside what per-flow hashing of many flows gives.
constexpr double k_max_balanced_cv = 0.3;

class UtilizationEcmpProbe final : public BasicProbe {
 public:
  UtilizationEcmpProbe()
      : BasicProbe("utilization-ecmp", "Per leaf: how evenly the uplinks carry traffic",
                   CostClass::Passive, {"show interfaces counters", "show lldp table"},
                   {"ecmp-imbalance", "ecmp-balanced"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    std::vector<PortRoles> leaves = leaf_roles(context.fabric);
    std::size_t judged = 0;
    bool found = false;
    std::vector<std::string> checked;
    for (const auto& leaf : leaves) {
      std::vector<std::pair<const model::SwitchPort*, double>> loads;
      for (const model::SwitchPort* port : leaf.uplinks) {
        if (auto util = tx_utilisation(*port)) {
          loads.emplace_back(port, *util);
        }
      }
      if (loads.size() < 2) {
        continue;
      }
      ++judged;
      std::vector<double> values;
      double sum = 0.0;
      for (const auto& [port, util] : loads) {
        values.push_back(util);
        sum += util;
      }
      double mean = sum / static_cast<double>(values.size());
      double var = 0.0;
      for (double v : values) {
        var += (v - mean) * (v - mean);
      }
      double cv = mean > 0.0 ? std::sqrt(var / static_cast<double>(values.size())) / mean : 0.0;
      double median = median_of(values);
      double max_util = *std::max_element(values.begin(), values.end());
      std::vector<std::string> hot;
      std::vector<std::string> idle;
      for (const auto& [port, util] : loads) {
        if (util >= k_hot_utilisation) {
          hot.push_back(port_entity(leaf.sw->name, port->name));
        } else if (util < k_cold_utilisation) {
          idle.push_back(port_entity(leaf.sw->name, port->name));
        }
      }
      std::string line =
          fmt::format("{}: {} uplinks, utilisation mean {}, max {}, CV {:.2f}", leaf.sw->name,
                      loads.size(), percent(mean), percent(max_util), cv);
      if (hot.empty() || idle.empty() || cv <= k_max_balanced_cv) {
        checked.push_back(line);
        continue;
      }
      found = true;
      std::vector<std::string> entities{leaf.sw->entity()};
      entities.insert(entities.end(), hot.begin(), hot.end());
      entities.insert(entities.end(), idle.begin(), idle.end());
      result.findings.push_back(make_finding(
          "ecmp-imbalance", entities, saturating(cv, k_max_balanced_cv * 1.5),
          fmt::format("{}: {} of {} uplinks run at {} or more of line rate while {} run below {} "
                      "(median uplink {}; coefficient of variation {:.2f}, balanced is below "
                      "{:.1f})",
                      leaf.sw->name, hot.size(), loads.size(), percent(k_hot_utilisation),
                      idle.size(), percent(k_cold_utilisation), percent(median), cv,
                      k_max_balanced_cv),
          max_util * 100.0, median * 100.0, "% utilisation"));
    }
    if (judged == 0) {
      result.status = ProbeStatus::Skipped;
      result.reason =
          "no data for show interfaces counters / show lldp table (no leaf with two "
          "or more uplinks carrying utilisation figures)";
      return;
    }
    if (judged < leaves.size()) {
      add_note(result, fmt::format("{} of {} leaves had uplink utilisation to compare", judged,
                                   leaves.size()));
    }
    result.checked = checked;
    if (!found) {
      std::string text = "uplinks balanced: ";
      for (std::size_t i = 0; i < checked.size(); ++i) {
        text += (i == 0 ? "" : "; ") + checked[i];
      }
      result.findings.push_back(make_finding("ecmp-balanced", {}, 0.8, text));
    }
  }
};

}  // namespace

std::unique_ptr<Probe> make_utilization_ecmp_probe() {
  return std::make_unique<UtilizationEcmpProbe>();
}

}  // namespace netdoctor::probes
