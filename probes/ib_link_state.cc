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
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "probes/fleet_probe.h"
#include "probes/ib_links.h"

namespace netdoctor::probes {
namespace {

// How many ports a summary names before "and N more": presentation, not judgement.
constexpr std::size_t k_listed = 4;

struct Survey {
  std::vector<IbEnd> ports;  // cabled or up ports
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
      : FleetProbe(
            {.id = "ib-link-state",
             .description = "InfiniBand ports cabled but down, not Active, or trained "
                            "below their width/speed or their tier",
             .cost = CostClass::Config,
             .reads = {source::k_ibnetdiscover, source::k_iblinkinfo, source::k_ibdiagnet},
             .findings = {"ib-link-degraded", "ib-link-down", "ib-port-not-active"},
             .clearing = "ib-link-state-ok",
             .thresholds = {"min_speed_share", "shortfall_half_strength", "narrow_min_strength",
                            "down_strength", "not_active_strength", "ok_strength"},
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
      } else if (port.phys == model::PhysState::LinkUp &&
                 (port.state == model::RdmaPortState::Init ||
                  port.state == model::RdmaPortState::Armed)) {
        held.push_back(end);
      } else if (port.cabled() && down(port)) {
        judge_down(end, downed, judgement);
      }
    }
    judge_not_active(held, judgement);
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
