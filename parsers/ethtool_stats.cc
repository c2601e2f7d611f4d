#include "parsers/ethtool_stats.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {

std::optional<std::uint64_t> EthtoolStats::get(std::string_view name) const {
  auto it = by_name.find(name);
  if (it == by_name.end()) {
    return std::nullopt;
  }
  return it->second;
}

Result<EthtoolStats> parse_ethtool_stats(std::string_view text) {
  ND_TRY(detail::check_text(text));
  EthtoolStats out;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (line == "NIC statistics:") {
      out.had_header = true;
      continue;
    }
    // Names may themselves contain ": " (bnxt "[0]: rx_ucast_packets"), so split on the last.
    auto sep = line.rfind(": ");
    if (sep == std::string_view::npos || sep == 0) {
      continue;
    }
    std::string name(trim(line.substr(0, sep)));
    std::string_view value = trim(line.substr(sep + 2));
    if (auto number = parse_u64(value)) {
      out.stats.push_back({name, *number});
      out.by_name.emplace(name, *number);
    } else {
      out.non_numeric.push_back({name, std::string(value)});
    }
  }
  if (out.stats.empty()) {
    return detail::parse_error("no 'name: value' lines with a numeric value found");
  }
  return out;
}

nlohmann::json to_json(const EthtoolStats& stats) {
  nlohmann::json counters = nlohmann::json::array();
  for (const auto& stat : stats.stats) {
    counters.push_back({{"name", stat.name}, {"value", stat.value}});
  }
  nlohmann::json non_numeric = nlohmann::json::array();
  for (const auto& item : stats.non_numeric) {
    non_numeric.push_back({{"name", item.name}, {"value", item.raw_value}});
  }
  return {{"header", stats.had_header},
          {"count", stats.stats.size()},
          {"stats", counters},
          {"non_numeric", non_numeric}};
}

}  // namespace netdoctor::parsers
