#include "base/json_text.h"
#include "base/time_format.h"
#include "engine/render.h"

namespace netdoctor::engine {

namespace {

nlohmann::json evidence_json(const EvidenceItem& item) {
  nlohmann::json out = {{"probe", item.probe}, {"summary", item.summary}};
  out["signal"] = item.signal;
  out["weight"] = item.weight;
  if (item.value) {
    out["value"] = *item.value;
  }
  if (item.fleet_normal) {
    out["fleet_normal"] = *item.fleet_normal;
  }
  if (!item.unit.empty()) {
    out["unit"] = item.unit;
  }
  return out;
}

// Times as ISO-8601 UTC, as everywhere a person reads them.
nlohmann::json onset_json(const Onset& onset) {
  nlohmann::json out = {{"interval", onset.interval},
                        {"intervals", onset.intervals},
                        {"from", iso8601_utc(onset.from)},
                        {"to", iso8601_utc(onset.to)},
                        {"before_capture", onset.before_capture()}};
  out["timeline"] = nlohmann::json::array();
  for (const IntervalReading& reading : onset.timeline) {
    nlohmann::json one = {{"interval", reading.interval},
                          {"from", iso8601_utc(reading.from)},
                          {"to", iso8601_utc(reading.to)},
                          {"shows", reading.shows}};
    if (reading.value) {
      one["value"] = *reading.value;
      one["unit"] = reading.unit;
    }
    out["timeline"].push_back(std::move(one));
  }
  return out;
}

nlohmann::json cause_json(const RankedCause& cause) {
  nlohmann::json out;
  out["id"] = cause.id;
  out["confidence"] = cause.confidence;
  out["entities"] = cause.entities;
  out["evidence"] = nlohmann::json::array();
  for (const auto& item : cause.evidence) {
    out["evidence"].push_back(evidence_json(item));
  }
  out["remediation"] = cause.remediation;
  out["title"] = cause.title;
  if (cause.next_change) {
    const NextChange& change = *cause.next_change;
    out["next_change"] = {{"entity", change.entity}, {"variable", change.variable},
                          {"from", change.from},     {"to", change.to},
                          {"action", change.action}, {"verify", change.verify}};
  }
  if (cause.onset) {
    out["onset"] = onset_json(*cause.onset);
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const Diagnosis& diagnosis, const RenderOptions& options) {
  nlohmann::json out;
  out["format"] = "netdoctor-diagnosis";
  out["version"] = 1;
  out["symptom"] = diagnosis.symptom;
  out["verdict"] = to_string(diagnosis.verdict);
  out["causes"] = nlohmann::json::array();
  for (const auto& cause : diagnosis.causes) {
    out["causes"].push_back(cause_json(cause));
  }
  out["probes"] = nlohmann::json::array();
  for (const auto& probe : diagnosis.probes) {
    nlohmann::json entry = {{"id", probe.id}, {"status", probe.status}};
    if (!probe.reason.empty()) {
      entry["reason"] = probe.reason;
    }
    entry["duration_ms"] = probe.duration_ms;
    out["probes"].push_back(std::move(entry));
  }
  out["ruled_out"] = diagnosis.ruled_out;
  out["data_problems"] = diagnosis.data_problems;
  if (!diagnosis.settings.empty()) {
    out["settings"] = nlohmann::json::array();
    for (const auto& setting : diagnosis.settings) {
      out["settings"].push_back(
          {{"key", setting.key}, {"value", setting.value}, {"origin", setting.origin}});
    }
  }
  if (options.explain) {
    out["explain"] = nlohmann::json::array();
    for (const auto& move : diagnosis.explain) {
      out["explain"].push_back({{"cause", move.cause},
                                {"probe", move.probe},
                                {"signal", move.signal},
                                {"delta", move.delta},
                                {"why", move.why}});
    }
  }
  return out;
}

std::string render_json(const Diagnosis& diagnosis, const RenderOptions& options) {
  return json_text(to_json(diagnosis, options), 2) + "\n";
}

}  // namespace netdoctor::engine
