#include "model/ib_naming.h"

#include <fmt/format.h>

#include <map>

#include "base/strings.h"

namespace netdoctor::model {
namespace {

// The base name used to judge uniqueness: what the node would be called by its description.
std::string base_name(IbNodeKind kind, std::string_view description) {
  if (kind == IbNodeKind::Ca) {
    IbCaName ca = ib_ca_name(description);
    return ca.host.empty() ? "" : ca.host + "/" + ca.device;
  }
  return ib_switch_base_name(description);
}

}  // namespace

std::string ib_switch_base_name(std::string_view description) {
  std::string_view name = trim(description);
  if (name.starts_with("MF0;")) {
    name.remove_prefix(4);
  }
  // ":<model>/<unit>": the last ':' followed by text holding a '/'.
  auto colon = name.rfind(':');
  if (colon != std::string_view::npos && colon > 0 &&
      name.find('/', colon) != std::string_view::npos) {
    name = name.substr(0, colon);
  }
  return std::string(trim(name));
}

std::string ib_model_from_description(std::string_view description) {
  std::string_view text = trim(description);
  auto colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return "";
  }
  std::string_view suffix = text.substr(colon + 1);
  auto slash = suffix.find('/');
  if (slash == std::string_view::npos || slash == 0) {
    return "";
  }
  return std::string(suffix.substr(0, slash));
}

std::string ib_guid_name(std::uint64_t guid) {
  return fmt::format("0x{:016x}", guid);
}

IbCaName ib_ca_name(std::string_view description) {
  auto words = split_ws(description);
  if (words.size() != 2) {
    return {};
  }
  return {std::string(words[0]), std::string(words[1])};
}

std::string ib_node_name(IbNodeKind kind, std::uint64_t guid, std::string_view description,
                         bool unique) {
  std::string name = base_name(kind, description);
  if (name.empty() || !unique) {
    return ib_guid_name(guid);
  }
  return name;
}

void name_ib_nodes(IbFabric& ib) {
  std::map<std::string, std::size_t> uses;
  for (const auto& node : ib.nodes) {
    std::string name = node.name.empty() ? base_name(node.kind, node.description) : node.name;
    if (!name.empty()) {
      ++uses[name];
    }
  }
  for (auto& node : ib.nodes) {
    if (!node.name.empty()) {
      continue;
    }
    std::string base = base_name(node.kind, node.description);
    bool unique = !base.empty() && uses[base] == 1;
    node.name = ib_node_name(node.kind, node.guid, node.description, unique);
    if (node.kind == IbNodeKind::Ca && unique) {
      IbCaName ca = ib_ca_name(node.description);
      node.host = ca.host;
      node.device = ca.device;
    }
  }
}

}  // namespace netdoctor::model
