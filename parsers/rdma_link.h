// `rdma link show`: one line per RDMA port: "link mlx5_0/1 state ACTIVE physical_state LINK_UP
// netdev x"; older iproute2 prints "3/1: mlx5_1/1: state ACTIVE ..." (device index / port first).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace netdoctor::parsers {

struct RdmaLink {
  std::string device;                         // "mlx5_0"
  std::uint32_t port = 0;                     // 1
  std::string state;                          // "ACTIVE", "DOWN", ...
  std::string physical_state;                 // "LINK_UP", "DISABLED", ...
  std::string netdev;                         // empty when the port has none
  std::optional<std::uint32_t> index;         // device index of the older "3/1: dev/port:" form
  std::map<std::string, std::string> fields;  // every name/value pair after "link dev/port"
};

struct RdmaLinks {
  std::vector<RdmaLink> links;
};

// Fails when no "link dev/port" (or "index/port: dev/port:") line is found.
Result<RdmaLinks> parse_rdma_link(std::string_view text);

nlohmann::json to_json(const RdmaLinks& links);

}  // namespace netdoctor::parsers
