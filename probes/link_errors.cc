// link-errors: physical-layer damage on every link, seen from both of its ends.
//
// Reads each NIC's FCS, symbol and FEC-uncorrectable error counters (ethtool -S, or the netdev
// and InfiniBand counters in sysfs where the driver lacks one), its link-down events and the
// bits it received, and each switch port's RX_ERR (show interfaces counters). A healthy link
// carries traffic with a bit error ratio below the IEEE 802.3 limit: its error counters stay
// flat and it never goes down while the job runs.
//
// A link whose errors stand out from the fleet, or whose errors per bit carried exceed the
// limit over enough errors to be a rate, is damaged: a bad cable, optic or port, named by both
// of its ends (link-errors). One read alone is history of unknown age and weighs less than a
// rate. A link that went down during the window is flapping now, resetting every queue pair on
// it (link-flap).
//
// The kernel log (dmesg) corroborates: a netdev whose link went down after it had come up
// (kernel-link-flaps), and driver, firmware or PCIe AER errors naming the NIC (driver-errors).
// The log is history since boot, not the window: it localizes, weighing less than the counters,
// and is never enough for the probe to run on alone (no coverage of its own).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "base/strings.h"
#include "probes/fleet_probe.h"
#include "probes/metric_names.h"

namespace netdoctor::probes {
namespace {

// Unit conversion, not a judgement.
constexpr double k_bits_per_gbit = 1e9;

struct ErrorRead {
  Reading errors;  // symbol + FCS + FEC-uncorrectable
  std::string detail;
};

// The ethtool counter, or the same fact from another source when the driver lacks it.
Reading read_either(const model::Nic& nic, const char* name, const char* fallback) {
  Reading r = read_counter(nic.samples, name);
  if (r.present() || r.status == model::RateStatus::Reset || fallback == nullptr) {
    return r;
  }
  return read_counter(nic.samples, fallback);
}

ErrorRead read_nic_errors(const model::Nic& nic) {
  ErrorRead out;
  std::vector<std::string> parts;
  struct Kind {
    const char* name;
    const char* fallback;
    const char* words;
  };
  for (const Kind& kind : {Kind{metric::k_fcs_errors, metric::k_netdev_rx_crc_errors, "FCS"},
                           Kind{metric::k_symbol_errors, metric::k_ib_symbol_errors, "symbol"},
                           Kind{metric::k_fec_uncorrectable, nullptr, "FEC-uncorrectable"}}) {
    const char* words = kind.words;
    Reading r = read_either(nic, kind.name, kind.fallback);
    if (r.status == model::RateStatus::Reset) {
      out.errors.status = r.status;
      return out;
    }
    if (!r.present()) {
      continue;
    }
    if (!out.errors.present() || !r.is_rate()) {
      out.errors.status = r.status;
    }
    out.errors.value += r.value;
    out.errors.delta += r.delta;
    out.errors.window_s = std::max(out.errors.window_s, r.window_s);
    out.errors.cleared = std::max(out.errors.cleared, r.cleared);
    if (r.value > 0.0) {
      parts.push_back(fmt::format("{} {}", human(r.value), words));
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out.detail += (i == 0 ? "" : ", ") + parts[i];
  }
  return out;
}

// The bits the NIC received per second, else its link speed: what its errors are a ratio of.
double bits_carried(const model::Nic& nic) {
  const Reading bits = read_counter(nic.samples, metric::k_rx_bits);
  return bits.is_rate() && bits.value > 0.0
             ? bits.value
             : (nic.speed_gbps ? *nic.speed_gbps * k_bits_per_gbit : 0.0);
}

// What the survey keeps of one NIC besides its error reading.
struct NicLink {
  std::string detail;  // the kinds of error that moved: "264 FCS, 527 symbol"
  double bits_per_s = 0.0;
};

struct PortErrors {
  const model::Switch* sw = nullptr;
  const model::SwitchPort* port = nullptr;
  Reading errors;  // RX_ERR, a rate over the window
};

struct Survey {
  NicSurvey errors;  // FCS + symbol + FEC-uncorrectable per NIC
  std::map<const model::Nic*, NicLink> links;
  NicSurvey downs;                        // link-down events per NIC
  std::vector<PortErrors> ports;          // switch ports with an RX_ERR rate
  FleetStats port_stats;                  // over their rates
  std::vector<const model::Nic*> kernel;  // NICs whose kernel log was read
};

// Errors per bit carried above the limit, over enough errors in the window to make a rate:
// damage whatever the fleet does.
bool over_limit(double ber, double delta, const Judgement& judgement) {
  return ber > judgement.limit("ber_limit") && delta >= judgement.limit("min_error_count");
}

double damage_strength(const Deviation& dev, double ber, bool over, const Judgement& judgement) {
  return std::max(dev.strength, over ? saturating(ber, judgement.limit("ber_limit")) : 0.0);
}

// The NIC, its netdev, its switch port and the link between them.
std::vector<std::string> nic_link_entities(const model::Nic& nic) {
  std::vector<std::string> entities = nic_entities(nic);
  if (!nic.port_entity().empty()) {
    entities.push_back(link_entity(nic.netdev_entity(), nic.port_entity()));
  }
  return entities;
}

void judge_nic_errors(const Survey& fleet, Judgement& judgement) {
  const NicSurvey& errors = fleet.errors;
  const double min_rate = judgement.limit("min_error_rate");
  const OutlierRule rule =
      judgement.outlier_rule(errors.rate_mode ? min_rate : judgement.cumulative_floor(min_rate));
  for (const auto& value : errors.values) {
    const model::Nic& nic = *value.nic;
    const NicLink& link = fleet.links.at(value.nic);
    const Deviation dev = assess_high(value.reading.value, errors.stats, rule);
    double ber = 0.0;
    bool over = false;
    if (value.reading.is_rate() && link.bits_per_s > 0.0) {
      ber = value.reading.value / link.bits_per_s;
      over = over_limit(ber, value.reading.delta, judgement);
    }
    if (!dev.outlier && !over) {
      continue;
    }
    double strength = damage_strength(dev, ber, over, judgement);
    if (!value.reading.is_rate()) {
      strength *= judgement.limit("history_weight");
    }
    std::string text = fmt::format("{} receives {} link errors{} ({}), fleet median {}{}",
                                   nic_label(nic), human(value.reading.value), per(errors),
                                   link.detail, human(errors.stats.median), per(errors));
    if (ber > 0.0) {
      text += fmt::format("; error ratio at least {:.2g} per bit, limit {:.0g}", ber,
                          judgement.limit("ber_limit"));
    }
    judgement.find("link-errors", nic_link_entities(nic), strength, text, value.reading.value,
                   errors.stats.median, errors.rate_mode ? "errors/s" : "errors");
  }
}

// Any link-down during the window counts: the link is flapping now.
void judge_flaps(const Survey& fleet, Judgement& judgement) {
  const NicSurvey& downs = fleet.downs;
  for (const auto& value : downs.values) {
    if (!value.reading.is_rate() || value.reading.delta <= 0.0) {
      continue;
    }
    const model::Nic& nic = *value.nic;
    judgement.find(
        "link-flap", nic_link_entities(nic),
        saturating(value.reading.delta, judgement.limit("flap_half_strength")),
        fmt::format("{} link went down {} times in {:.0f} s (fleet median {} per window)",
                    nic_label(nic), human(value.reading.delta), value.reading.window_s,
                    human(downs.stats.median * value.reading.window_s)),
        value.reading.delta, downs.stats.median * value.reading.window_s, "link downs");
  }
}

// The kernel log's link-down lines of a link that had come up: it dropped since boot.
void judge_kernel_flaps(const model::Nic& nic, Judgement& judgement) {
  const model::KernelEvents& kernel = nic.kernel;
  if (kernel.flaps == 0 || kernel.flaps < judgement.limit_count("kernel_min_flaps")) {
    return;
  }
  std::string when;
  if (!kernel.flap_times_s.empty()) {
    when = fmt::format("; last at {:.0f} s after boot", kernel.flap_times_s.back());
  }
  const auto flaps = static_cast<double>(kernel.flaps);
  judgement.find("kernel-link-flaps", nic_link_entities(nic),
                 saturating(flaps, judgement.limit("kernel_flap_half_strength")),
                 fmt::format("{} netdev {} went down {} times in the kernel log (dmesg: {} down, "
                             "{} up lines{})",
                             nic_label(nic), nic.netdev, kernel.flaps, kernel.link_downs,
                             kernel.link_ups, when),
                 flaps, 0.0, "link downs");
}

// Driver, firmware and PCIe AER errors naming the NIC: weak, the same lines follow many faults.
void judge_driver_errors(const model::Nic& nic, Judgement& judgement) {
  const model::KernelEvents& kernel = nic.kernel;
  const std::size_t aer = kernel.aer_corrected + kernel.aer_uncorrected;
  const std::size_t total = kernel.driver_errors + aer;
  if (total == 0 || total < judgement.limit_count("driver_min_errors")) {
    return;
  }
  judgement.find("driver-errors", nic_link_entities(nic), judgement.limit("driver_error_strength"),
                 fmt::format("{} has {} driver/firmware error lines and {} PCIe AER reports "
                             "({} uncorrected) in the kernel log, first: \"{}\"",
                             nic_label(nic), kernel.driver_errors, aer, kernel.aer_uncorrected,
                             kernel.first_error),
                 static_cast<double>(total), 0.0, "lines");
}

bool kernel_log_read(const model::Nic& nic) {
  const auto it = nic.sources.find(source::k_dmesg);
  return it != nic.sources.end() && it->second.availability == model::Availability::Observed;
}

void judge_kernel(const Survey& fleet, Judgement& judgement) {
  for (const model::Nic* nic : fleet.kernel) {
    judge_kernel_flaps(*nic, judgement);
    judge_driver_errors(*nic, judgement);
  }
}

// The switch end: RX_ERR against the other ports and per bit of the port's speed.
void judge_port_errors(const Survey& fleet, Judgement& judgement) {
  const OutlierRule rule = judgement.outlier_rule(judgement.limit("min_error_rate"));
  std::optional<NicsBehindPorts> behind;  // built for the first outlier
  for (const auto& [sw, port, errors] : fleet.ports) {
    const double rate = errors.value;
    const Deviation dev = assess_high(rate, fleet.port_stats, rule);
    const double ber = port->speed_gbps ? rate / (*port->speed_gbps * k_bits_per_gbit) : 0.0;
    const bool over = over_limit(ber, errors.delta, judgement);
    if (!dev.outlier && !over) {
      continue;
    }
    const std::string here = port_entity(sw->name, port->name);
    std::vector<std::string> entities{here};
    if (!behind) {
      behind.emplace(judgement.fabric());
    }
    if (const model::Nic* nic = behind->find(*sw, *port)) {
      for (const auto& e : nic_entities(*nic, false)) {
        append_unique(entities, e);
      }
      entities.push_back(link_entity(nic->netdev_entity(), here));
    }
    judgement.find("link-errors", entities, damage_strength(dev, ber, over, judgement),
                   fmt::format("{}/{} receives {} errored frames/s (RX_ERR), median port {}/s",
                               sw->name, port->name, human(rate), human(fleet.port_stats.median)),
                   rate, fleet.port_stats.median, "errors/s");
  }
}

class LinkErrorsProbe final : public FleetProbe<Survey> {
 public:
  LinkErrorsProbe()
      : FleetProbe(
            {.id = "link-errors",
             .description = "Symbol/FCS/FEC errors and link-down events per link",
             .cost = CostClass::Passive,
             .reads = {source::k_ethtool_stats, source::k_sysfs_counters,
                       source::k_show_interfaces_counters, source::k_show_interfaces_status,
                       source::k_dmesg,
                       // whether an InfiniBand subnet has switch ports this probe cannot see
                       source::k_ibnetdiscover, source::k_iblinkinfo, source::k_ibnodes,
                       source::k_ibdiagnet},
             .findings = {"link-errors", "link-flap", "kernel-link-flaps", "driver-errors"},
             .clearing = "link-clean",
             .thresholds = {"ber_limit", "min_error_count", "min_error_rate", "history_weight",
                            "flap_half_strength", "kernel_min_flaps", "kernel_flap_half_strength",
                            "driver_min_errors", "driver_error_strength", "clean_strength",
                            "clean_history_strength", "ib_subnet_strength"}}) {}

 protected:
  Survey survey(Judgement& judgement) const override {
    const model::Fabric& fabric = judgement.fabric();
    Survey fleet;
    std::map<const model::Nic*, NicLink> links;
    fleet.errors = survey_nics(fabric, [&links](const model::Nic& nic) {
      ErrorRead read = read_nic_errors(nic);
      links[&nic] = NicLink{std::move(read.detail), bits_carried(nic)};
      return read.errors;
    });
    fleet.links = std::move(links);
    fleet.downs = survey_nics(fabric, [](const model::Nic& nic) {
      return read_either(nic, metric::k_link_down_events, metric::k_ib_link_downed);
    });
    std::vector<double> port_rates;
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        const Reading r = read_counter(port.samples, metric::k_sw_rx_errors);
        if (r.is_rate()) {
          fleet.ports.push_back(PortErrors{&sw, &port, r});
          port_rates.push_back(r.value);
        }
      }
    }
    fleet.port_stats = fleet_stats(std::move(port_rates));
    for (const auto& host : fabric.hosts) {
      for (const auto& nic : host.nics) {
        if (kernel_log_read(nic)) {
          fleet.kernel.push_back(&nic);
        }
      }
    }
    if (!fleet.errors.resets.empty()) {
      judgement.note(fmt::format("error counters reset on {} NICs", fleet.errors.resets.size()));
    }
    if (!fleet.errors.cleared.empty()) {
      // A clear in the middle of an incident is worth a question: a driver reload or a person.
      judgement.note(fmt::format(
          "error counters cleared inside the capture on {} NICs, read over the other intervals: {}",
          fleet.errors.cleared.size(), name_some(fleet.errors.cleared, 3)));
    }
    return fleet;
  }

