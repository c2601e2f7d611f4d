// ib-congestion: InfiniBand credit starvation, and where it starts.
//
// Reads every cabled port's PortXmitWait over the window (perfquery, or ibdiagnet's PM
// counters): the ticks the port had data to send but no credits from the other end. Converted
// to time with the port's tick (a multiple of the time one byte takes on a lane), it is the
// share of the window the port stood still. A busy fabric waits a little everywhere; in a
// healthy one no port waits more than a few percent of the time.
//
// A port that waits much longer is congested (ib-congestion). Credits run out hop by hop back
// from a receiver that cannot take what is sent to it, so the waiting ports form a tree: a port
// whose downstream node is itself waiting to send onward is a victim (ib-congestion-victim,
// never the culprit); the root is the waiting port nearest the slow receiver: a leaf port facing
// an HCA (ib-congestion-root, the HCA named first; a receive rate far below its line rate says
// the HCA drains slowly, one near line rate that too much converges on it), or a port whose
// downstream node waits nowhere else, the link itself the bottleneck (ib-congestion-link-root).
// PortXmitDiscards growing at the root (packets dropped after waiting past the switch's
// lifetime) says the congestion costs packets (ib-xmit-discards). A PortXmitWait saturated at
// its 32-bit maximum before the window is history, not a rate; one that saturated inside it
// gives a lower bound.
#include "probes/ib_congestion.h"

#include <fmt/format.h>

