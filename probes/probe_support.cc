#include "probes/probe_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "probes/judgement.h"

namespace netdoctor::probes {

Reading read_counter(const std::vector<model::CounterSample>& samples, const std::string& name,
                     int index) {
  model::Rate rate = model::rate_of(samples, model::MetricKey{name, index});
  Reading reading;
  reading.status = rate.status;
  if (rate.status == model::RateStatus::Ok) {
    reading.value = rate.per_second;
    reading.delta = rate.delta;
    reading.window_s = rate.window_s;
    reading.cleared = rate.resets;
  } else if (rate.status == model::RateStatus::SingleSample) {
    reading.value = rate.last;
  }
  return reading;
}

Reading read_sum(const std::vector<model::CounterSample>& samples, const std::string& name,
                 const std::vector<int>& indexes) {
  Reading total;
  bool any = false;
  bool all_rates = true;
  for (int index : indexes) {
    Reading part = read_counter(samples, name, index);
    if (part.status == model::RateStatus::Reset) {
      total.status = model::RateStatus::Reset;
      return total;
    }
    if (!part.present()) {
      continue;
    }
    any = true;
    all_rates = all_rates && part.is_rate();
    total.value += part.value;
    total.delta += part.delta;
    total.window_s = std::max(total.window_s, part.window_s);
    total.cleared = std::max(total.cleared, part.cleared);
  }
  if (any) {
    total.status = all_rates ? model::RateStatus::Ok : model::RateStatus::SingleSample;
  }
  return total;
}

std::optional<double> read_gauge(const std::vector<model::CounterSample>& samples,
                                 const std::string& name, int index) {
  double sum = 0.0;
  int count = 0;
  for (const auto& sample : samples) {
    if (auto value = sample.get(model::MetricKey{name, index})) {
      sum += *value;
      ++count;
    }
  }
  if (count == 0) {
    return std::nullopt;
  }
  return sum / count;
}

NicSurvey survey_nics(const model::Fabric& fabric,
                      const std::function<Reading(const model::Nic&)>& read) {
  NicSurvey survey;
  std::vector<NicValue> rates;
  std::vector<NicValue> absolutes;
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      ++survey.total;
      Reading reading = read(nic);
      if (reading.status == model::RateStatus::Reset) {
        survey.resets.push_back(nic_label(nic));
        ++survey.with_data;
        continue;
      }
      if (!reading.present()) {
        continue;
      }
      ++survey.with_data;
      if (reading.is_rate() && reading.cleared > 0) {
        survey.cleared.push_back(nic_label(nic));
      }
      (reading.is_rate() ? rates : absolutes).push_back(NicValue{&host, &nic, reading});
    }
  }
  survey.rate_mode = !rates.empty();
  survey.values = survey.rate_mode ? std::move(rates) : std::move(absolutes);
  std::vector<double> numbers;
  numbers.reserve(survey.values.size());
  for (const auto& value : survey.values) {
    numbers.push_back(value.reading.value);
  }
  survey.stats = fleet_stats(std::move(numbers));
  return survey;
}

Deviation assess_high(double value, const FleetStats& stats, const OutlierRule& rule) {
  Deviation deviation;
  deviation.z = robust_z(value, stats, rule.scale_floor);
  double base = std::max(stats.median, rule.scale_floor);
  deviation.ratio = base > 0.0 ? value / base : 0.0;
  deviation.outlier =
      value >= rule.abs_floor && deviation.z >= rule.min_z && deviation.ratio >= rule.min_ratio;
  if (deviation.outlier) {
    deviation.strength = std::clamp(0.5 * saturating(deviation.z, rule.min_z) +
                                        0.5 * saturating(deviation.ratio, rule.min_ratio),
                                    0.0, 1.0);
  }
  return deviation;
}

std::string nic_label(const model::Nic& nic) {
  return nic.host + "/" + (nic.device.empty() ? nic.netdev : nic.device);
}

void append_unique(std::vector<std::string>& list, const std::string& item) {
  if (item.empty()) {
    return;
  }
  if (std::find(list.begin(), list.end(), item) == list.end()) {
    list.push_back(item);
  }
}

std::vector<std::string> nic_entities(const model::Nic& nic, bool with_switch_port) {
  std::vector<std::string> entities;
  append_unique(entities, nic.nic_entity());
  append_unique(entities, nic.netdev_entity());
  if (with_switch_port) {
    append_unique(entities, nic.port_entity());
  }
  return entities;
}

