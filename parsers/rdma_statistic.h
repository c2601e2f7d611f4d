// iproute2 `rdma statistic show [link DEV/PORT]`: the RDMA counters of each port on one
// "link mlx5_bond_0/1 rx_write_requests 0 rx_read_requests 0 ..." line (copies wrapped over
// several lines are read as one record). `rdma statistic qp show` adds "cntn N pid P comm X"
// per bound counter; `rdma statistic mode [supported]` prints "link D/P [supported]
// optional-counters a,b".
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

struct RdmaStatisticLink {
  std::string device;                 // "mlx5_bond_0", "rocep8s0f0"
  std::optional<std::uint32_t> port;  // 1; nullopt for "dev/-"
  std::optional<std::uint64_t> cntn;  // the bound counter's id (`rdma statistic qp show`)
  std::map<std::string, std::uint64_t> counters;  // name -> value as printed (events/packets)
  // Pairs whose value is not a number or that name no counter ("pid", "comm", "qp-type"),
  // as printed.
  std::map<std::string, std::string> extra;
  std::vector<std::string> optional_counters;            // enabled: `rdma statistic mode`
  std::vector<std::string> supported_optional_counters;  // `rdma statistic mode supported`
};

struct RdmaStatistics {
  // One per (device, port, cntn) in first-printed order; a later record of the same link (a
  // wrapped continuation, a mode line, a second `show`) adds to it, a repeated counter keeps the
  // later value.
  std::vector<RdmaStatisticLink> links;
  // Non-blank, non-prompt lines outside any statistic record (`ibdev2netdev` lines pasted
  // before, `rdma statistic qp mode` lines), trimmed, in order.
  std::vector<std::string> unparsed_lines;

  // The port's own counters (the record without cntn); nullptr when the output has none.
  const RdmaStatisticLink* find(std::string_view device, std::uint32_t port) const;
};

// A record starts at a line beginning with "link"; the following lines that do not (e-mail or
// terminal wrapping) belong to it until a blank line or a shell prompt. Records with a "state"
// or "physical_state" pair are `rdma link` / `rdma resource` output and are not taken.
// Fails when no record holds a counter or an optional-counters list.
Result<RdmaStatistics> parse_rdma_statistic(std::string_view text);

nlohmann::json to_json(const RdmaStatistics& statistics);

}  // namespace netdoctor::parsers
