// ib-link-state: every cabled InfiniBand port up, Active, and trained at full width and speed.
//
// Reads each port's logical and physical state, its trained width and speed and what it could
// train at (ibnetdiscover, iblinkinfo's "Could be" notes, ibdiagnet), and the cabling. In a
// healthy subnet every cabled port is LinkUp and Active, at the widest width and fastest speed
// both ends support (4x HDR, 4x NDR), as fast as the other links of its tier (switch to switch,
// switch to HCA). Switch ports with nothing cabled are left alone.
//
// A link trained narrower (a 4x link up as 1x or 2x) or slower (NDR as HDR, HDR as EDR) than
// both ends support (capped by what its tier runs: ports advertise widths no cable gives), or,
// where no view says what they support, slower than its tier, carries a fraction of its share
// and the collective waits for it (ib-link-degraded). A port cabled to a peer
// but Down, Polling or Disabled carries nothing (ib-link-down). A port physically LinkUp but left
// in Initialize or Armed was never activated by the subnet manager: it has no path through the
// subnet (ib-port-not-active, pointing at the subnet manager).
//
// A port down on both ends drops its HCA out of the subnet views altogether, leaving only an
// unused-looking switch port: the host's own view (sysfs, ibv_devinfo) then tells. An HCA
// port down on a host whose other HCAs are on the subnet has fallen off the fabric
// (ib-link-down); a host with none on the subnet may sit on another one and is left alone.
// A switch-to-switch cable down at both ends leaves no peer in any view either: the tier tells.
// A leaf (or spine) with fewer links to switches than the other switches of its tier, with a
// port Down inside the block its switch links occupy, lost that cable; a short leaf and a short
// spine with one such port each are the two ends of it (ib-link-down). Likewise a leaf with
// fewer HCAs than the other leaves and a port Down inside its block of HCA ports lost an HCA,
// seen without the host's view.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "model/entity_names.h"
#include "probes/fleet_probe.h"
#include "probes/ib_links.h"