const model::SwitchPort* cabled_port(const model::Fabric& fabric, const model::Nic& nic) {
  if (nic.switch_name.empty() || nic.switch_port.empty()) {
    return nullptr;
  }
  const model::Switch* sw = fabric.find_switch(nic.switch_name);
  return sw == nullptr ? nullptr : sw->find_port(nic.switch_port);
}

namespace {

// The switch's view of a port's peer: the NIC of host `peer device` whose netdev is `peer port`.
const model::Nic* nic_by_switch_lldp(const model::Fabric& fabric, const model::SwitchPort& port) {
  if (const model::Host* host = fabric.find_host(port.peer_device)) {
    for (const auto& nic : host->nics) {
      if (!port.peer_port.empty() && nic.netdev == port.peer_port) {
        return &nic;
      }
    }
  }
  return nullptr;
}

}  // namespace

const model::Nic* nic_behind(const model::Fabric& fabric, const model::Switch& sw,
                             const model::SwitchPort& port) {
  // The host's own LLDP view is the more reliable (it names the NIC); fall back to the
  // switch's table (peer device = host, peer port = netdev).
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      if (nic.switch_name == sw.name && nic.switch_port == port.name) {
        return &nic;
      }
    }
  }
  return nic_by_switch_lldp(fabric, port);
}

NicsBehindPorts::NicsBehindPorts(const model::Fabric& fabric) : m_fabric(fabric) {
  for (const auto& host : fabric.hosts) {
    for (const auto& nic : host.nics) {
      m_by_port.emplace(
          std::pair<std::string_view, std::string_view>(nic.switch_name, nic.switch_port), &nic);
    }
  }
}

const model::Nic* NicsBehindPorts::find(const model::Switch& sw,
                                        const model::SwitchPort& port) const {
  const auto it = m_by_port.find({sw.name, port.name});
  return it != m_by_port.end() ? it->second : nic_by_switch_lldp(m_fabric, port);
}

bool is_switch_name(const model::Fabric& fabric, const std::string& name) {
  return !name.empty() && fabric.find_switch(name) != nullptr;
}

std::string human(double value) {
  double magnitude = std::fabs(value);
  if (magnitude >= 1e12) {
    return fmt::format("{:.3g}T", value / 1e12);
  }
  if (magnitude >= 1e9) {
    return fmt::format("{:.3g}G", value / 1e9);
  }
  if (magnitude >= 1e6) {
    return fmt::format("{:.3g}M", value / 1e6);
  }
  if (magnitude >= 1e4) {
    return fmt::format("{:.3g}k", value / 1e3);
  }
  if (magnitude >= 100.0) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{:.3g}", value);
}

std::string percent(double fraction) {
  return fmt::format("{:.3g} %", fraction * 100.0);
}

std::string per(const NicSurvey& survey) {
  return survey.rate_mode ? "/s" : " (cumulative)";
}

void add_note(ProbeResult& result, const std::string& note) {
  if (note.empty()) {
    return;
  }
  result.reason = result.reason.empty() ? note : result.reason + "; " + note;
}

bool apply_coverage(ProbeResult& result, std::size_t with_data, std::size_t total,
                    const std::string& noun, const std::string& source) {
  if (with_data == 0) {
    result.status = ProbeStatus::Skipped;
    result.reason = total == 0 ? fmt::format("no {} in the capture", noun)
                               : fmt::format("no data for {}", source);
    return false;
  }
  if (with_data < total) {
    add_note(result, fmt::format("partial coverage: {} of {} {} have {} data; the rest were "
                                 "not judged",
                                 with_data, total, noun, source));
  }
  return true;
}

Finding make_finding(std::string signal, std::vector<std::string> entities, double strength,
                     std::string summary, std::optional<double> value,
                     std::optional<double> fleet_normal, std::string unit) {
  Finding finding;
  finding.signal = std::move(signal);
  finding.entities = std::move(entities);
  finding.strength = std::clamp(strength, 0.0, 1.0);
  finding.summary = std::move(summary);
  finding.value = value;
  finding.fleet_normal = fleet_normal;
  finding.unit = std::move(unit);
  return finding;
}

bool has_ib_switches(const model::Fabric& fabric) {
  return std::any_of(fabric.ib.nodes.begin(), fabric.ib.nodes.end(),
                     [](const model::IbNode& n) { return n.kind != model::IbNodeKind::Ca; });
}

}  // namespace netdoctor::probes
