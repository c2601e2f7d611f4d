#include "probes/judgement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/strings.h"

namespace netdoctor::probes {

namespace {

bool declared(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Judgement::Judgement(const ProbeSpec& spec, const ProbeContext& context)
    : m_spec(spec), m_context(context) {
  m_result.probe_id = spec.id;
  m_result.status = ProbeStatus::Ran;
}

double Judgement::limit(std::string_view name) const {
  if (!declared(m_spec.thresholds, name)) {
    throw std::logic_error(fmt::format(
        "probe {} asks for threshold '{}', which its spec does not declare", m_spec.id, name));
  }
  const auto probe = m_context.options.thresholds.find(m_spec.id);
  if (probe != m_context.options.thresholds.end()) {
    if (const auto value = probe->second.find(name); value != probe->second.end()) {
      return value->second;
    }
  }
  throw std::logic_error(fmt::format("no value for threshold {}.{} (kb/probes/{}.toml not loaded?)",
                                     m_spec.id, name, m_spec.id));
}

double Judgement::fleet_limit(std::string_view name) const {
  const auto fleet = m_context.options.thresholds.find(k_fleet_thresholds);
  if (fleet != m_context.options.thresholds.end()) {
    if (const auto value = fleet->second.find(name); value != fleet->second.end()) {
      return value->second;
    }
  }
  throw std::logic_error(
      fmt::format("no value for fleet threshold '{}' (kb/probes/fleet.toml not loaded?)", name));
}

OutlierRule Judgement::outlier_rule(double abs_floor, double scale_floor) const {
  OutlierRule rule;
  rule.min_z = fleet_limit("outlier_min_z");
  rule.min_ratio = fleet_limit("outlier_min_ratio");
  rule.abs_floor = abs_floor;
  rule.scale_floor = scale_floor;
  return rule;
}

double Judgement::cumulative_floor(double rate) const {
  return rate * fleet_limit("cumulative_window");
}

std::size_t Judgement::limit_count(std::string_view name) const {
  return static_cast<std::size_t>(std::max(0.0, std::round(limit(name))));
}

bool Judgement::cover(const std::vector<Coverage>& parts) {
  const bool any_data = std::any_of(parts.begin(), parts.end(),
                                    [](const Coverage& part) { return part.with_data > 0; });
  if (!any_data) {
    const bool any_entity = std::any_of(parts.begin(), parts.end(),
                                        [](const Coverage& part) { return part.total > 0; });
    std::vector<std::string> names;
    for (const auto& part : parts) {
      append_unique(names, any_entity ? part.what : part.noun);
    }
    m_result.status = ProbeStatus::Skipped;
    m_result.reason = any_entity ? fmt::format("no data for {}", join(names, " or "))
                                 : fmt::format("no {} in the capture", join(names, " or "));
    return false;
  }
  for (const auto& part : parts) {
    if (part.notes_gaps && part.with_data < part.total) {
      note(fmt::format("partial coverage: {} of {} {} have {} data; the rest were not judged",
                       part.with_data, part.total, part.noun, part.what));
    }
  }
  return true;
}

void Judgement::note(const std::string& text) {
  add_note(m_result, text);
}

void Judgement::find(std::string_view signal, std::vector<std::string> entities, double strength,
                     std::string summary, std::optional<double> value,
                     std::optional<double> fleet_normal, std::string unit) {
  if (!declared(m_spec.findings, signal)) {
    throw std::logic_error(fmt::format(
        "probe {} reports signal '{}', which its spec does not declare", m_spec.id, signal));
  }
  m_result.findings.push_back(make_finding(std::string(signal), std::move(entities), strength,
                                           std::move(summary), value, fleet_normal,
                                           std::move(unit)));
}

void Judgement::rule_out(std::string text) {
  m_result.checked.push_back(std::move(text));
}

void Judgement::clear(const Clearance& clearance) {
  if (clearance.ruled_out) {
    rule_out(clearance.summary);
  }
  m_result.findings.push_back(make_finding(m_spec.clearing, {}, clearance.strength,
                                           clearance.summary, clearance.value,
                                           clearance.fleet_normal, clearance.unit));
}

}  // namespace netdoctor::probes
