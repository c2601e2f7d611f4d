#include "engine/next_change.h"

#include <fmt/format.h>

#include "model/entity_names.h"

namespace netdoctor::engine {

namespace {

std::string format_number(double value) {
  return fmt::format("{:g}", value);
}

const model::Nic* find_nic(const model::Fabric& fabric, const std::string& host,
                           const std::string& device, const std::string& netdev) {
  const model::Host* found = fabric.find_host(host);
  if (found == nullptr) {
    return nullptr;
  }
  for (const auto& nic : found->nics) {
    if ((!device.empty() && nic.device == device) || (!netdev.empty() && nic.netdev == netdev)) {
      return &nic;
    }
  }
  return nullptr;
}

void set_if_empty(Placeholders& values, const std::string& key, const std::string& value) {
  if (!value.empty() && values[key].empty()) {
    values[key] = value;
  }
}

void fill_from_entity(Placeholders& values, const std::string& entity,
                      const model::Fabric& fabric) {
  using model::EntityKind;
  const model::EntityParts parts = model::parse_entity(entity);
  const std::string& first = parts.owner;
  const std::string& second = parts.part;
  if (parts.kind == EntityKind::Nic || parts.kind == EntityKind::Netdev) {
    set_if_empty(values, "host", first);
    const bool is_nic = parts.kind == EntityKind::Nic;
    const model::Nic* nic =
        is_nic ? find_nic(fabric, first, second, "") : find_nic(fabric, first, "", second);
    if (is_nic) {
      set_if_empty(values, "device", second);
      set_if_empty(values, "nic", entity);
    } else {
      set_if_empty(values, "netdev", second);
    }
    if (nic != nullptr) {
      set_if_empty(values, "device", nic->device);
      set_if_empty(values, "netdev", nic->netdev);
      set_if_empty(values, "nic", nic->nic_entity());
      set_if_empty(values, "switch", nic->switch_name);
      set_if_empty(values, "port", nic->switch_port);
      set_if_empty(values, "qos_tool", nic->qos_tool());
    }
  } else if (parts.kind == EntityKind::Port) {
    set_if_empty(values, "switch", first);
    set_if_empty(values, "port", second);
  } else if (parts.kind == EntityKind::Host) {
    set_if_empty(values, "host", first);
    if (const model::Host* host = fabric.find_host(first); host != nullptr) {
      set_if_empty(values, "clock_tool", host->clock_tool());
    }
  } else if (parts.kind == EntityKind::Switch) {
    set_if_empty(values, "switch", first);
  }
}

}  // namespace

Placeholders placeholders_for(const std::vector<std::string>& entities,
                              const std::vector<EvidenceItem>& evidence,
                              const model::Fabric& fabric, int roce_priority) {
  Placeholders values;
  values["roce_priority"] = std::to_string(roce_priority);
  // mlnx_qos --pfc takes the whole table: 1 on the RoCE priority only.
  std::string pfc_list;
  for (int p = 0; p < 8; ++p) {
    pfc_list += std::string(p == 0 ? "" : ",") + (p == roce_priority ? "1" : "0");
  }
  values["pfc_list"] = pfc_list;
  if (!entities.empty()) {
    values["entity"] = entities.front();
  }
  // The culprit first, then the other culprits fill what it cannot (a port names the switch).
  for (const auto& entity : entities) {
    fill_from_entity(values, entity, fabric);
  }
  // The signal that decided the cause: the strongest supporting finding, listed first.
  for (const auto& item : evidence) {
    if (item.weight > 0.0) {
      values["signal"] = item.signal;
      break;
    }
  }
  for (const auto& item : evidence) {
    if (item.weight > 0.0 && item.value) {
      values["value"] = format_number(*item.value);
      if (item.fleet_normal) {
        values["fleet_normal"] = format_number(*item.fleet_normal);
      }
      values["unit"] = item.unit;
      break;
    }
  }
  return values;
}

std::string fill_template(const std::string& text, const Placeholders& values) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto open = text.find('{', pos);
    if (open == std::string::npos) {
      break;
    }
    auto close = text.find('}', open);
    if (close == std::string::npos) {
      break;
    }
    out.append(text, pos, open - pos);
    std::string key = text.substr(open + 1, close - open - 1);
    auto it = values.find(key);
    if (it != values.end() && !it->second.empty()) {
      out += it->second;
    } else {
      out += "<" + key + ">";
    }
    pos = close + 1;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

NextChange make_next_change(const kb::NextChangeTemplate& change, const Placeholders& values) {
  NextChange out;
  auto entity = values.find("entity");
  out.entity = entity == values.end() ? std::string() : entity->second;
  out.variable = fill_template(change.variable, values);
  out.from = fill_template(change.from, values);
  out.to = fill_template(change.to, values);
  out.action = fill_template(change.action, values);
  out.verify = fill_template(change.verify, values);
  return out;
}

}  // namespace netdoctor::engine
