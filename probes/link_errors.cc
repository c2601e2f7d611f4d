// link-errors: physical-layer damage per NIC and per switch port (symbol, FCS and
// FEC-uncorrectable errors, link-down events) over the window, against the fleet and against
// the bit-error-rate a healthy link must meet.
#include <fmt/format.h>

#include <algorithm>

#include "probes/builtin.h"
#include "probes/metric_names.h"
#include "probes/probe_support.h"

namespace netdoctor::probes {
namespace {

// IEEE 802.3 links at 25G/lane and above must deliver a post-FEC bit error ratio below
// 1e-12; errors per bit carried above it are a bad cable, optic or port whatever the fleet.
constexpr double k_ber_limit = 1e-12;
// Two errors in the window make a rate; one could be a single knock on a connector.
constexpr double k_min_error_count = 2.0;
// Fleet-relative judgement needs at least one error per second sustained.
constexpr double k_min_error_rate = 1.0;
// A cumulative count (single sample) is history of unknown age: it weighs half.
constexpr double k_history_weight = 0.5;

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
    if (r.value > 0.0) {
      parts.push_back(fmt::format("{} {}", human(r.value), words));
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out.detail += (i == 0 ? "" : ", ") + parts[i];
  }
  return out;
}

class LinkErrorsProbe final : public BasicProbe {
 public:
  LinkErrorsProbe()
      : BasicProbe("link-errors", "Symbol/FCS/FEC errors and link-down events per link",
                   CostClass::Passive, {"ethtool -S", "sysfs counters", "show interfaces counters"},
                   {"link-errors", "link-flap", "link-clean"}) {}