namespace netdoctor::probes {
namespace {

// How many ports a summary names before "and N more": presentation, not judgement.
constexpr std::size_t k_listed = 4;

// One block of a switch's ports, its links to other switches or (a leaf's) to HCAs: how many
// are Active, and its ports Down with no peer inside the range of port numbers the block's
// links use (cabling plans give uplinks, and hosts, blocks of their own).
struct PortBlock {
  const model::IbNode* node = nullptr;
  bool leaf = false;    // the switch faces HCAs
  bool to_cas = false;  // the block: links to HCAs, else to switches
  int active = 0;
  std::vector<IbEnd> gaps;
};

// An HCA its host lists, down, that no subnet view holds; `on_subnet` of the host's HCAs are.
struct LostHca {
  const model::Nic* nic = nullptr;
  std::size_t on_subnet = 0;
};

struct Survey {
  std::vector<IbEnd> ports;  // cabled or up ports
  std::vector<LostHca> lost;
  std::vector<PortBlock> blocks;
  std::size_t with_state = 0;
  std::map<std::string, std::vector<double>> tier_gbps;  // data rate of Active ports by tier
  std::map<std::string, std::vector<int>> tier_widths;   // and their trained widths
};

std::string word(model::RdmaPortState state) {
  const std::string text = model::to_string(state);
  return text.empty() ? "?" : text;
}

std::string word(model::PhysState state) {
  const std::string text = model::to_string(state);
  return text.empty() ? "?" : text;
}

bool active(const model::IbPort& port) {
  return port.state == model::RdmaPortState::Active && port.phys == model::PhysState::LinkUp;
}

// Down, Polling, Disabled or asleep: nothing passes.
bool down(const model::IbPort& port) {
  if (port.phys != model::PhysState::Unknown) {
    return port.phys != model::PhysState::LinkUp;
  }
  return port.state == model::RdmaPortState::Down;
}

// "4x HDR (200 Gb/s)".
std::string trained(const model::IbPort& port) {
  return fmt::format("{}x {} ({} Gb/s)", port.width.value_or(0),
                     port.speed.empty() ? "?" : port.speed, human(port.data_gbps.value_or(0.0)));
}

// What the link should run at: the lesser of what each end supports, where the views say.
struct Expected {
  std::optional<int> width;
  std::optional<double> gbps;
};

// A tier of more links than this one (both ends of each are counted) has a usual to cap by.
constexpr std::size_t k_ends_of_one_link = 2;

// What the link should run at: the lesser of what each end supports, where the views say, and
// no more than its tier usually runs where the tier has other links. Ports advertise more than
// any cable of the fabric gives (ibsim and some switches list 12x): a link at the width and
// rate of its tier is not degraded for that.
Expected expected_of(const Survey& fleet, const IbEnd& end, const IbEnd& peer) {
  const model::IbPort& port = *end.port;
  Expected out{port.supported_width, port.supported_data_gbps};
  if (peer.known()) {
    const model::IbPort& p = *peer.port;
    if (p.supported_width) {
      out.width = out.width ? std::min(*out.width, *p.supported_width) : *p.supported_width;
    }
    if (p.supported_data_gbps) {
      out.gbps = out.gbps ? std::min(*out.gbps, *p.supported_data_gbps) : *p.supported_data_gbps;
    }
  }
  const std::string tier = ib_tier(end, peer);
  const std::vector<int>& widths = fleet.tier_widths.at(tier);
  const std::vector<double>& rates = fleet.tier_gbps.at(tier);
  if (const auto usual = int_mode_of(widths);
      usual && out.width && widths.size() > k_ends_of_one_link) {
    out.width = std::min(*out.width, *usual);
  }
  if (const auto usual = double_mode_of(rates);
      usual && out.gbps && rates.size() > k_ends_of_one_link) {
    out.gbps = std::min(*out.gbps, *usual);
  }
  return out;
}

// Why an Active link counts as degraded ("" when it does not), and the rate it should run.
struct Shortfall {
  std::vector<std::string> why;
  double expected = 0.0;
};

Shortfall shortfall_of(const Survey& fleet, const IbEnd& end, const IbEnd& peer,
                       const Judgement& judgement) {
  const model::IbPort& port = *end.port;
  const double share = judgement.limit("min_speed_share");
  const double gbps = port.data_gbps.value_or(0.0);
  const Expected want = expected_of(fleet, end, peer);
  Shortfall out;
  if (want.width && port.width && *port.width < *want.width) {
    out.why.push_back(
        fmt::format("{}x where both ends support {}x, as its tier runs", *port.width, *want.width));
  }
  if (want.gbps && gbps > 0.0 && gbps < *want.gbps * share) {
    out.why.push_back(
        fmt::format("{} Gb/s where both ends support {} Gb/s", human(gbps), human(*want.gbps)));
    out.expected = *want.gbps;
  }
  // Against the tier only where no view says what the ends support: a link at the most both
  // ends can do is not degraded, even beside faster ones (an HDR HCA in an NDR fabric).
  const std::string tier = ib_tier(end, peer);
  const std::vector<double>& rates = fleet.tier_gbps.at(tier);
  const double usual = double_mode_of(rates).value_or(gbps);
  if (!want.gbps && gbps > 0.0 && gbps < usual * share) {
    out.why.push_back(
        fmt::format("the other {} {} links run {} Gb/s", rates.size(), tier, human(usual)));
    out.expected = std::max(out.expected, usual);
  }
  if (!out.why.empty() && out.expected == 0.0 && want.width && port.width) {
    out.expected = gbps * *want.width / *port.width;
  }
  return out;
}

void judge_degraded(const Survey& fleet, const IbEnd& end, std::set<std::string>& links,
                    Judgement& judgement) {
  const model::IbFabric& ib = judgement.fabric().ib;
  const IbEnd peer = ib_peer_end(ib, end);
  const Shortfall shortfall = shortfall_of(fleet, end, peer, judgement);
  if (shortfall.why.empty()) {
    return;
  }
  const std::string link = ib_link_name(ib, end);
  if (!link.empty() && !links.insert(link).second) {
    return;
  }
  const double gbps = end.port->data_gbps.value_or(0.0);
  std::string text =
      fmt::format("{}{} trained {}: ", end.label(),
                  peer.known() ? " ~ " + peer.label() : std::string(), trained(*end.port));
  for (std::size_t i = 0; i < shortfall.why.size(); ++i) {
    text += (i == 0 ? "" : "; ") + shortfall.why[i];
  }
  const double ratio = gbps > 0.0 ? shortfall.expected / gbps - 1.0 : 0.0;
  judgement.find("ib-link-degraded", ib_link_entities(ib, end),
                 std::max(saturating(ratio, judgement.limit("shortfall_half_strength")),
                          judgement.limit("narrow_min_strength")),
                 text, gbps, shortfall.expected, "Gb/s");
}

void judge_down(const IbEnd& end, std::set<std::string>& links, Judgement& judgement) {
  const model::IbFabric& ib = judgement.fabric().ib;
  const std::string link = ib_link_name(ib, end);
  if (!link.empty() && !links.insert(link).second) {
    return;
  }
  const IbEnd peer = ib_peer_end(ib, end);
  judgement.find(
      "ib-link-down", ib_link_entities(ib, end), judgement.limit("down_strength"),
      fmt::format("{} is {} / {} though it is cabled to {}", end.label(), word(end.port->state),
                  word(end.port->phys), peer.known() ? peer.label() : std::string("a peer")));
}

bool hca_down(const model::Nic& nic) {
  if (nic.phys_state != model::PhysState::Unknown) {
    return nic.phys_state != model::PhysState::LinkUp;
  }
  return nic.state == model::RdmaPortState::Down;
}

std::vector<LostHca> lost_hcas(const model::Fabric& fabric) {
  // The subnet's HCAs by (host, device), gathered once: a scan per NIC is quadratic in the fleet.
  std::set<std::pair<std::string_view, std::string_view>> on_subnet_cas;
  for (const auto& node : fabric.ib.nodes) {
    if (node.kind == model::IbNodeKind::Ca && !node.host.empty()) {
      on_subnet_cas.emplace(node.host, node.device);
    }
  }
  const auto on_ib = [](const model::Nic& nic) {
    return nic.link_layer == "InfiniBand" && !nic.device.empty();
  };
  std::vector<LostHca> out;
  for (const auto& host : fabric.hosts) {
    std::size_t on_subnet = 0;
    std::vector<const model::Nic*> missing;
    for (const auto& nic : host.nics) {
      if (!on_ib(nic)) {
        continue;
      }
      if (on_subnet_cas.count({host.name, nic.device}) > 0) {
        ++on_subnet;
      } else if (hca_down(nic)) {
        missing.push_back(&nic);
      }
    }
    if (on_subnet == 0) {
      continue;  // none of its HCAs on this subnet: it may sit on another one
    }
    for (const model::Nic* nic : missing) {
      out.push_back(LostHca{nic, on_subnet});
    }
  }
  return out;
}

// Where a block's links sit: the lowest and highest port numbers, and how many are Active.
struct Span {
  std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t high = 0;
  int active = 0;
};

std::vector<PortBlock> port_blocks(const model::IbFabric& ib) {
  std::vector<PortBlock> out;
  for (const auto& node : ib.nodes) {
    if (node.kind == model::IbNodeKind::Ca) {
      continue;
    }
    Span spans[2];  // [0] to switches, [1] to HCAs
    for (const auto& port : node.ports) {
      const IbEnd peer = ib_peer_end(ib, IbEnd{&node, &port});
      if (!peer.known()) {
        continue;
      }
      Span& span = spans[peer.is_ca() ? 1 : 0];
      span.low = std::min(span.low, port.number);
      span.high = std::max(span.high, port.number);
      span.active += active(port) ? 1 : 0;
    }
    const bool leaf = spans[1].high > 0;
    for (const bool to_cas : {false, true}) {
      const Span& span = spans[to_cas ? 1 : 0];
      if (span.high == 0) {
        continue;
      }
      PortBlock block{.node = &node, .leaf = leaf, .to_cas = to_cas, .active = span.active};
      for (const auto& port : node.ports) {
        if (!port.cabled() && down(port) && port.number > span.low && port.number < span.high) {
          block.gaps.push_back(IbEnd{&node, &port});
        }
      }
      out.push_back(std::move(block));
    }
  }
  return out;
}

// A block short of its tier's usual count of links, each missing link a gap port.
struct ShortBlock {
  const PortBlock* block = nullptr;
  int usual = 0;
};

// A tier's usual count is its most common one where that many switches share it; else (two
// spines, one short) the most any of them has.
constexpr std::ptrdiff_t k_tier_quorum = 2;

std::vector<ShortBlock> short_blocks(const std::vector<PortBlock>& all) {
  std::vector<ShortBlock> out;
  for (const auto& kind : {std::pair{true, false}, {false, false}, {true, true}}) {
    const auto same_kind = [kind](const PortBlock& block) {
      return block.leaf == kind.first && block.to_cas == kind.second;
    };
    std::vector<int> counts;
    for (const auto& block : all) {
      if (same_kind(block)) {
        counts.push_back(block.active);
      }
    }
    if (counts.size() < 2) {
      continue;  // nothing to compare with
    }
    auto usual = int_mode_of(counts);
    if (!usual || std::count(counts.begin(), counts.end(), *usual) < k_tier_quorum) {
      usual = *std::max_element(counts.begin(), counts.end());
    }
    for (const auto& block : all) {
      const int missing = *usual - block.active;
      if (same_kind(block) && missing > 0 && !block.gaps.empty() &&
          block.gaps.size() <= static_cast<std::size_t>(missing)) {
        out.push_back(ShortBlock{&block, *usual});
      }
    }
  }
  return out;
}

std::string short_text(const ShortBlock& short_block) {
  const PortBlock& block = *short_block.block;
  std::string gaps;
  for (const IbEnd& gap : block.gaps) {
    gaps += fmt::format("{}{} ({} / {})", gaps.empty() ? "" : ", ", gap.label(),
                        word(gap.port->state), word(gap.port->phys));
  }
  return fmt::format("{} has {} links to {} where the other {} have {}, and {} down among them",
                     block.node->name, block.active, block.to_cas ? "HCAs" : "switches",
                     block.leaf ? "leaves" : "spines", short_block.usual, gaps);
}

// The HCAs' own view and the leaf's HCA block name one lost cable: one HCA its host lists down
// and one leaf with one gap in its HCA block are its two ends.
bool judge_lost_cable(const std::vector<LostHca>& lost, const std::vector<ShortBlock>& shorts,
                      Judgement& judgement) {
  std::vector<const ShortBlock*> hca_blocks;
  for (const ShortBlock& short_block : shorts) {
    if (short_block.block->to_cas) {
      hca_blocks.push_back(&short_block);
    }
  }
  if (lost.size() != 1 || hca_blocks.size() != 1 || hca_blocks[0]->block->gaps.size() != 1) {
    return false;
  }
  const model::Nic& nic = *lost[0].nic;
  judgement.find("ib-link-down",
                 {model::nic_entity(nic.host, nic.device), hca_blocks[0]->block->gaps[0].entity()},
                 judgement.limit("down_strength"),
                 fmt::format("{}/{} is {} / {} on its host and missing from the subnet views; {}: "
                             "the two ends of its cable",
                             nic.host, nic.device, word(nic.state), word(nic.phys_state),
                             short_text(*hca_blocks[0])));
  return true;
}

void judge_missing(const std::vector<ShortBlock>& shorts, bool hcas_judged, Judgement& judgement) {
  std::vector<const ShortBlock*> uplinks;
  for (const ShortBlock& short_block : shorts) {
    if (!short_block.block->to_cas) {
      uplinks.push_back(&short_block);
    }
  }
  const auto one_gap = [](const ShortBlock* s) { return s->block->gaps.size() == 1; };
  const bool pair = uplinks.size() == 2 && uplinks[0]->block->leaf != uplinks[1]->block->leaf &&
                    std::all_of(uplinks.begin(), uplinks.end(), one_gap);
  if (pair) {
    judgement.find("ib-link-down",
                   {uplinks[0]->block->gaps[0].entity(), uplinks[1]->block->gaps[0].entity()},
                   judgement.limit("missing_pair_strength"),
                   fmt::format("{}; {}: the two ends of one cable down at both ends, in no view "
                               "of the subnet",
                               short_text(*uplinks[0]), short_text(*uplinks[1])));
  }
  for (const ShortBlock& short_block : shorts) {
    if ((pair && !short_block.block->to_cas) || (hcas_judged && short_block.block->to_cas)) {
      continue;
    }
    std::vector<std::string> entities;
    for (const IbEnd& gap : short_block.block->gaps) {
      entities.push_back(gap.entity());
    }
    judgement.find("ib-link-down", entities, judgement.limit("missing_strength"),
                   short_text(short_block) +
                       (short_block.block->to_cas
                            ? ": an HCA's cable down at both ends, the HCA gone from the subnet"
                            : ": a cable to another switch down at both ends"));
  }
}

void judge_lost(const LostHca& lost, Judgement& judgement) {
  const model::Nic& nic = *lost.nic;
  judgement.find("ib-link-down", {model::nic_entity(nic.host, nic.device)},
                 judgement.limit("down_strength"),
                 fmt::format("{}/{} is {} / {} on its host and missing from the subnet views, "
                             "while {} other HCA(s) of {} are on the subnet: its cable, "
                             "transceiver or switch port is down",
                             nic.host, nic.device, word(nic.state), word(nic.phys_state),
                             lost.on_subnet, nic.host));
}

// Every port LinkUp but held in Initialize or Armed, in one finding: the subnet manager's.
void judge_not_active(const std::vector<IbEnd>& held, Judgement& judgement) {
  if (held.empty()) {
    return;
  }
  std::vector<std::string> entities;
  std::string names;
  for (std::size_t i = 0; i < held.size(); ++i) {
    append_unique(entities, held[i].entity());
    if (i < k_listed) {
      names +=
          fmt::format("{}{} ({})", i == 0 ? "" : ", ", held[i].label(), word(held[i].port->state));
    }
  }
  if (held.size() > k_listed) {
    names += fmt::format(" and {} more", held.size() - k_listed);
  }
  // The switches whose ports wait: where a whole subnet waits (no SM), they carry the blame
  // between them rather than dozens of ports a share each.
  for (const IbEnd& end : held) {
    if (!end.is_ca()) {
      append_unique(entities, end.node->entity());
    }
  }
  judgement.find("ib-port-not-active", entities, judgement.limit("not_active_strength"),
                 fmt::format("{} IB ports are physically LinkUp but not Active, never brought "
                             "up by the subnet manager: {}",
                             held.size(), names),
                 static_cast<double>(held.size()), 0.0, "ports");
}

class IbLinkStateProbe final : public FleetProbe<Survey> {
 public:
  IbLinkStateProbe()
      : FleetProbe({.id = "ib-link-state",
                    .description = "InfiniBand ports cabled but down, not Active, or trained "
                                   "below their width/speed or their tier",
                    .cost = CostClass::Config,
                    .reads = {source::k_ibnetdiscover, source::k_iblinkinfo, source::k_ibdiagnet,
                              // the hosts' own view of HCAs the subnet views lost
                              source::k_sysfs_port, source::k_ibv_devinfo},
                    .findings = {"ib-link-degraded", "ib-link-down", "ib-port-not-active"},
                    .clearing = "ib-link-state-ok",
                    .thresholds = {"min_speed_share", "shortfall_half_strength",
                                   "narrow_min_strength", "down_strength", "not_active_strength",
                                   "ok_strength", "missing_pair_strength", "missing_strength"},
                    .fabric = FabricScope::InfiniBand}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::IbFabric& ib = judgement.fabric().ib;
    Survey fleet;
    for (const IbEnd& end : ib_ports(ib)) {
      const model::IbPort& port = *end.port;
      if (!port.cabled() && !port.is_up()) {
        continue;  // nothing cabled: an unused switch port
      }
      fleet.ports.push_back(end);
      const bool known =
          port.state != model::RdmaPortState::Unknown || port.phys != model::PhysState::Unknown;
      fleet.with_state += known ? 1U : 0U;
      const std::string tier = ib_tier(end, ib_peer_end(ib, end));
      auto& rates = fleet.tier_gbps[tier];
      auto& widths = fleet.tier_widths[tier];
      if (active(port) && port.data_gbps) {
        rates.push_back(*port.data_gbps);
      }
      if (active(port) && port.width) {
        widths.push_back(*port.width);
      }
    }
    fleet.lost = lost_hcas(judgement.fabric());
    fleet.blocks = port_blocks(ib);
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"IB ports", "port state (ibnetdiscover, iblinkinfo)", fleet.with_state,
             fleet.ports.size()}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    std::set<std::string> degraded;
    std::set<std::string> downed;
    std::vector<IbEnd> held;
    for (const IbEnd& end : fleet.ports) {
      const model::IbPort& port = *end.port;
      if (active(port)) {
        judge_degraded(fleet, end, degraded, judgement);
      } else if (ib_port_held(port)) {
        held.push_back(end);
      } else if (port.cabled() && down(port)) {
        judge_down(end, downed, judgement);
      }
    }
    judge_not_active(held, judgement);
    const std::vector<ShortBlock> shorts = short_blocks(fleet.blocks);
    const bool one_cable = judge_lost_cable(fleet.lost, shorts, judgement);
    for (const LostHca& lost : fleet.lost) {
      if (!one_cable) {
        judge_lost(lost, judgement);
      }
    }
    judge_missing(shorts, one_cable, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    std::string tiers;
    for (const auto& [tier, rates] : fleet.tier_gbps) {
      if (const auto usual = double_mode_of(rates)) {
        tiers += fmt::format("{}{} {} links at {} Gb/s", tiers.empty() ? "" : ", ", rates.size(),
                             tier, human(*usual));
      }
    }
    Clearance healthy;
    healthy.summary = fmt::format(
        "{} cabled IB ports Active and LinkUp at the width and speed both ends support ({})",
        fleet.ports.size(), tiers);
    healthy.strength = judgement.limit("ok_strength");
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_ib_link_state_probe() {
  return std::make_unique<IbLinkStateProbe>();
}

}  // namespace netdoctor::probes
