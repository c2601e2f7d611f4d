// The probe vocabulary for people: every registered probe with its cost class, the sources it
// reads, each signal's meaning and its weight on root causes, and the thresholds it judges by
// (value as the site runs it, unit, why, source). Generated from the registry and the kb
// entries, so it cannot drift from what runs: `netdoctor probes [ID] --format text|md|json`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "probes/probe.h"
#include "runbook/library.h"

namespace netdoctor::runbook {

struct ThresholdRow {
  std::string setting;  // the site-configuration key
  double value = 0.0;   // as the site runs it
  double kb_value = 0.0;
  std::string unit;
  std::string why;
  std::string source;
};

struct SignalRow {
  std::string id;
  std::string means;
  bool clearing = false;
  std::vector<std::string> weighs;  // "+5 pfc-storm", "-1 ecn-misconfig"
};

struct ProbeRow {
  std::string id;
  std::string cost;
  std::string description;
  std::vector<std::string> reads;
  std::vector<SignalRow> signals;
  std::vector<ThresholdRow> thresholds;
};

// Every registered probe in registry order, or only `id` (empty vector if unknown). The shared
// thresholds are the row with id "fleet". `values` are the thresholds in effect.
std::vector<ProbeRow> probe_rows(const Library& library, const probes::ThresholdBook& values,
                                 const std::string& id = {});

std::string render_probe_table_text(const std::vector<ProbeRow>& rows);
std::string render_probe_table_markdown(const std::vector<ProbeRow>& rows);
nlohmann::json probe_table_json(const std::vector<ProbeRow>& rows);

}  // namespace netdoctor::runbook
