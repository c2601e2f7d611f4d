#include "model/ib_names.h"

#include <fmt/format.h>

#include <map>

#include "base/strings.h"

namespace netdoctor::model {
namespace {

constexpr std::string_view k_mf0_prefix = "MF0;";

// The name a node's description gives it, before uniqueness is checked ("" for none).
std::string proposed_name(IbNode& node) {
  if (node.kind == IbNodeKind::Ca) {
    node.host.clear();
    node.device.clear();
    auto ca = parse_ca_description(node.description);
    if (!ca) {
      return {};
    }
    node.host = ca->host;
    node.device = ca->device;
    return fmt::format("{}/{}", ca->host, ca->device);
  }
  auto parsed = parse_switch_description(node.description);
  if (node.model.empty()) {
    node.model = parsed.model;
  }
  return parsed.name;
}

}  // namespace

IbSwitchDescription parse_switch_description(std::string_view description) {
  auto text = trim(description);
  if (starts_with(text, k_mf0_prefix)) {
    text = trim(text.substr(k_mf0_prefix.size()));
  }
  IbSwitchDescription out;
  // ":<model>/<unit>" at the end: the last ':' followed by one '/' between non-empty parts.
  if (auto colon = text.rfind(':'); colon != std::string_view::npos && colon > 0) {
    const auto suffix = text.substr(colon + 1);
    const auto slash = suffix.find('/');
    if (slash != std::string_view::npos && slash > 0 && slash + 1 < suffix.size() &&
        suffix.find('/', slash + 1) == std::string_view::npos &&
        suffix.find(' ') == std::string_view::npos) {
      out.model = std::string(suffix.substr(0, slash));
      text = trim(text.substr(0, colon));
    }
  }
  out.name = std::string(text);
  return out;
}

std::optional<IbCaDescription> parse_ca_description(std::string_view description) {
  const auto words = split_ws(trim(description));
  if (words.size() != 2) {
    return std::nullopt;
  }
  return IbCaDescription{std::string(words[0]), std::string(words[1])};
}

std::string ib_guid_name(std::uint64_t guid) {
  return fmt::format("0x{:016x}", guid);
}

void name_ib_nodes(std::vector<IbNode>& nodes) {
  std::vector<std::string> proposed(nodes.size());
  // (is an HCA, name) -> how many nodes propose it.
  std::map<std::pair<bool, std::string>, int> uses;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    proposed[i] = proposed_name(nodes[i]);
    if (!proposed[i].empty()) {
      ++uses[{nodes[i].kind == IbNodeKind::Ca, proposed[i]}];
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    IbNode& node = nodes[i];
    const bool unique =
        !proposed[i].empty() && uses[{node.kind == IbNodeKind::Ca, proposed[i]}] == 1;
    if (unique) {
      node.name = proposed[i];
      continue;
    }
    node.name = ib_guid_name(node.guid);
    node.host.clear();
    node.device.clear();
  }
}

}  // namespace netdoctor::model
