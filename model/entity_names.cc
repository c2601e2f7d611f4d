#include "model/entity_names.h"

#include <utility>

namespace netdoctor::model {
namespace {

std::string without_kind(const std::string& entity) {
  const auto colon = entity.find(':');
  return colon == std::string::npos ? entity : entity.substr(colon + 1);
}

}  // namespace

std::string host_entity(const std::string& host) {
  return "host:" + host;
}

std::string switch_entity(const std::string& switch_name) {
  return "switch:" + switch_name;
}

std::string nic_entity(const std::string& host, const std::string& device) {
  return "nic:" + host + "/" + device;
}

std::string netdev_entity(const std::string& host, const std::string& netdev) {
  return "netdev:" + host + "/" + netdev;
}

std::string port_entity(const std::string& switch_name, const std::string& port) {
  return "port:" + switch_name + "/" + port;
}

std::string link_entity(const std::string& end_a, const std::string& end_b) {
  return link_entity_keeping_kinds(without_kind(end_a), without_kind(end_b));
}

std::string link_entity_keeping_kinds(const std::string& end_a, const std::string& end_b) {
  const bool swap = end_b < end_a;
  const std::string& first = swap ? end_b : end_a;
  const std::string& second = swap ? end_a : end_b;
  return "link:" + first + "~" + second;
}

EntityKind entity_kind(std::string_view name) {
  static constexpr std::pair<std::string_view, EntityKind> k_kinds[] = {
      {"host:", EntityKind::Host}, {"switch:", EntityKind::Switch},
      {"nic:", EntityKind::Nic},   {"netdev:", EntityKind::Netdev},
      {"port:", EntityKind::Port}, {"link:", EntityKind::Link}};
  for (const auto& [prefix, kind] : k_kinds) {
    if (name.substr(0, prefix.size()) == prefix) {
      return kind;
    }
  }
  return EntityKind::Unknown;
}

EntityParts parse_entity(std::string_view name) {
  EntityParts parts;
  parts.kind = entity_kind(name);
  if (parts.kind == EntityKind::Unknown) {
    return parts;
  }
  const std::string_view rest = name.substr(name.find(':') + 1);
  const char between = parts.kind == EntityKind::Link ? '~' : '/';
  const auto at = rest.find(between);
  parts.owner = std::string(rest.substr(0, at));
  if (at != std::string_view::npos) {
    parts.part = std::string(rest.substr(at + 1));
  }
  return parts;
}

}  // namespace netdoctor::model
