#include "parsers/rdma_resource.h"

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/strings.h"
#include "parsers/rdma_text.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "2: mlx5_bond_0: pd 3 cq 5 ...".
std::optional<RdmaResourceSummary> read_summary(const std::vector<std::string_view>& tokens) {
  if (tokens.size() < 4) {
    return std::nullopt;
  }
  auto index_text = detail::without_colon(tokens[0]);
  auto device = detail::without_colon(tokens[1]);
  auto index = index_text ? detail::parse_u32(*index_text) : std::nullopt;
  if (!index || !device) {
    return std::nullopt;
  }
  RdmaResourceSummary summary;
  summary.index = *index;
  summary.device = std::string(*device);
  for (auto [name, value] : detail::name_value_pairs(std::span(tokens).subspan(2))) {
    if (auto count = parse_u64(value)) {
      summary.counts[std::string(name)] = *count;
    } else {
      summary.extra[std::string(name)] = std::string(value);
    }
  }
  if (summary.counts.empty()) {
    return std::nullopt;
  }
  return summary;
}

// Which object a detail line shows, by a key only that object prints (first match wins: an srq
// line also carries cqn and pdn, an mr line pdn, a cm_id line lqpn). Newer iproute2 prints the
// object's number (cqn, mrn, ...), older only the other keys.
std::string resource_of(const std::map<std::string, std::string>& fields) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> k_marks = {{
      {"cm-idn", "cm_id"},
      {"ps", "cm_id"},
      {"srqn", "srq"},
      {"cqn", "cq"},
      {"cqe", "cq"},
      {"mrn", "mr"},
      {"mrlen", "mr"},
      {"ctxn", "ctx"},
      {"lqpn", "qp"},
      {"pdn", "pd"},
      {"local_dma_lkey", "pd"},
      {"unsafe_global_rkey", "pd"},
  }};
  for (auto [key, resource] : k_marks) {
    if (fields.contains(std::string(key))) {
      return std::string(resource);
    }
  }
  return {};
}

// "link rxe0/1 lqpn 1 ..." or "dev rxe0 cqn 0 ...".
std::optional<RdmaResourceObject> read_object(const std::vector<std::string_view>& tokens) {
  if (tokens.size() < 4 || (tokens[0] != "link" && tokens[0] != "dev")) {
    return std::nullopt;
  }
  RdmaResourceObject object;
  if (tokens[0] == "link") {
    auto dev_port = detail::split_dev_port(tokens[1]);
    if (!dev_port) {
      return std::nullopt;
    }
    object.device = std::string(dev_port->device);
    object.port = dev_port->port;
  } else {
    object.device = std::string(tokens[1]);
  }
  for (auto [name, value] : detail::name_value_pairs(std::span(tokens).subspan(2))) {
    object.fields[std::string(name)] = std::string(value);
  }
  object.resource = resource_of(object.fields);
  if (object.resource.empty()) {
    return std::nullopt;
  }
  return object;
}

}  // namespace

Result<RdmaResources> parse_rdma_resource(std::string_view text) {
  ND_TRY(detail::check_text(text));
  RdmaResources out;
  for (std::string_view line : detail::content_lines(text)) {
    auto tokens = split_ws(line);
    if (auto summary = read_summary(tokens)) {
      out.devices.push_back(std::move(*summary));
    } else if (auto object = read_object(tokens)) {
      out.objects.push_back(std::move(*object));
    } else {
      out.unparsed_lines.emplace_back(line);
    }
  }
  if (out.devices.empty() && out.objects.empty()) {
    return detail::parse_error(
        "no 'N: <dev>: pd N cq N ...' summary or 'link|dev ...' resource line found");
  }
  return out;
}

nlohmann::json to_json(const RdmaResources& resources) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : resources.devices) {
    devices.push_back(
        {{"index", d.index}, {"device", d.device}, {"counts", d.counts}, {"extra", d.extra}});
  }
  nlohmann::json objects = nlohmann::json::array();
  for (const auto& o : resources.objects) {
    objects.push_back({{"resource", o.resource},
                       {"device", o.device},
                       {"port", detail::opt(o.port)},
                       {"fields", o.fields}});
  }
  return {{"devices", devices}, {"objects", objects}, {"unparsed_lines", resources.unparsed_lines}};
}

}  // namespace netdoctor::parsers
