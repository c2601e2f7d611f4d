// ibnodes, ibswitches and ibhosts (infiniband-diags): one line per node the subnet knows,
//   Switch	: 0x0002c90200400000 ports 36 "MF0;sw1:SX6036/U1" enhanced port 0 lid 4 lmc 0
//   Ca	: 0x08c0eb0300add056 ports 1 "node1 HCA-2"
// (routers print "Router"). Prompts and echoed commands of a session are skipped, so one capture
// may hold ibswitches and ibhosts together.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct IbNode {
  std::string type;                    // "Switch", "Ca", "Router" as printed
  std::uint64_t guid = 0;              // node GUID
  std::optional<std::uint32_t> ports;  // number of physical ports
  std::string description;             // NodeDescription between the quotes, spaces kept
  std::optional<bool> enhanced_port0;  // switches: "enhanced port 0" vs "base port 0"
  std::optional<std::uint32_t> lid;    // switches: LID of port 0
  std::optional<std::uint32_t> lmc;    // switches
};

struct IbNodes {
  std::vector<IbNode> nodes;          // in printed order
  std::vector<std::string> unparsed;  // non-blank lines that are neither a node nor a prompt

  const IbNode* find(std::uint64_t guid) const;
};

// Fails when no line is a node line ("<Type>\t: 0x<guid> ports <n> \"<desc>\"").
Result<IbNodes> parse_ibnodes(std::string_view text);

nlohmann::json to_json(const IbNodes& nodes);

}  // namespace netdoctor::parsers
