// The self-contained HTML report (docs/report.md): one file with inline CSS, SVG and a little
// JavaScript, no network access (a Content-Security-Policy forbids any), that opens from
// file:// or as a ticket attachment. It shows the verdict line, the fabric map with a metric
// selector, legend and a text alternative, then the causes with their evidence, next change and
// remediation, what was ruled out, the data problems and the probe run order; for an incident,
// its diagnoses and the change log as a timeline with each change's before/after figures.
// Every text from a bundle or the store is escaped: it reads as text, never as markup.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "report/fabric_map.h"
#include "store/postmortem.h"

namespace netdoctor::report {

struct HtmlReport {
  nlohmann::json diagnosis;      // a netdoctor-diagnosis document (engine::to_json, or stored)
  std::optional<FabricMap> map;  // none: the page says why there is no map
  std::string map_missing;       // that reason
  std::string source;            // what was diagnosed: "bundle x.tar.gz"
  const store::PostmortemData* incident = nullptr;  // for `incident export --format html`
};

std::string render_html(const HtmlReport& report);

// Shared by the page's parts (report/html_*.cc).
std::string verdict_line(const nlohmann::json& diagnosis);
std::string render_map_section(const FabricMap& map);
std::string render_incident_sections(const store::PostmortemData& data);
std::string_view page_style();
std::string_view page_script();

}  // namespace netdoctor::report
