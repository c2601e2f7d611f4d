// `ethtool -i <if>`: driver and firmware identification.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "base/result.h"

namespace netdoctor::parsers {

struct EthtoolInfo {
  std::string driver;                   // "mlx5_core", "bnxt_en"
  std::string version;                  // driver version, or the kernel release for in-box drivers
  std::string firmware_version;         // full text: "14.23.1020 (MT_2420110034)"
  std::string firmware_version_number;  // first token: "14.23.1020"; empty when none printed
  std::string expansion_rom_version;    // often empty
  std::string bus_info;                 // PCI address "0000:af:00.0"
  std::map<std::string, std::string> fields;  // every "key: value" line, values trimmed
};

// Requires at least a `driver:` line.
Result<EthtoolInfo> parse_ethtool_info(std::string_view text);

nlohmann::json to_json(const EthtoolInfo& info);

}  // namespace netdoctor::parsers
