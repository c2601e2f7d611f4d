#include "parsers/rdma_link.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/rdma_text.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// Where a line names its port: "link mlx5_0/1 ..." (current iproute2) or "3/1: mlx5_1/1: ..."
// (older iproute2: device index / port, then dev/port, both ending in ':').
struct LinkHead {
  std::string_view dev_port;
  std::optional<std::uint32_t> index;
};

std::optional<LinkHead> link_head(const std::vector<std::string_view>& tokens) {
  if (tokens.size() < 2) {
    return std::nullopt;
  }
  if (tokens[0] == "link") {
    return LinkHead{tokens[1], std::nullopt};
  }
  auto index_port = detail::without_colon(tokens[0]);
  auto dev_port = detail::without_colon(tokens[1]);
  if (!index_port || !dev_port) {
    return std::nullopt;
  }
  auto numbers = detail::split_dev_port(*index_port);
  if (!numbers || !numbers->port) {
    return std::nullopt;
  }
  auto index = detail::parse_u32(numbers->device);
  if (!index) {
    return std::nullopt;
  }
  return LinkHead{*dev_port, index};
}

std::optional<RdmaLink> read_link(std::string_view line) {
  auto tokens = split_ws(line);
  auto head = link_head(tokens);
  if (!head) {
    return std::nullopt;
  }
  auto dev_port = detail::split_dev_port(head->dev_port);
  if (!dev_port || !dev_port->port) {
    return std::nullopt;
  }
  RdmaLink link;
  link.device = std::string(dev_port->device);
  link.port = *dev_port->port;
  link.index = head->index;
  for (auto [name, value] : detail::name_value_pairs(std::span(tokens).subspan(2))) {
    link.fields[std::string(name)] = std::string(value);
  }
  auto field = [&link](const char* key) {
    auto it = link.fields.find(key);
    return it == link.fields.end() ? std::string() : it->second;
  };
  link.state = field("state");
  link.physical_state = field("physical_state");
  link.netdev = field("netdev");
  return link;
}

}  // namespace

Result<RdmaLinks> parse_rdma_link(std::string_view text) {
  ND_TRY(detail::check_text(text));
  RdmaLinks out;
  for (std::string_view raw : split_lines(text)) {
    if (auto link = read_link(raw)) {
      out.links.push_back(std::move(*link));
    }
  }
  if (out.links.empty()) {
    return detail::parse_error("no 'link <dev>/<port> ...' line found");
  }
  return out;
}

nlohmann::json to_json(const RdmaLinks& links) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& link : links.links) {
    array.push_back({{"device", link.device},
                     {"port", link.port},
                     {"index", detail::opt(link.index)},
                     {"state", link.state},
                     {"physical_state", link.physical_state},
                     {"netdev", link.netdev},
                     {"fields", link.fields}});
  }
  return {{"links", array}};
}

}  // namespace netdoctor::parsers
