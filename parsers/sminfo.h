// sminfo (infiniband-diags): the subnet manager the queried port knows of,
//   sminfo: sm lid 1 sm guid 0x200000, activity count 77 priority 0 state 3 SMINFO_MASTER
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct SmInfo {
  std::uint32_t sm_lid = 0;
  std::uint64_t sm_guid = 0;
  std::optional<std::uint64_t> activity_count;  // grows while the SM sweeps: two samples tell
                                                // a live SM from a hung one
  std::optional<std::uint32_t> priority;        // 0..15
  std::optional<std::uint32_t> state;           // 0 not active, 1 discovering, 2 standby, 3 master
  std::string state_name;                       // "SMINFO_MASTER" as printed
  std::vector<std::string> unparsed;            // other non-blank lines (iberror, warnings)
};

// Fails when no line carries "sm lid <n> sm guid 0x<guid>".
Result<SmInfo> parse_sminfo(std::string_view text);

nlohmann::json to_json(const SmInfo& info);

}  // namespace netdoctor::parsers
