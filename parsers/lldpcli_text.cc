#include "parsers/lldpcli_text.h"

#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::string_view k_neighbors_header = "LLDP neighbors";

// Where the lines being read belong: before any header, under "LLDP neighbors:", or under
// another lldpcli header ("Local chassis:", "LLDP interfaces:") whose blocks are not neighbours.
enum class Section { None, Neighbors, Other };

struct Reader {
  LldpcliText out;
  Section section = Section::None;
  std::string other_header;       // the first header of another output, for the error
  std::string* target = nullptr;  // the value a deeper-indented next line continues
  std::size_t target_column = 0;  // where that value started on its line
};

bool is_separator(std::string_view line) {
  return line.size() >= 3 && line.find_first_not_of('-') == std::string_view::npos;
}

std::size_t indent_of(std::string_view raw) {
  auto first = raw.find_first_not_of(" \t");
  return first == std::string_view::npos ? raw.size() : first;
}

// "mac 06:1a:8c:ad:4f:0c" -> type "mac", value "06:1a:...". A lone word is the value.
void read_typed_id(std::string_view text, std::string& type, std::string& value) {
  auto space = text.find(' ');
  if (space == std::string_view::npos) {
    value = std::string(text);
    return;
  }
  type = std::string(text.substr(0, space));
  value = std::string(trim(text.substr(space + 1)));
}

// "RID: 1" starts an attribute of the Interface line; "00:00:13" (the rest of "Time: 0 day,
// 00:00:13") does not: a label begins with a letter.
bool starts_attribute(std::string_view part) {
  auto kv = detail::split_key_value(part);
  return kv && !kv->key.empty() && std::isalpha(static_cast<unsigned char>(kv->key[0])) != 0 &&
         kv->key.find_first_of("0123456789") == std::string_view::npos;
}

// "ens1f0np0, via: LLDP, RID: 1, Time: 0 day, 00:00:13"; false without an interface name.
bool read_interface_line(std::string_view value, Reader& r) {
  LldpNeighbor neighbor;
  LldpTextExtra extra;
  auto parts = split(value, ',');
  if (trim(parts[0]).empty()) {
    return false;
  }
  neighbor.local_interface = std::string(trim(parts[0]));
  for (std::size_t i = 1; i < parts.size(); ++i) {
    std::string_view part = trim(parts[i]);
    if (starts_attribute(part) || extra.fields.empty()) {
      auto kv = detail::split_key_value(part);
      extra.fields.emplace_back(kv ? kv->key : "", kv ? kv->value : part);
    } else {
      extra.fields.back().second += ", " + std::string(part);
    }
  }
  // "via" has a member of its own; the rest (RID, Time) stays in the extras.
  std::erase_if(extra.fields, [&neighbor](const auto& field) {
    if (field.first != "via") {
      return false;
    }
    neighbor.via = field.second;
    return true;
  });
  r.out.neighbors.neighbors.push_back(std::move(neighbor));
  r.out.extras.push_back(std::move(extra));
  return true;
}

// A "Label: value" line inside a neighbour block; returns the string the value went into.
std::string* read_field(std::string_view label, std::string_view value, Reader& r) {
  LldpNeighbor& n = r.out.neighbors.neighbors.back();
  auto& extra = r.out.extras.back().fields;
  if ((label == "Chassis" || label == "Port") && value.empty()) {
    return nullptr;  // section titles
  }
  if (label == "ChassisID") {
    read_typed_id(value, n.chassis_id_type, n.chassis_id);
    return &n.chassis_id;
  }
  if (label == "PortID") {
    read_typed_id(value, n.port_id_type, n.port_id);
    return &n.port_id;
  }
  if (label == "SysName") {
    return &(n.chassis_name = std::string(value));
  }
  if (label == "SysDescr") {
    return &(n.chassis_descr = std::string(value));
  }
  if (label == "PortDescr") {
    return &(n.port_descr = std::string(value));
  }
  if (label == "MgmtIP") {
    return &n.mgmt_ips.emplace_back(value);
  }
  if (label == "TTL") {
    if (auto ttl = parse_u64(value); ttl && *ttl <= std::numeric_limits<std::uint32_t>::max()) {
      n.ttl = static_cast<std::uint32_t>(*ttl);
      return nullptr;
    }
  }
  return &extra.emplace_back(label, value).second;
}

// A top-level "Title:" with nothing after it starts an output: ours or another lldpcli one.
bool read_header(std::string_view raw, const detail::KeyValue& kv, Reader& r) {
  if (indent_of(raw) != 0 || !kv.value.empty() || kv.key == "Interface" || kv.key == "Chassis" ||
      kv.key == "Port") {
    return false;
  }
  if (kv.key == k_neighbors_header) {
    r.section = Section::Neighbors;
  } else {
    r.section = Section::Other;
    if (r.other_header.empty()) {
      r.other_header = std::string(kv.key);
    }
  }
  return true;
}

void read_line(std::string_view raw, Reader& r) {
  std::string_view line = trim(raw);
  if (r.target != nullptr && indent_of(raw) >= r.target_column) {
    *r.target += "\n" + std::string(line);
    return;
  }
  r.target = nullptr;
  auto kv = detail::split_key_value(line);
  if (kv && read_header(raw, *kv, r)) {
    return;
  }
  if (!kv || r.section == Section::Other) {
    r.out.unparsed_lines.emplace_back(line);
  } else if (kv->key == "Interface") {
    if (!read_interface_line(kv->value, r)) {
      r.out.unparsed_lines.emplace_back(line);
    }
  } else if (r.out.neighbors.neighbors.empty()) {
    r.out.unparsed_lines.emplace_back(line);
  } else {
    std::string* value = read_field(kv->key, kv->value, r);
    if (value != nullptr && !kv->value.empty()) {
      r.target = value;
      r.target_column = raw.size() - trim_left(raw.substr(raw.find(':') + 1)).size();
    }
  }
}

}  // namespace

Result<LldpcliText> parse_lldpcli_text(std::string_view text) {
  ND_TRY(detail::check_text(text));
  Reader r;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    if (is_separator(line)) {
      r.target = nullptr;
      continue;
    }
    read_line(raw, r);
  }
  if (r.out.neighbors.neighbors.empty() && r.section != Section::Neighbors) {
    if (!r.other_header.empty()) {
      return detail::parse_error("'" + r.other_header +
                                 ":' is not `lldpcli show neighbors` output");
    }
    return detail::parse_error("no 'LLDP neighbors:' header or 'Interface:' line found");
  }
  return std::move(r.out);
}

nlohmann::json to_json(const LldpcliText& text) {
  nlohmann::json json = to_json(text.neighbors);
  auto& array = json["neighbors"];
  for (std::size_t i = 0; i < text.extras.size() && i < array.size(); ++i) {
    nlohmann::json extra = nlohmann::json::array();
    for (const auto& [label, value] : text.extras[i].fields) {
      extra.push_back({{"label", label}, {"value", value}});
    }
    array[i]["extra"] = std::move(extra);
  }
  json["unparsed_lines"] = text.unparsed_lines;
  return json;
}

}  // namespace netdoctor::parsers
