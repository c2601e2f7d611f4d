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

namespace {

// One pass over the lines: `numeric(name, value)` for "name: value" lines with an unsigned
// value, `other(name, raw)` for the rest of the "name: value" lines; true when the
// "NIC statistics:" header was seen. Lines are walked in place: no copy of the text.
template <typename Numeric, typename Other>
bool scan_stats(std::string_view text, Numeric numeric, Other other) {
  bool had_header = false;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view raw = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (line == "NIC statistics:") {
      had_header = true;
      continue;
    }
    // Names may themselves contain ": " (bnxt "[0]: rx_ucast_packets"), so split on the last.
    auto sep = line.rfind(": ");
    if (sep == std::string_view::npos || sep == 0) {
      continue;
    }
    const std::string_view name = trim(line.substr(0, sep));
    const std::string_view value = trim(line.substr(sep + 2));
    if (auto number = parse_u64(value)) {
      numeric(name, *number);
    } else {
      other(name, value);
    }
  }
  return had_header;
}

Error no_stats_error() {
  return detail::parse_error("no 'name: value' lines with a numeric value found");
}

}  // namespace

Result<EthtoolStats> parse_ethtool_stats(std::string_view text) {
  ND_TRY(detail::check_text(text));
  EthtoolStats out;
  out.had_header = scan_stats(
      text,
      [&out](std::string_view name, std::uint64_t value) {
        out.stats.push_back({std::string(name), value});
        out.by_name.emplace(name, value);
      },
      [&out](std::string_view name, std::string_view value) {
        out.non_numeric.push_back({std::string(name), std::string(value)});
      });
  if (out.stats.empty()) {
    return no_stats_error();
  }
  return out;
}

Status for_each_ethtool_stat(std::string_view text,
                             const std::function<void(std::string_view, std::uint64_t)>& visit) {
  ND_TRY(detail::check_text(text));
  std::size_t numeric = 0;
  scan_stats(
      text,
      [&](std::string_view name, std::uint64_t value) {
        ++numeric;
        visit(name, value);
      },
      [](std::string_view, std::string_view) {});
  // Only an output without numeric lines fails after the check: nothing was visited.
  return numeric == 0 ? Status{no_stats_error()} : Status{};
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