#include <algorithm>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes::ib_congestion {
namespace {

// PortXmitWait is a 32-bit counter of PortCounters (IBTA): at this value it stops counting.
constexpr double k_xmit_wait_max = 4294967295.0;
// Bits per byte, to turn a lane's data rate into the time one byte takes on it.
constexpr double k_bits_per_byte = 8.0;
// How many victims a summary names (the finding lists them all).
constexpr std::size_t k_named_victims = 4;

// The tick a port's XmitWait counts in: tick_symbol_times byte times of one of its lanes.
double tick_seconds(const model::IbPort& port, const Judgement& judgement) {
  if (const auto lane = ib::lane_data_gbps(port)) {
    return judgement.limit("tick_symbol_times") * k_bits_per_byte / (*lane * 1e9);
  }
  return judgement.limit("fallback_tick_ns") * 1e-9;
}

// A counter stuck at its maximum from sample `from` on: before the window it is history; inside
// it, what it climbed before stopping over the interval it stopped in is a lower bound, and the
// rate of the interval before, where there is one, a measurement (waiting that fast is what
// ran it up to the maximum): the port waited at least the larger of the two.
std::optional<PortWait> saturated_wait(const ib::LinkEnd& end, std::size_t from, double tick_s,
                                       Survey& fleet) {
  const model::IbPort& port = *end.port;
  const auto before =
      from == 0 ? std::nullopt : ib::value_at(port, metric::k_ib_xmit_wait, from - 1);
  if (!before || from >= port.samples.size()) {
    fleet.history.push_back(ib::end_label(end));
    return std::nullopt;
  }
  const double seconds = port.samples[from].captured_at - port.samples[from - 1].captured_at;
  if (seconds <= 0.0) {
    return std::nullopt;
  }
  PortWait wait{.end = &end, .tick_s = tick_s};
  wait.ticks_per_s = (k_xmit_wait_max - *before) / seconds;
  const auto earlier =
      from < 2 ? std::nullopt : ib::value_at(port, metric::k_ib_xmit_wait, from - 2);
  const double earlier_seconds =
      from < 2 ? 0.0 : port.samples[from - 1].captured_at - port.samples[from - 2].captured_at;
  if (earlier && *earlier <= *before && earlier_seconds > 0.0) {
    wait.ticks_per_s = std::max(wait.ticks_per_s, (*before - *earlier) / earlier_seconds);
  }
  wait.share = wait.ticks_per_s * tick_s;
  wait.lower_bound = true;
  return wait;
}

std::string share_text(const PortWait& wait) {
  return fmt::format("{}{}", wait.lower_bound ? "at least " : "", percent(wait.share));
}

std::string wait_text(const PortWait& wait) {
  return fmt::format(
      "{} waited for credits {} of the window (PortXmitWait {} ticks/s{}, {} ns "
      "a tick)",
      ib::end_label(*wait.end), share_text(wait), human(wait.ticks_per_s),
      wait.lower_bound ? " before it saturated" : "", human(wait.tick_s * 1e9));
}

// The root's entities, most specific culprit first: the HCA it faces, then the port.
std::vector<std::string> root_entities(const PortWait& root) {
  const ib::LinkEnd& end = *root.end;
  if (end.faces_ca()) {
    return {ib::peer_entity(end), ib::end_entity(end)};
  }
  if (end.on_switch()) {
    return {ib::end_entity(end), ib::peer_entity(end)};
  }
  return {ib::peer_entity(end), ib::end_entity(end)};
}

// What the HCA at the root receives against its line rate: a slow drain or an incast.
std::string receiver_text(const PortWait& root, const Judgement& judgement, double& strength) {
  const ib::LinkEnd& end = *root.end;
  Reading rx = ib::port_counter(*end.peer_port, metric::k_ib_rx_bytes);
  if (!rx.is_rate()) {
    rx = ib::port_counter(*end.port, metric::k_ib_tx_bytes);
  }
  if (!rx.is_rate() || !end.port->data_gbps) {
    return fmt::format("sending to {}: the receiver at the root of the congestion",
                       ib::peer_label(end));
  }
  const double received = ib::gbps(rx.value);
  const double line = *end.port->data_gbps;
  if (received < line * judgement.limit("slow_receiver_share")) {
    strength = std::max(strength, judgement.limit("slow_receiver_strength"));
    return fmt::format(
        "sending to {}, which received only {} Gb/s of its {} Gb/s line rate: a "
        "slow receiver (its PCIe link, host memory or receive queues do not drain "
        "the port) at the root of the congestion",
        ib::peer_label(end), human(received), human(line));
  }
  return fmt::format(
      "sending to {}, which received {} Gb/s of its {} Gb/s line rate: more "
      "traffic converges on it than its link can take (incast) at the root of the "
      "congestion",
      ib::peer_label(end), human(received), human(line));
}

void judge_root(const PortWait& root, const Tree& tree, Judgement& judgement) {
  double strength = saturating(root.share, judgement.limit("wait_half_share"));
  const auto victims = tree.victims.find(&root);
  const std::size_t behind = victims == tree.victims.end() ? 0 : victims->second.size();
  const std::string tail =
      behind == 0 ? std::string() : fmt::format("; {} waiting ports behind it", behind);
  if (root.end->faces_ca()) {
    const std::string receiver = receiver_text(root, judgement, strength);
    judgement.find("ib-congestion-root", root_entities(root), strength,
                   fmt::format("{} {}{}", wait_text(root), receiver, tail), root.share,
                   judgement.limit("wait_share"), "fraction");
    return;
  }
  judgement.find("ib-congestion-link-root", root_entities(root), strength,
                 fmt::format("{} sending to {}, which waits on none of its other ports: this "
                             "link carries more than it can (an oversubscribed or down-trained "
                             "link){}",
                             wait_text(root), ib::peer_label(*root.end), tail),
                 root.share, judgement.limit("wait_share"), "fraction");
}

// Packets the root dropped after they waited past the switch's head-of-queue lifetime.
void judge_discards(const PortWait& root, Judgement& judgement) {
  const Reading discards = ib::port_counter(*root.end->port, metric::k_ib_xmit_discards);
  if (!discards.is_rate() || discards.delta < 1.0) {
    return;
  }
  judgement.find(
      "ib-xmit-discards", root_entities(root),
      saturating(discards.value, judgement.limit("discard_half_rate")),
      fmt::format("{} discarded {} packets/s ({} in the window, PortXmitDiscards) while "
                  "waiting for credits: packets held past the switch's head-of-queue "
                  "lifetime are dropped, so this congestion costs retransmits",
                  ib::end_label(*root.end), human(discards.value), human(discards.delta)),
      discards.value, 0.0, "packets/s");
}

void judge_victims(const PortWait& root, const std::vector<const PortWait*>& victims,
                   Judgement& judgement) {
  std::vector<const PortWait*> sorted = victims;
  std::sort(sorted.begin(), sorted.end(),
            [](const PortWait* a, const PortWait* b) { return a->share > b->share; });
  std::vector<std::string> entities;
  std::vector<std::string> named;
  for (const PortWait* victim : sorted) {
    append_unique(entities, ib::end_entity(*victim->end));
    if (named.size() < k_named_victims) {
      named.push_back(fmt::format("{} ({})", ib::end_label(*victim->end), share_text(*victim)));
    }
  }
  judgement.find(
      "ib-congestion-victim", entities,
      saturating(static_cast<double>(sorted.size()), judgement.limit("victims_half_strength")),
      fmt::format("{} ports wait for credits only because the port ahead of them waits, back to "
                  "the root {} ({}): {}{}; victims of it, not culprits",
                  sorted.size(), ib::end_label(*root.end), root_entities(root).front(),
                  fmt::join(named, ", "), sorted.size() > named.size() ? ", ..." : ""),
      sorted.front()->share, judgement.limit("wait_share"), "fraction");
}

void note_history(const Survey& fleet, const Tree& tree, Judgement& judgement) {
  if (!fleet.history.empty()) {
    judgement.note(fmt::format(
        "PortXmitWait of {} sat at its 32-bit maximum from the first sample: history since the "
        "counters were last cleared, not a rate; clear them (perfquery -R) and read twice",
        fmt::join(fleet.history, ", ")));
  }
  if (!fleet.resets.empty()) {
    judgement.note(fmt::format("PortXmitWait of {} went down in the window (cleared): no rate",
                               fmt::join(fleet.resets, ", ")));
  }
  if (!tree.looped.empty()) {
    std::vector<std::string> names;
    for (const PortWait* wait : tree.looped) {
      names.push_back(ib::end_label(*wait->end));
    }
    judgement.note(
        fmt::format("{} wait on each other in a cycle with no root: a credit loop "
                    "(check the routing engine for deadlock-free routes)",
                    fmt::join(names, ", ")));
  }
}

class IbCongestionProbe final : public FleetProbe<Survey> {
 public:
  IbCongestionProbe()
      : FleetProbe(
            {.id = "ib-congestion",
             .description = "InfiniBand credit starvation: the root and its victims",
             .cost = CostClass::Passive,
             .reads = {source::k_perfquery, source::k_ibdiagnet, source::k_ibnetdiscover,
                       source::k_iblinkinfo},
             .findings = {"ib-congestion-root", "ib-congestion-link-root", "ib-congestion-victim",
                          "ib-xmit-discards"},
             .clearing = "ib-congestion-ok",
             .thresholds = {"tick_symbol_times", "fallback_tick_ns", "wait_share",
                            "wait_half_share", "slow_receiver_share", "slow_receiver_strength",
                            "discard_half_rate", "victims_half_strength", "ok_strength",
                            "lower_bound_ok_strength"},
             .fabric = FabricScope::InfiniBand}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    fleet.ends = ib::cabled_ends(judgement.fabric().ib);
    fleet.total = fleet.ends.size();
    for (const auto& end : fleet.ends) {
      const double tick_s = tick_seconds(*end.port, judgement);
      if (const auto from = ib::saturated_from(*end.port, metric::k_ib_xmit_wait)) {
        if (auto wait = saturated_wait(end, *from, tick_s, fleet)) {
          fleet.ports.push_back(*wait);
        }
        continue;
      }
      const Reading wait = ib::port_counter(*end.port, metric::k_ib_xmit_wait);
      if (wait.status == model::RateStatus::Reset) {
        fleet.resets.push_back(ib::end_label(end));
      }
      if (wait.is_rate()) {
        fleet.ports.push_back(PortWait{.end = &end,
                                       .tick_s = tick_s,
                                       .ticks_per_s = wait.value,
                                       .share = wait.value * tick_s});
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"InfiniBand ports", "PortXmitWait over two fabric samples (perfquery, ibdiagnet)",
             fleet.ports.size(), fleet.total}};
  }

