// iproute2 `rdma resource show`: per RDMA device, how many of each verbs object exist
//   "2: mlx5_bond_0: pd 3 cq 5 qp 8 cm_id 0 mr 3 ctx 2 srq 0"
// and the detail forms `rdma resource show qp|cq|mr|pd|ctx|srq|cm_id`, one object per line
//   "link rxe0/1 lqpn 1 type GSI state RTS sq-psn 2 comm [ib_core]"
//   "dev rxe0 cqn 0 cqe 1023 users 2 poll-ctx WORKQUEUE adaptive-moderation off comm [ib_core]"
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

// One device of the summary form.
struct RdmaResourceSummary {
  std::uint32_t index = 0;                      // the device index before the name: 2
  std::string device;                           // "mlx5_bond_0"
  std::map<std::string, std::uint64_t> counts;  // resource -> objects: "pd" 3, "qp" 8, ...
  std::map<std::string, std::string> extra;     // pairs whose value is not a number
};

// One object of a detail form.
struct RdmaResourceObject {
  // "qp", "cq", "mr", "pd", "ctx", "srq" or "cm_id", told from the keys the line carries
  // (the output does not name it); empty when none of them fits.
  std::string resource;
  std::string device;                         // "rxe0"
  std::optional<std::uint32_t> port;          // "link dev/port" lines; nullopt for "dev" or "/-"
  std::map<std::string, std::string> fields;  // every pair after the device, as printed
};

struct RdmaResources {
  std::vector<RdmaResourceSummary> devices;  // summary form, in printed order
  std::vector<RdmaResourceObject> objects;   // detail forms, in printed order
  // Non-blank, non-prompt lines of neither form, trimmed, in order.
  std::vector<std::string> unparsed_lines;
};

// Fails when there is neither a summary line nor a detail line of a known resource (a "link"
// line of `rdma link` or `rdma statistic` is neither).
Result<RdmaResources> parse_rdma_resource(std::string_view text);

nlohmann::json to_json(const RdmaResources& resources);

}  // namespace netdoctor::parsers
