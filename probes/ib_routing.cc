// ib-routing: how each leaf's traffic spreads over its up-ports, and whether it has the up
// capacity for it.
//
// Reads the subnet's topology (ibnetdiscover, iblinkinfo, ibdiagnet) for tiers (a switch with
// HCAs cabled to it is a leaf; a port whose peer is a switch of a higher tier is an up-port) and
// every up-port's PortXmitData over the window (perfquery). The subnet manager routes each
// destination LID over one up-port (static routing, the linear forwarding tables): in a healthy
// fat tree with a balanced routing engine (ftree, updn) and many destinations, a leaf's up-ports
// carry similar load, and a leaf has as much capacity up as down.
//
// Up-ports of one busy leaf carrying very different loads (coefficient of variation above
// max_balanced_cv) are routing imbalance (ib-routing-imbalance): some links hot while others
// idle, the IB form of ECMP imbalance. A leaf with more HCA-facing than up capacity whose
// up-ports run hot is oversubscribed (ib-leaf-oversubscribed); without rates its ratio alone
// weighs less, and with up-ports measured cool it is ruled out.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "probes/fleet_probe.h"
#include "probes/ib_traffic.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// How many ports a summary names (the finding lists every hot one).
constexpr std::size_t k_named_ports = 4;

struct UpPort {
  const ib::LinkEnd* end = nullptr;
  std::optional<double> gbps;  // transmitted over the window
  double line = 0.0;           // the port's data rate, Gb/s
};

struct Leaf {
  const model::IbNode* sw = nullptr;
  std::vector<UpPort> ups;
  double down = 0.0;  // Gb/s of the HCA-facing ports
  double up = 0.0;    // Gb/s of the up-ports
  std::size_t down_ports = 0;
};

struct Survey {
  std::vector<ib::LinkEnd> ends;
  std::vector<Leaf> leaves;
  std::size_t up_total = 0;
  std::size_t up_with_rate = 0;
};

Leaf leaf_of(const model::IbNode& sw, const std::vector<ib::LinkEnd>& ends,
             const std::map<std::uint64_t, int>& tiers) {
  Leaf leaf;
  leaf.sw = &sw;
  for (const ib::LinkEnd* end : ib::ends_of(ends, &sw)) {
    const double line = end->port->data_gbps.value_or(0.0);
    if (end->faces_ca()) {
      leaf.down += line;
      ++leaf.down_ports;
    } else if (ib::is_up_port(*end, tiers)) {
      UpPort up;
      up.end = end;
      up.line = line;
      if (const Reading tx = ib::port_counter(*end->port, metric::k_ib_tx_bytes); tx.is_rate()) {
        up.gbps = ib::gbps(tx.value);
      }
      leaf.up += line;
      leaf.ups.push_back(up);
    }
  }
  return leaf;
}

struct Spread {
  std::vector<const UpPort*> ports;  // with a rate, busiest first
  double mean = 0.0;
  double cv = 0.0;
  double busiest_util = 0.0;
};

Spread spread_of(const Leaf& leaf) {
  Spread out;
  for (const auto& up : leaf.ups) {
    if (up.gbps && up.line > 0.0) {
      out.ports.push_back(&up);
    }
  }
  std::sort(out.ports.begin(), out.ports.end(),
            [](const UpPort* a, const UpPort* b) { return *a->gbps > *b->gbps; });
  if (out.ports.empty()) {
    return out;
  }
  double sum = 0.0;
  for (const UpPort* up : out.ports) {
    sum += *up->gbps;
    out.busiest_util = std::max(out.busiest_util, *up->gbps / up->line);
  }
  const auto n = static_cast<double>(out.ports.size());
  out.mean = sum / n;
  double squares = 0.0;
  for (const UpPort* up : out.ports) {
    squares += (*up->gbps - out.mean) * (*up->gbps - out.mean);
  }
  out.cv = out.mean > 0.0 ? std::sqrt(squares / n) / out.mean : 0.0;
  return out;
}

std::string port_load(const UpPort& up) {
  return fmt::format("{} {} Gb/s ({})", ib::end_label(*up.end), human(*up.gbps),
                     percent(*up.gbps / up.line));
}

void judge_imbalance(const Leaf& leaf, Judgement& judgement) {
  const Spread spread = spread_of(leaf);
  const double max_cv = judgement.limit("max_balanced_cv");
  if (spread.ports.size() < 2 || spread.busiest_util < judgement.limit("min_busy_utilisation") ||
      spread.cv <= max_cv) {
    return;
  }
  std::vector<std::string> entities;
  std::vector<std::string> hot;
  for (const UpPort* up : spread.ports) {
    if (*up->gbps > spread.mean) {
      entities.push_back(ib::end_entity(*up->end));
      if (hot.size() < k_named_ports) {
        hot.push_back(port_load(*up));
      }
    }
  }
  entities.push_back(leaf.sw->entity());
  judgement.find(
      "ib-routing-imbalance", entities,
      saturating(spread.cv / max_cv, judgement.limit("imbalance_half_factor")),
      fmt::format("{}'s {} up-ports carry {} to {} Gb/s (mean {} Gb/s, coefficient of variation "
                  "{:.2g}, the busiest {}x the mean): hot {}; coolest {}. Static routing puts "
                  "more (or heavier) destinations on some up-ports than on others",
                  leaf.sw->name, spread.ports.size(), human(*spread.ports.back()->gbps),
                  human(*spread.ports.front()->gbps), human(spread.mean), spread.cv,
                  human(*spread.ports.front()->gbps / spread.mean), fmt::join(hot, ", "),
                  port_load(*spread.ports.back())),
      spread.cv, max_cv, "ratio");
}

