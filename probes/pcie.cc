// pcie: NICs whose PCIe link trained below what they can do, so the host cannot feed the port.
//
// Reads each NIC's PCIe link (sysfs <netdev>/device/*_link_{width,speed}, else lspci -vvv
// LnkSta against LnkCap) and the kernel's "available PCIe bandwidth ... limited by" line
// (dmesg). The link's ceiling is width x GT/s x encoding, per direction. In a healthy fleet each
// NIC runs the width and rate it is capable of, as its peers of the same model do, and its
// ceiling is above its port's line rate (gen4 x16 ~252 Gb/s for a 200G port).
//
// A NIC trained narrower or slower than its capability or its peers, whose ceiling is below its
// line rate, cannot fill its port whatever the network does (pcie-degraded); so can a NIC behind
// an upstream bridge the kernel names. A fleet trained at x8 by design whose ceiling still
// exceeds the line rate is not a fault. The kernel's warning alone (the link now reads fine, or
// its ceiling still carries the port) is a weaker sign.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/strings.h"
#include "probes/fleet_probe.h"

namespace netdoctor::probes {
namespace {

std::string nic_model(const model::Nic& nic) {
  return nic.vendor + "/" + (nic.part_id.empty() ? nic.board_id : nic.part_id);
}

// "16.0 GT/s x8 (126 Gb/s)"
std::string link_text(std::optional<double> gt_s, std::optional<std::uint32_t> width,
                      std::optional<double> gbps) {
  return fmt::format("{} GT/s x{} ({} Gb/s)", gt_s ? fmt::format("{:.1f}", *gt_s) : "?",
                     width ? std::to_string(*width) : "?", gbps ? human(*gbps) : "?");
}

struct Survey {
  std::vector<const model::Nic*> nics;                  // with a PCIe ceiling
  std::map<std::string, std::vector<double>> ceilings;  // Gb/s by NIC model
  std::size_t total = 0;
};

// What the NIC is measured against: its own capability, its peers, its port.
struct Shortfall {
  std::string why;            // "" when the link is at its capability and its peers'
  double peer_ceiling = 0.0;  // the mode of its model's ceilings
};

Shortfall shortfall(const Survey& fleet, const model::Nic& nic, const Judgement& judgement) {
  const model::PcieLink& link = nic.pcie;
  const double ceiling = *link.ceiling_gbps;
  Shortfall out;
  out.peer_ceiling = double_mode_of(fleet.ceilings.at(nic_model(nic))).value_or(ceiling);
  std::vector<std::string> reasons;
  if (link.width_downgraded || link.speed_downgraded) {
    reasons.push_back(
        fmt::format("capable of {}", link_text(link.max_gt_s, link.max_width, link.capable_gbps)));
  }
  if (link.kernel_limited && !link.limited_at.empty()) {
    reasons.push_back(
        fmt::format("the kernel names the bottleneck, the link at {}", link.limited_at));
  }
  if (ceiling < out.peer_ceiling * judgement.limit("min_peer_share")) {
    reasons.push_back(fmt::format("its {} peers of model {} reach {} Gb/s",
                                  fleet.ceilings.at(nic_model(nic)).size(), nic_model(nic),
                                  human(out.peer_ceiling)));
  }
  out.why = join(reasons, "; ");
  return out;
}

// The port speed the NIC should carry: its rated speed, else what it negotiated.
std::optional<double> line_rate(const model::Nic& nic) {
  return nic.rated_gbps ? nic.rated_gbps : nic.speed_gbps;
}

void judge_nic(const Survey& fleet, const model::Nic& nic, Judgement& judgement) {
  const model::PcieLink& link = nic.pcie;
  const double ceiling = *link.ceiling_gbps;
  const Shortfall below = shortfall(fleet, nic, judgement);
  const auto port = line_rate(nic);
  const double needed = port ? *port * judgement.limit("min_ceiling_ratio") : below.peer_ceiling;
  const std::string trained = link_text(link.gt_s, link.width, link.ceiling_gbps);
  if (!below.why.empty() && ceiling < needed) {
    judgement.find(
        "pcie-link-degraded", nic_entities(nic, false),
        saturating(needed / ceiling - 1.0, judgement.limit("shortfall_half_strength")),
        fmt::format("{} PCIe link trained at {}; {}: a ceiling of {} Gb/s below {} Gb/s{}",
                    nic_label(nic), trained, below.why, human(ceiling), human(needed),
                    port ? " of its port" : " of its peers"),
        ceiling, needed, "Gb/s");
  } else if (link.kernel_limited &&
             (link.source == source::k_dmesg ||
              ceiling < below.peer_ceiling * judgement.limit("min_peer_share"))) {
    // The kernel's word, with the port still carried: a NIC unlike its peers, or one whose
    // present link was not captured (a fleet at x8 by design logs the same line everywhere).
    judgement.find("pcie-bandwidth-warning", nic_entities(nic, false),
                   judgement.limit("kernel_warning_strength"),
                   fmt::format("{}: the kernel logged its PCIe bandwidth limited (by {}); it "
                               "reads {}, enough for its port",
                               nic_label(nic), link.limited_at, trained),
                   ceiling, needed, "Gb/s");
  }
}

class PcieProbe final : public FleetProbe<Survey> {
 public:
  PcieProbe()
      : FleetProbe({.id = "pcie",
                    .description = "NIC PCIe links trained below capability, capping the port",
                    .cost = CostClass::Config,
                    .reads = {source::k_sysfs_pcie, source::k_lspci, source::k_dmesg,
                              source::k_ethtool_info, source::k_ethtool_link, source::k_ibv_devinfo,
                              source::k_sysfs_port, source::k_sysfs_net},
                    .findings = {"pcie-link-degraded", "pcie-bandwidth-warning"},
                    .clearing = "pcie-link-ok",
                    .thresholds = {"min_ceiling_ratio", "min_peer_share", "shortfall_half_strength",
                                   "kernel_warning_strength", "ok_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    for (const auto& host : judgement.fabric().hosts) {
      for (const auto& nic : host.nics) {
        ++fleet.total;
        if (nic.pcie.ceiling_gbps) {
          fleet.nics.push_back(&nic);
          fleet.ceilings[nic_model(nic)].push_back(*nic.pcie.ceiling_gbps);
        }
      }
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "PCIe links (sysfs pcie, lspci, dmesg)", fleet.nics.size(), fleet.total}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    for (const model::Nic* nic : fleet.nics) {
      judge_nic(fleet, *nic, judgement);
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    double lowest = 0.0;
    for (const model::Nic* nic : fleet.nics) {
      const double ceiling = *nic->pcie.ceiling_gbps;
      lowest = lowest == 0.0 ? ceiling : std::min(lowest, ceiling);
    }
    return {.summary = fmt::format("{} NICs' PCIe links carry their port (lowest ceiling {} "
                                   "Gb/s), none trained below its capability and its port",
                                   fleet.nics.size(), human(lowest)),
            .strength = judgement.limit("ok_strength"),
            .value = lowest,
            .unit = "Gb/s"};
  }
};

}  // namespace

std::unique_ptr<Probe> make_pcie_probe() {
  return std::make_unique<PcieProbe>();
}

}  // namespace netdoctor::probes
