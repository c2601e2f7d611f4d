// link-margin: how hard each link's forward error correction works. PAM4 links at 50G a lane
// and up always see raw bit errors; the RS(544,514) FEC corrects them until the raw (pre-FEC)
// bit error rate nears its limit, and only then do uncorrectable blocks, CRC errors and drops
// appear. A link correcting far more than its fleet, or within a decade of that limit, is a
// cable, optic or port losing margin: replace it before it starts dropping.
//
// Reads the bits each NIC corrected and received (ethtool -S: mlx5 rx_corrected_bits_phy and
// rx_bits_phy, bnxt rx_corrected_bits and rx_bits). A healthy fleet runs at a pre-FEC BER far
// below the FEC limit, all links of a kind within a few times one another.
#include <fmt/format.h>

#include <algorithm>

#include "probes/fleet_probe.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

struct LinkBer {
  const model::Nic* nic = nullptr;
  double ber = 0.0;  // corrected bits / received bits
  double bits = 0.0;
};

struct Survey {
  std::vector<LinkBer> links;  // links that carried enough bits to estimate a BER
  std::size_t total = 0;
  std::size_t with_data = 0;  // NICs counting corrected and received bits
  FleetStats stats;
  bool rate_mode = false;  // over the window, else since the counters last reset
};

std::string ber_text(double ber) {
  return fmt::format("{:.2g}", ber);
}

class LinkMarginProbe final : public FleetProbe<Survey> {
 public:
  LinkMarginProbe()
      : FleetProbe({.id = "link-margin",
                    .description = "Pre-FEC bit error rate per link: margin left before errors",
                    .cost = CostClass::Passive,
                    .reads = {source::k_ethtool_stats},
                    .findings = {"fec-margin-low"},
                    .clearing = "fec-margin-ok",
                    .thresholds = {"min_bits", "min_pre_fec_ber", "max_pre_fec_ber",
                                   "near_limit_strength", "margin_ok_strength"},
                    .fabric = FabricScope::Ethernet}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    Survey fleet;
    const NicSurvey corrected = survey_nics(judgement.fabric(), [](const model::Nic& nic) {
      return read_counter(nic.samples, metric::k_fec_corrected_bits);
    });
    fleet.total = corrected.total;
    fleet.rate_mode = corrected.rate_mode;
    for (const NicValue& value : corrected.values) {
      const Reading bits = read_counter(value.nic->samples, metric::k_rx_bits);
      if (!bits.present() || bits.is_rate() != value.reading.is_rate()) {
        continue;
      }
      ++fleet.with_data;
      // A BER below 1/bits cannot be resolved: an idle link says nothing about its margin.
      const double bits_seen = bits.is_rate() ? bits.delta : bits.value;
      if (bits_seen >= judgement.limit("min_bits") && bits.value > 0.0) {
        fleet.links.push_back({value.nic, value.reading.value / bits.value, bits_seen});
      }
    }
    std::vector<double> rates;
    for (const auto& link : fleet.links) {
      rates.push_back(link.ber);
    }
    fleet.stats = fleet_stats(std::move(rates));
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    return {{"NICs", "ethtool -S corrected and received bits", fleet.with_data, fleet.total}};
  }

  // Near the FEC limit the link is failing whatever its fleet does; far above its fleet it is
  // the one link of a kind that lost its margin.
  void judge(const Survey& fleet, Judgement& judgement) const override {
    const double floor = judgement.limit("min_pre_fec_ber");
    const double limit = judgement.limit("max_pre_fec_ber");
    const OutlierRule rule = judgement.outlier_rule(floor, floor);
    for (const auto& link : fleet.links) {
      const Deviation dev = assess_high(link.ber, fleet.stats, rule);
      const bool near_limit = link.ber >= limit;
      if (!near_limit && !dev.outlier) {
        continue;
      }
      std::vector<std::string> entities = nic_entities(*link.nic);
      if (cabled_port(judgement.fabric(), *link.nic) != nullptr) {
        append_unique(entities, link_entity(link.nic->netdev_entity(), link.nic->port_entity()));
      }
      judgement.find(
          "fec-margin-low", entities,
          near_limit ? std::max(dev.strength, judgement.limit("near_limit_strength"))
                     : dev.strength,
          fmt::format("{} corrects bits at a pre-FEC BER of {}{}, {}x the fleet median of {}; "
                      "{} the {} at which this link's margin is gone",
                      nic_label(*link.nic), ber_text(link.ber),
                      fleet.rate_mode ? "" : " (since the counters last reset)", human(dev.ratio),
                      ber_text(fleet.stats.median), near_limit ? "at or above" : "below",
                      ber_text(limit)),
          link.ber, fleet.stats.median, "pre-FEC BER");
    }
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    double worst = 0.0;
    for (const auto& link : fleet.links) {
      worst = std::max(worst, link.ber);
    }
    return {.summary = fmt::format("{} links correct bits at a pre-FEC BER of median {} (worst "
                                   "{}), none far above the fleet nor near {}",
                                   fleet.links.size(), ber_text(fleet.stats.median),
                                   ber_text(worst), ber_text(judgement.limit("max_pre_fec_ber"))),
            .strength = judgement.limit("margin_ok_strength"),
            .value = worst,
            .fleet_normal = fleet.stats.median,
            .unit = "pre-FEC BER"};
  }
};

}  // namespace

std::unique_ptr<Probe> make_link_margin_probe() {
  return std::make_unique<LinkMarginProbe>();
}

}  // namespace netdoctor::probes
