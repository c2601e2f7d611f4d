#include "parsers/rdma_link.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {

Result<RdmaLinks> parse_rdma_link(std::string_view text) {
  ND_TRY(detail::check_text(text));
  RdmaLinks out;
  for (std::string_view raw : split_lines(text)) {
    auto tokens = split_ws(raw);
    if (tokens.size() < 2 || tokens[0] != "link") {
      continue;
    }
    auto slash = tokens[1].rfind('/');
    if (slash == std::string_view::npos) {
      continue;
    }
    auto port = parse_u64(tokens[1].substr(slash + 1));
    if (!port) {
      continue;
    }
    RdmaLink link;
    link.device = std::string(tokens[1].substr(0, slash));
    link.port = static_cast<std::uint32_t>(*port);
    // The rest alternates name value; a trailing lone word (a flag) gets an empty value.
    for (std::size_t i = 2; i < tokens.size(); i += 2) {
      std::string value = i + 1 < tokens.size() ? std::string(tokens[i + 1]) : std::string();
      link.fields[std::string(tokens[i])] = value;
    }
    auto field = [&link](const char* key) {
      auto it = link.fields.find(key);
      return it == link.fields.end() ? std::string() : it->second;
    };
    link.state = field("state");
    link.physical_state = field("physical_state");
    link.netdev = field("netdev");
    out.links.push_back(std::move(link));
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
                     {"state", link.state},
                     {"physical_state", link.physical_state},
                     {"netdev", link.netdev},
                     {"fields", link.fields}});
  }
  return {{"links", array}};
}

}  // namespace netdoctor::parsers
