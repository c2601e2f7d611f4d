#include "parsers/ethtool_link.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

std::vector<std::string> list_tokens(const std::vector<std::string>& parts) {
  std::vector<std::string> out;
  for (const auto& part : parts) {
    for (auto token : split_ws(part)) {
      if (token == "[" || token == "]") {
        continue;
      }
      out.emplace_back(token);
    }
  }
  // "Not reported" means no list at all.
  if (out.size() == 2 && out[0] == "Not" && out[1] == "reported") {
    out.clear();
  }
  return out;
}

std::optional<std::uint64_t> max_speed(const std::vector<std::string>& modes) {
  std::optional<std::uint64_t> best;
  for (const auto& mode : modes) {
    auto speed = link_mode_speed_mbps(mode);
    if (speed && (!best || *speed > *best)) {
      best = speed;
    }
  }
  return best;
}

}  // namespace

std::optional<std::uint64_t> link_mode_speed_mbps(std::string_view mode) {
  auto base = mode.find("base");
  if (base == std::string_view::npos || base == 0) {
    return std::nullopt;
  }
  return parse_u64(mode.substr(0, base));
}

Result<EthtoolLink> parse_ethtool_link(std::string_view text) {
  ND_TRY(detail::check_text(text));
  EthtoolLink out;
  // Keys in order, each with its value parts (first line plus continuation lines).
  std::vector<std::pair<std::string, std::vector<std::string>>> entries;
  bool saw_header = false;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (line.starts_with("Settings for ")) {
      saw_header = true;
      std::string_view name = line.substr(13);
      if (name.ends_with(':')) {
        name.remove_suffix(1);
      }
      out.interface = std::string(trim(name));
      continue;
    }
    auto kv = detail::split_key_value(line);
    if (!kv || kv->key.empty()) {
      // A continuation line: more link modes, or the message level names.
      if (!entries.empty()) {
        entries.back().second.emplace_back(line);
      }
      continue;
    }
    entries.push_back({std::string(kv->key), {std::string(kv->value)}});
  }
  for (const auto& [key, parts] : entries) {
    std::vector<std::string> trimmed;
    for (const auto& part : parts) {
      if (!trim(part).empty()) {
        trimmed.emplace_back(trim(part));
      }
    }
    std::string joined = join(trimmed, " ");
    out.fields[key] = joined;
    if (key == "Speed") {
      out.speed_raw = joined;
      if (joined.ends_with("Mb/s")) {
        out.speed_mbps = parse_u64(std::string_view(joined).substr(0, joined.size() - 4));
      }
    } else if (key == "Duplex") {
      out.duplex = joined;
    } else if (key == "Link detected") {
      if (joined == "yes") {
        out.link_detected = true;
      } else if (joined == "no") {
        out.link_detected = false;
      }
    } else if (key == "Port") {
      out.port = joined;
    } else if (key == "Auto-negotiation") {
      out.auto_negotiation = joined;
    } else if (key == "Supported ports") {
      out.supported_ports = list_tokens(parts);
    } else if (key == "Supported link modes") {
      out.supported_link_modes = list_tokens(parts);
    } else if (key == "Advertised link modes") {
      out.advertised_link_modes = list_tokens(parts);
    } else if (key == "Supported FEC modes") {
      out.supported_fec_modes = list_tokens(parts);
    } else if (key == "Advertised FEC modes") {
      out.advertised_fec_modes = list_tokens(parts);
    }
  }
  if (!saw_header && !out.fields.contains("Speed") && !out.fields.contains("Link detected")) {
    return detail::parse_error("no 'Settings for' header, 'Speed:' or 'Link detected:' line found");
  }
  out.max_supported_speed_mbps = max_speed(out.supported_link_modes);
  out.max_advertised_speed_mbps = max_speed(out.advertised_link_modes);
  return out;
}

nlohmann::json to_json(const EthtoolLink& link) {
  using detail::opt;
  return {{"interface", link.interface},
          {"speed", link.speed_raw},
          {"speed_mbps", opt(link.speed_mbps)},
          {"duplex", link.duplex},
          {"link_detected", opt(link.link_detected)},
          {"port", link.port},
          {"auto_negotiation", link.auto_negotiation},
          {"supported_ports", link.supported_ports},
          {"supported_link_modes", link.supported_link_modes},
          {"advertised_link_modes", link.advertised_link_modes},
          {"supported_fec_modes", link.supported_fec_modes},
          {"advertised_fec_modes", link.advertised_fec_modes},
          {"max_supported_speed_mbps", opt(link.max_supported_speed_mbps)},
          {"max_advertised_speed_mbps", opt(link.max_advertised_speed_mbps)},
          {"fields", link.fields}};
}

}  // namespace netdoctor::parsers
