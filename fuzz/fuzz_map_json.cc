// The stored fabric map (store: diagnosis_maps) read back for `incident export`: a database file
// can be edited or damaged, so any bytes must come back as a map or an error, and any map that
// reads must draw as SVG and HTML without fault.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "report/html_report.h"
#include "report/map_json.h"
#include "report/map_svg.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto map = netdoctor::report::map_from_json(json);
  if (!map.ok()) {
    return 0;
  }
  netdoctor::report::SvgOptions standalone;
  standalone.standalone = true;
  (void)netdoctor::report::render_map_svg(*map, standalone);
  netdoctor::report::HtmlReport page;
  page.diagnosis = nlohmann::json::object();
  page.map = std::move(*map);
  (void)netdoctor::report::render_html(page);
  return 0;
}
