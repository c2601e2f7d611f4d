#include "parsers/ibnodes.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "base port 0 lid 10 lmc 0" / "enhanced port 0 lid 4 lmc 0" after a switch's description.
void read_switch_tail(std::string_view tail, IbNode& node) {
  auto words = split_ws(tail);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "lid") {
      node.lid = ib::u32(words[i + 1]);
    } else if (words[i] == "lmc") {
      node.lmc = ib::u32(words[i + 1]);
    } else if (words[i + 1] == "port" && (words[i] == "enhanced" || words[i] == "base")) {
      node.enhanced_port0 = words[i] == "enhanced";
    }
  }
}

std::optional<IbNode> read_node(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  IbNode node;
  node.type = std::string(trim(line.substr(0, colon)));
  if (node.type != "Switch" && node.type != "Ca" && node.type != "Router") {
    return std::nullopt;
  }
  auto rest = trim(line.substr(colon + 1));
  auto words = split_ws(rest);
  auto g = words.empty() ? std::nullopt : ib::guid(words[0]);
  if (!g || words.size() < 3 || words[1] != "ports") {
    return std::nullopt;
  }
  node.guid = *g;
  node.ports = ib::u32(words[2]);
  std::size_t end = 0;
  auto desc = ib::quoted(rest, 0, end);
  if (!desc) {
    return std::nullopt;
  }
  node.description = std::string(*desc);
  read_switch_tail(rest.substr(end), node);
  return node;
}

}  // namespace

const IbNode* IbNodes::find(std::uint64_t guid) const {
  for (const auto& n : nodes) {
    if (n.guid == guid) {
      return &n;
    }
  }
  return nullptr;
}

Result<IbNodes> parse_ibnodes(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbNodes out;
  for (auto line : ib::lines(text)) {
    if (trim(line).empty()) {
      continue;
    }
    if (auto node = read_node(line)) {
      out.nodes.push_back(std::move(*node));
    } else if (!detail::is_prompt_line(line)) {
      out.unparsed.emplace_back(line);
    }
  }
  if (out.nodes.empty()) {
    return detail::parse_error(
        "no ibnodes/ibswitches/ibhosts line (Switch|Ca|Router : 0x<guid> ports <n> \"<desc>\") "
        "found");
  }
  return out;
}

nlohmann::json to_json(const IbNodes& nodes) {
  using detail::opt;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& n : nodes.nodes) {
    list.push_back({{"type", n.type},
                    {"guid", ib::guid_text(n.guid)},
                    {"ports", opt(n.ports)},
                    {"description", n.description},
                    {"enhanced_port0", opt(n.enhanced_port0)},
                    {"lid", opt(n.lid)},
                    {"lmc", opt(n.lmc)}});
  }
  return {{"nodes", list}, {"unparsed", nodes.unparsed}};
}

}  // namespace netdoctor::parsers