 protected:
  void examine(const ProbeContext& context, ProbeResult& result) const override {
    const model::Fabric& fabric = context.fabric;
    NicSurvey errors =
        survey_nics(fabric, [](const model::Nic& nic) { return read_nic_errors(nic).errors; });
    std::vector<std::pair<const model::Switch*, const model::SwitchPort*>> ports;
    std::vector<double> port_values;
    std::size_t port_total = 0;
    for (const auto& sw : fabric.switches) {
      for (const auto& port : sw.ports) {
        ++port_total;
        Reading r = read_counter(port.samples, metric::k_sw_rx_errors);
        if (r.is_rate()) {
          ports.emplace_back(&sw, &port);
          port_values.push_back(r.value);
        }
      }
    }
    if (errors.with_data == 0 && ports.empty()) {
      result.status = ProbeStatus::Skipped;
      result.reason =
          "no data for ethtool -S, sysfs counters or show interfaces counters "
          "(link error counters)";
      return;
    }
    if (errors.with_data < errors.total) {
      add_note(result, fmt::format("partial coverage: {} of {} NICs have error counters",
                                   errors.with_data, errors.total));
    }
    if (!errors.resets.empty()) {
      add_note(result, fmt::format("error counters reset on {} NICs", errors.resets.size()));
    }
    bool found = false;
    OutlierRule rule;
    rule.abs_floor = errors.rate_mode ? k_min_error_rate : k_min_error_rate * 60.0;
    for (const auto& value : errors.values) {
      const model::Nic& nic = *value.nic;
      ErrorRead read = read_nic_errors(nic);
      Deviation dev = assess_high(value.reading.value, errors.stats, rule);
      double ber = 0.0;
      bool over_limit = false;
      if (value.reading.is_rate()) {
        Reading bits = read_counter(nic.samples, metric::k_rx_bits);
        double bits_per_s = bits.is_rate() && bits.value > 0.0
                                ? bits.value
                                : (nic.speed_gbps ? *nic.speed_gbps * 1e9 : 0.0);
        if (bits_per_s > 0.0) {
          ber = value.reading.value / bits_per_s;
          over_limit = ber > k_ber_limit && value.reading.delta >= k_min_error_count;
        }
      }
      if (!dev.outlier && !over_limit) {
        continue;
      }
      found = true;
      double strength = std::max(dev.strength, over_limit ? saturating(ber, k_ber_limit) : 0.0);
      if (!value.reading.is_rate()) {
        strength *= k_history_weight;
      }
      std::vector<std::string> entities = nic_entities(nic);
      if (!nic.port_entity().empty()) {
        entities.push_back(link_entity(nic.netdev_entity(), nic.port_entity()));
      }
      std::string text = fmt::format("{} receives {} link errors{} ({}), fleet median {}{}",
                                     nic_label(nic), human(value.reading.value), per(errors),
                                     read.detail, human(errors.stats.median), per(errors));
      if (ber > 0.0) {
        text +=
            fmt::format("; error ratio at least {:.2g} per bit, limit {:.0g}", ber, k_ber_limit);
      }
      result.findings.push_back(make_finding("link-errors", entities, strength, text,
                                             value.reading.value, errors.stats.median,
                                             errors.rate_mode ? "errors/s" : "errors"));
    }

    NicSurvey downs = survey_nics(fabric, [](const model::Nic& nic) {
      return read_either(nic, metric::k_link_down_events, metric::k_ib_link_downed);
    });
    for (const auto& value : downs.values) {
      // A link that went down during the capture window is flapping now: any delta counts.
      if (!value.reading.is_rate() || value.reading.delta <= 0.0) {
        continue;
      }
      found = true;
      const model::Nic& nic = *value.nic;
      std::vector<std::string> entities = nic_entities(nic);
      if (!nic.port_entity().empty()) {
        entities.push_back(link_entity(nic.netdev_entity(), nic.port_entity()));
      }
      result.findings.push_back(make_finding(
          "link-flap", entities, saturating(value.reading.delta, 1.0),
          fmt::format("{} link went down {} times in {:.0f} s (fleet median {} per window)",
                      nic_label(nic), human(value.reading.delta), value.reading.window_s,
                      human(downs.stats.median * value.reading.window_s)),
          value.reading.delta, downs.stats.median * value.reading.window_s, "link downs"));
    }

    FleetStats port_stats = fleet_stats(port_values);
    OutlierRule port_rule;
    port_rule.abs_floor = k_min_error_rate;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      const auto& [sw, port] = ports[i];
      double rate = port_values[i];
      Deviation dev = assess_high(rate, port_stats, port_rule);
      double ber = port->speed_gbps ? rate / (*port->speed_gbps * 1e9) : 0.0;
      Reading r = read_counter(port->samples, metric::k_sw_rx_errors);
      bool over_limit = ber > k_ber_limit && r.delta >= k_min_error_count;
      if (!dev.outlier && !over_limit) {
        continue;
      }
      found = true;
      std::string here = port_entity(sw->name, port->name);
      std::vector<std::string> entities{here};
      if (const model::Nic* nic = nic_behind(fabric, *sw, *port)) {
        for (const auto& e : nic_entities(*nic, false)) {
          append_unique(entities, e);
        }
        entities.push_back(link_entity(nic->netdev_entity(), here));
      }
      result.findings.push_back(
          make_finding("link-errors", entities,
                       std::max(dev.strength, over_limit ? saturating(ber, k_ber_limit) : 0.0),
                       fmt::format("{}/{} receives {} errored frames/s (RX_ERR), median port {}/s",
                                   sw->name, port->name, human(rate), human(port_stats.median)),
                       rate, port_stats.median, "errors/s"));
    }
    if (!found) {
      std::string text = fmt::format(
          "no link errors or link-down events: {} NICs (median {} errors{}) and {} switch "
          "ports (median {} RX_ERR/s)",
          errors.values.size(), human(errors.stats.median), per(errors), ports.size(),
          human(port_stats.median));
      result.checked.push_back(text);
      result.findings.push_back(make_finding("link-clean", {}, errors.rate_mode ? 0.8 : 0.4, text));
    }
    (void)port_total;
  }
};

}  // namespace

std::unique_ptr<Probe> make_link_errors_probe() {
  return std::make_unique<LinkErrorsProbe>();
}

}  // namespace netdoctor::probes
