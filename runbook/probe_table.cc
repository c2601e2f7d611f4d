#include "runbook/probe_table.h"

#include <fmt/format.h>

#include "base/strings.h"
#include "runbook/manual.h"

namespace netdoctor::runbook {

namespace {

std::vector<ThresholdRow> threshold_rows(const std::vector<kb::Threshold>& thresholds,
                                         const probes::ThresholdBook& values) {
  std::vector<ThresholdRow> rows;
  for (const auto& threshold : thresholds) {
    ThresholdRow row{threshold.setting, threshold.value, threshold.value,
                     threshold.unit,    threshold.why,   threshold.source};
    if (auto book = values.find(threshold.probe); book != values.end()) {
      if (auto value = book->second.find(threshold.name); value != book->second.end()) {
        row.value = value->second;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> weighs(const kb::SignalEntry& signal) {
  std::vector<std::string> out;
  for (const auto& weight : signal.supports) {
    out.push_back(fmt::format("+{:g} {}", weight.weight, weight.cause));
  }
  for (const auto& weight : signal.against) {
    out.push_back(fmt::format("-{:g} {}", weight.weight, weight.cause));
  }
  return out;
}

ProbeRow row_of(const probes::Probe& probe, const kb::ProbeEntry& entry, const TextFiller& fill,
                const probes::ThresholdBook& values) {
  ProbeRow row;
  row.id = probe.id();
  row.cost = probes::to_string(probe.cost());
  row.description = probe.description();
  row.reads = probe.reads();
  for (const auto& signal : entry.signals) {
    row.signals.push_back({signal.id, fill(signal.means, probe.id()),
                           signal.id == probe.spec().clearing, weighs(signal)});
  }
  row.thresholds = threshold_rows(entry.thresholds, values);
  return row;
}

std::string shown_value(const ThresholdRow& row, double value) {
  if (row.unit == "fraction") {
    return fmt::format("{:g} %", value * 100.0);
  }
  if (row.unit == "count" || row.unit == "strength") {
    return fmt::format("{:g}", value);
  }
  return fmt::format("{:g} {}", value, row.unit);
}

std::string shown_value(const ThresholdRow& row) {
  std::string out = shown_value(row, row.value);
  if (row.value != row.kb_value) {
    out += fmt::format(" (kb: {})", shown_value(row, row.kb_value));
  }
  return out;
}

}  // namespace

std::vector<ProbeRow> probe_rows(const Library& library, const probes::ThresholdBook& values,
                                 const std::string& id) {
  std::vector<ProbeRow> rows;
  const kb::ProbeEntrySet& entries = library.knowledge.entries;
  const TextFiller fill(3, &entries, values);
  for (const probes::Probe* probe : library.registry.all()) {
    const kb::ProbeEntry* entry = entries.find(probe->id());
    if (entry != nullptr && (id.empty() || id == probe->id())) {
      rows.push_back(row_of(*probe, *entry, fill, values));
    }
  }
  if (id.empty() || id == kb::k_fleet_entry) {
    ProbeRow fleet;
    fleet.id = std::string(kb::k_fleet_entry);
    fleet.description = "thresholds every probe shares";
    fleet.thresholds = threshold_rows(entries.fleet_thresholds(), values);
    rows.push_back(std::move(fleet));
  }
  return rows;
}

std::string render_probe_table_text(const std::vector<ProbeRow>& rows) {
  std::string out;
  for (const auto& row : rows) {
    out += row.cost.empty() ? fmt::format("{}: {}\n", row.id, row.description)
                            : fmt::format("{} ({}): {}\n", row.id, row.cost, row.description);
    if (!row.reads.empty()) {
      out += fmt::format("  reads: {}\n", join(row.reads, ", "));
    }
    for (const auto& signal : row.signals) {
      out += fmt::format("  {} {}: {}\n", signal.clearing ? "clears" : "signal", signal.id,
                         signal.means);
      if (!signal.weighs.empty()) {
        out += fmt::format("      weighs {}\n", join(signal.weighs, ", "));
      }
    }
    for (const auto& threshold : row.thresholds) {
      out += fmt::format("  {} = {}: {} [{}]\n", threshold.setting, shown_value(threshold),
                         threshold.why, threshold.source);
    }
    out += "\n";
  }
  return out;
}

std::string render_probe_table_markdown(const std::vector<ProbeRow>& rows) {
  std::string out =
      "| probe | cost | reads | signals (weighs: + supports, - against a cause) |\n"
      "|---|---|---|---|\n";
  for (const auto& row : rows) {
    if (row.cost.empty()) {
      continue;  // the fleet's thresholds come in the second table
    }
    std::vector<std::string> signals;
    for (const auto& signal : row.signals) {
      signals.push_back(fmt::format("`{}` ({}; {})", signal.id, markdown_cell(signal.means),
                                    join(signal.weighs, ", ")));
    }
    out += fmt::format("| `{}` | {} | {} | {} |\n", row.id, row.cost,
                       markdown_cell(join(row.reads, ", ")), join(signals, "<br>"));
  }
  out += "\n| setting | value | why | source |\n|---|---|---|---|\n";
  for (const auto& row : rows) {
    for (const auto& threshold : row.thresholds) {
      out += fmt::format("| `{}` | {} | {} | {} |\n", threshold.setting,
                         markdown_cell(shown_value(threshold)), markdown_cell(threshold.why),
                         markdown_cell(threshold.source));
    }
  }
  return out;
}

nlohmann::json probe_table_json(const std::vector<ProbeRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json probe = {{"id", row.id},
                            {"description", row.description},
                            {"reads", row.reads},
                            {"signals", nlohmann::json::array()},
                            {"thresholds", nlohmann::json::array()}};
    if (!row.cost.empty()) {
      probe["cost"] = row.cost;
    }
    for (const auto& signal : row.signals) {
      probe["signals"].push_back({{"id", signal.id},
                                  {"means", signal.means},
                                  {"clearing", signal.clearing},
                                  {"weighs", signal.weighs}});
    }
    for (const auto& threshold : row.thresholds) {
      probe["thresholds"].push_back({{"setting", threshold.setting},
                                     {"value", threshold.value},
                                     {"kb_value", threshold.kb_value},
                                     {"unit", threshold.unit},
                                     {"why", threshold.why},
                                     {"source", threshold.source}});
    }
    out.push_back(std::move(probe));
  }
  return out;
}

}  // namespace netdoctor::runbook
