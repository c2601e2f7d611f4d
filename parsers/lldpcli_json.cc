#include "parsers/lldpcli_json.h"

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

using nlohmann::json;

std::string string_of(const json& node) {
  if (node.is_string()) {
    return node.get<std::string>();
  }
  if (node.is_number() || node.is_boolean()) {
    return json_text(node);
  }
  return {};
}

// lldpd renders a single child as an object and several as a list; this visits both.
template <typename Fn>
void for_each_item(const json& node, Fn&& fn) {
  if (node.is_array()) {
    for (const auto& item : node) {
      fn(item);
    }
  } else if (!node.is_null()) {
    fn(node);
  }
}

// {"type": "mac", "value": "..."}; older lldpd prints a bare string.
void read_id(const json& node, std::string& type, std::string& value) {
  if (node.is_object()) {
    type = string_of(node.value("type", json()));
    value = string_of(node.value("value", json()));
  } else {
    value = string_of(node);
  }
}

void read_chassis(const json& chassis, LldpNeighbor& n) {
  if (!chassis.is_object()) {
    return;
  }
  const json* body = &chassis;
  // Named form: {"leaf1": {"id": ...}}; unnamed form: {"id": ..., "descr": ...}.
  if (!chassis.contains("id") && chassis.size() == 1 && chassis.begin().value().is_object()) {
    n.chassis_name = chassis.begin().key();
    body = &chassis.begin().value();
  } else if (chassis.contains("name")) {
    n.chassis_name = string_of(chassis["name"]);
  }
  if (body->contains("id")) {
    read_id((*body)["id"], n.chassis_id_type, n.chassis_id);
  }
  if (body->contains("descr")) {
    n.chassis_descr = string_of((*body)["descr"]);
  }
  if (body->contains("mgmt-ip")) {
    for_each_item((*body)["mgmt-ip"],
                  [&n](const json& ip) { n.mgmt_ips.push_back(string_of(ip)); });
  }
}

void read_port(const json& port, LldpNeighbor& n) {
  if (!port.is_object()) {
    return;
  }
  if (port.contains("id")) {
    read_id(port["id"], n.port_id_type, n.port_id);
  }
  if (port.contains("descr")) {
    n.port_descr = string_of(port["descr"]);
  }
  if (port.contains("ttl")) {
    if (auto ttl = parse_u64(string_of(port["ttl"]))) {
      n.ttl = static_cast<std::uint32_t>(*ttl);
    }
  }
}

LldpNeighbor read_neighbor(const std::string& local, const json& body) {
  LldpNeighbor n;
  n.local_interface = local;
  if (!body.is_object()) {
    return n;
  }
  n.via = string_of(body.value("via", json()));
  if (body.contains("chassis")) {
    read_chassis(body["chassis"], n);
  }
  if (body.contains("port")) {
    read_port(body["port"], n);
  }
  // lldpd < 1.0 puts ttl beside port.
  if (!n.ttl && body.contains("ttl")) {
    const json& ttl = body["ttl"];
    std::string text = ttl.is_object() ? string_of(ttl.value("ttl", json())) : string_of(ttl);
    if (auto value = parse_u64(text)) {
      n.ttl = static_cast<std::uint32_t>(*value);
    }
  }
  return n;
}

}  // namespace

Result<LldpNeighbors> parse_lldpcli_json(std::string_view text) {
  ND_TRY(detail::check_text(text));
  // Skip anything before the JSON document (a prompt or the command line).
  auto brace = text.find('{');
  if (brace == std::string_view::npos) {
    return detail::parse_error("no JSON object found");
  }
  json doc = json::parse(text.substr(brace), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return detail::parse_error("not valid JSON");
  }
  if (!doc.is_object() || !doc.contains("lldp")) {
    return detail::parse_error("JSON has no top-level \"lldp\" object");
  }
  LldpNeighbors out;
  const json& lldp = doc["lldp"];
  if (!lldp.is_object() || !lldp.contains("interface")) {
    return out;  // "lldp": {} or [] means no neighbours
  }
  for_each_item(lldp["interface"], [&out](const json& item) {
    if (!item.is_object()) {
      return;
    }
    // Each item maps local interface names to neighbour bodies ({"eth0": {...}}); a single
    // object may also carry several interfaces.
    for (auto it = item.begin(); it != item.end(); ++it) {
      for_each_item(it.value(), [&out, &it](const json& body) {
        out.neighbors.push_back(read_neighbor(it.key(), body));
      });
    }
  });
  return out;
}

nlohmann::json to_json(const LldpNeighbors& neighbors) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& n : neighbors.neighbors) {
    array.push_back({{"local_interface", n.local_interface},
                     {"via", n.via},
                     {"chassis_name", n.chassis_name},
                     {"chassis_id_type", n.chassis_id_type},
                     {"chassis_id", n.chassis_id},
                     {"chassis_descr", n.chassis_descr},
                     {"mgmt_ips", n.mgmt_ips},
                     {"port_id_type", n.port_id_type},
                     {"port_id", n.port_id},
                     {"port_descr", n.port_descr},
                     {"ttl", detail::opt(n.ttl)}});
  }
  return {{"neighbors", array}};
}

}  // namespace netdoctor::parsers