  // The tree first: each root with what it costs and who waits behind it.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const Tree tree = build_tree(fleet, judgement.limit("wait_share"));
    for (const PortWait* root : tree.roots) {
      judge_root(*root, tree, judgement);
      judge_discards(*root, judgement);
      if (const auto it = tree.victims.find(root); it != tree.victims.end()) {
        judge_victims(*root, it->second, judgement);
      }
    }
    note_history(fleet, tree, judgement);
    for (const auto& wait : fleet.ports) {
      if (wait.lower_bound && wait.share < judgement.limit("wait_share")) {
        judgement.note(fmt::format("{} (saturated in the window: a lower bound)", wait_text(wait)));
      }
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const auto most =
        std::max_element(fleet.ports.begin(), fleet.ports.end(),
                         [](const PortWait& a, const PortWait& b) { return a.share < b.share; });
    Clearance healthy;
    healthy.summary =
        fmt::format("{} InfiniBand ports each waited for credits under {} of the window",
                    fleet.ports.size(), percent(judgement.limit("wait_share")));
    if (most != fleet.ports.end()) {
      healthy.summary += fmt::format(" (the most: {} at {}, the ordinary wait of a busy port)",
                                     ib::end_label(*most->end), share_text(*most));
      healthy.value = most->share;
    }
    healthy.fleet_normal = judgement.limit("wait_share");
    healthy.unit = "fraction";
    healthy.strength = judgement.limit("ok_strength");
    const auto bounded =
        std::count_if(fleet.ports.begin(), fleet.ports.end(), [&judgement](const PortWait& wait) {
          return wait.lower_bound && wait.share < judgement.limit("wait_share");
        });
    if (bounded > 0) {
      // How long those waited past their lower bound nobody counted: not a clean bill.
      healthy.summary += fmt::format(
          "; {} port(s) saturated PortXmitWait inside the window, their wait only a lower bound",
          bounded);
      healthy.strength = std::min(healthy.strength, judgement.limit("lower_bound_ok_strength"));
    }
    return healthy;
  }
};

}  // namespace
}  // namespace netdoctor::probes::ib_congestion

namespace netdoctor::probes {

std::unique_ptr<Probe> make_ib_congestion_probe() {
  return std::make_unique<ib_congestion::IbCongestionProbe>();
}

}  // namespace netdoctor::probes
