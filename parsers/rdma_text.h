// Helpers shared by the parsers of the host RDMA tools' text: iproute2 `rdma` (`link`,
// `statistic`, `resource`: a "dev/port" token followed by alternating "name value" tokens) and
// Mellanox's `show_gids` / `ibdev2netdev` scripts. Not part of the public parser API.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace netdoctor::parsers::detail {

// Each line of `text` trimmed, without blank lines and shell prompt / echoed command lines.
std::vector<std::string_view> content_lines(std::string_view text);

// "mlx5_0/1" -> {"mlx5_0", 1}; "mlx5_0/-" (a resource not bound to a port yet) -> {"mlx5_0",
// nullopt}. nullopt when there is no '/', the device is empty or the port is neither a number
// that fits 32 bits nor "-".
struct DevPort {
  std::string_view device;
  std::optional<std::uint32_t> port;
};
std::optional<DevPort> split_dev_port(std::string_view token);

// A decimal number that fits 32 bits ("1" -> 1); nullopt otherwise.
std::optional<std::uint32_t> parse_u32(std::string_view text);

// `tokens` read as "name value name value ..."; a lone trailing name (a flag) gets an empty
// value. In printed order, repeated names kept.
using NameValue = std::pair<std::string_view, std::string_view>;
std::vector<NameValue> name_value_pairs(std::span<const std::string_view> tokens);

// `token` without one trailing ':' ("mlx5_0:" -> "mlx5_0"); nullopt when it does not end in ':'.
std::optional<std::string_view> without_colon(std::string_view token);

}  // namespace netdoctor::parsers::detail