void judge_capacity(const Leaf& leaf, Judgement& judgement) {
  if (leaf.up <= 0.0 || leaf.down <= 0.0) {
    return;
  }
  const double ratio = leaf.down / leaf.up;
  const std::string capacity = fmt::format(
      "{}: {} Gb/s to {} HCAs against {} Gb/s up over {} up-ports = {:.2g}:1", leaf.sw->name,
      human(leaf.down), leaf.down_ports, human(leaf.up), leaf.ups.size(), ratio);
  if (ratio <= judgement.limit("max_balanced_ratio")) {
    return;
  }
  const Spread spread = spread_of(leaf);
  double strength = saturating(ratio - 1.0, judgement.limit("excess_half_strength"));
  if (!spread.ports.empty()) {
    double util = 0.0;
    for (const UpPort* up : spread.ports) {
      util += *up->gbps / up->line;
    }
    util /= static_cast<double>(spread.ports.size());
    if (util < judgement.limit("hot_utilisation")) {
      judgement.rule_out(
          fmt::format("{}; its up-ports average {} of line rate: oversubscribed "
                      "by design, not saturated by this job",
                      capacity, percent(util)));
      return;
    }
    // Measured saturated behind a short design: the bottleneck is seen, not inferred.
    strength = std::max(strength, judgement.limit("saturated_min_strength"));
    judgement.find("ib-leaf-oversubscribed", {leaf.sw->entity()}, strength,
                   fmt::format("{}; its up-ports average {} of line rate: the leaf cannot carry "
                               "what its HCAs send across the spines",
                               capacity, percent(util)),
                   ratio, 1.0, "ratio");
    return;
  }
  strength *= judgement.limit("ratio_only_weight");
  judgement.find("ib-leaf-oversubscribed", {leaf.sw->entity()}, strength,
                 capacity + "; no up-port rates in the capture to say whether they run hot", ratio,
                 1.0, "ratio");
}

class IbRoutingProbe final : public FleetProbe<Survey> {
 public:
  IbRoutingProbe()
      : FleetProbe(
            {.id = "ib-routing",
             .description = "InfiniBand leaf up-ports: routing balance and capacity",
             .cost = CostClass::Passive,
             .reads = {source::k_perfquery, source::k_ibdiagnet, source::k_ibnetdiscover,
                       source::k_iblinkinfo},
             .findings = {"ib-routing-imbalance", "ib-leaf-oversubscribed"},
             .clearing = "ib-routing-ok",
             .thresholds = {"max_balanced_cv", "imbalance_half_factor", "min_busy_utilisation",
                            "max_balanced_ratio", "hot_utilisation", "excess_half_strength",
                            "ratio_only_weight", "ok_strength", "saturated_min_strength"},
             .fabric = FabricScope::InfiniBand}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    fleet.ends = ib::cabled_ends(judgement.fabric().ib);
    const auto tiers = ib::switch_tiers(fleet.ends);
    for (const auto& node : judgement.fabric().ib.nodes) {
      const auto tier = tiers.find(node.guid);
      if (node.kind == model::IbNodeKind::Ca || tier == tiers.end() || tier->second != 1) {
        continue;
      }
      Leaf leaf = leaf_of(node, fleet.ends, tiers);
      for (const auto& up : leaf.ups) {
        ++fleet.up_total;
        if (up.gbps) {
          ++fleet.up_with_rate;
        }
      }
      fleet.leaves.push_back(std::move(leaf));
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    const auto with_ups = static_cast<std::size_t>(std::count_if(
        fleet.leaves.begin(), fleet.leaves.end(), [](const Leaf& l) { return !l.ups.empty(); }));
    // Rates only add to the capacity view: a leaf without them is still judged by its ratio.
    return {{"InfiniBand leaves", "up-ports to a higher tier (ibnetdiscover, iblinkinfo)", with_ups,
             fleet.leaves.size()},
            {"InfiniBand leaf up-ports", "PortXmitData over two fabric samples (perfquery)",
             fleet.up_with_rate, fleet.up_total, false}};
  }

  // Each leaf: how its up-ports share the load, then whether it has the capacity for it.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const auto& leaf : fleet.leaves) {
      judge_imbalance(leaf, judgement);
      judge_capacity(leaf, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    double worst_cv = 0.0;
    for (const auto& leaf : fleet.leaves) {
      worst_cv = std::max(worst_cv, spread_of(leaf).cv);
    }
    Clearance healthy;
    if (fleet.up_with_rate == 0) {
      // Capacity alone: the spread over the up-ports was not seen.
      healthy.summary = fmt::format(
          "{} leaves have as much up capacity as HCA-facing capacity (no up-port rates in the "
          "capture to judge how routing spreads the load)",
          fleet.leaves.size());
      healthy.strength = judgement.limit("ok_strength") * judgement.limit("ratio_only_weight");
      return healthy;
    }
    healthy.summary = fmt::format(
        "{} leaves: up-ports evenly loaded (coefficient of variation at most {:.2g}, limit {}) "
        "and up capacity for what their HCAs send",
        fleet.leaves.size(), worst_cv, human(judgement.limit("max_balanced_cv")));
    healthy.value = worst_cv;
    healthy.fleet_normal = judgement.limit("max_balanced_cv");
    healthy.unit = "ratio";
    healthy.strength = judgement.limit("ok_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_ib_routing_probe() {
  return std::make_unique<IbRoutingProbe>();
}

}  // namespace netdoctor::probes
