#include "parsers/ethtool_info.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {

Result<EthtoolInfo> parse_ethtool_info(std::string_view text) {
  ND_TRY(detail::check_text(text));
  EthtoolInfo out;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    auto kv = detail::split_key_value(line);
    if (!kv || kv->key.empty() || contains(kv->key, " ")) {
      continue;
    }
    out.fields.emplace(std::string(kv->key), std::string(kv->value));
  }
  auto field = [&out](const char* key) {
    auto it = out.fields.find(key);
    return it == out.fields.end() ? std::string() : it->second;
  };
  if (!out.fields.contains("driver")) {
    return detail::parse_error("no 'driver:' line found");
  }
  out.driver = field("driver");
  out.version = field("version");
  out.firmware_version = field("firmware-version");
  auto tokens = split_ws(out.firmware_version);
  if (!tokens.empty()) {
    out.firmware_version_number = std::string(tokens.front());
  }
  out.expansion_rom_version = field("expansion-rom-version");
  out.bus_info = field("bus-info");
  return out;
}

nlohmann::json to_json(const EthtoolInfo& info) {
  return {{"driver", info.driver},
          {"version", info.version},
          {"firmware_version", info.firmware_version},
          {"firmware_version_number", info.firmware_version_number},
          {"expansion_rom_version", info.expansion_rom_version},
          {"bus_info", info.bus_info},
          {"fields", info.fields}};
}

}  // namespace netdoctor::parsers