  std::vector<Coverage> coverage(const Survey& fleet) const override {
    // Switch ports' RX_ERR supplements the NICs' view (single-sample captures have no rate).
    return {{"NICs", "link error counters (ethtool -S, sysfs)", fleet.errors.with_data,
             fleet.errors.total},
            {"switch ports", "show interfaces counters RX_ERR", fleet.ports.size(),
             fleet.ports.size(), false}};
  }

  void judge(const Survey& fleet, Judgement& judgement) const override {
    judge_nic_errors(fleet, judgement);
    judge_flaps(fleet, judgement);
    judge_port_errors(fleet, judgement);
    judge_kernel(fleet, judgement);
  }

  Clearance clearance(const Survey& fleet, const Judgement& judgement) const override {
    const NicSurvey& errors = fleet.errors;
    Clearance healthy;
    healthy.summary = fmt::format(
        "no link errors or link-down events: {} NICs (median {} errors{}) and {} switch "
        "ports (median {} RX_ERR/s)",
        errors.values.size(), human(errors.stats.median), per(errors), fleet.ports.size(),
        human(fleet.port_stats.median));
    healthy.strength =
        judgement.limit(errors.rate_mode ? "clean_strength" : "clean_history_strength");
    if (has_ib_switches(judgement.fabric())) {
      // Only the HCAs' ends of an InfiniBand subnet were seen: its switch ports and
      // switch-to-switch cables are ib-link-errors' to clear.
      healthy.strength = std::min(healthy.strength, judgement.limit("ib_subnet_strength"));
      healthy.summary += "; the InfiniBand subnet's switch ports not seen here";
    }
    return healthy;
  }
};

}  // namespace

std::unique_ptr<Probe> make_link_errors_probe() {
  return std::make_unique<LinkErrorsProbe>();
}

}  // namespace netdoctor::probes
