#include "parsers/ibqueryerrors.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// `Errors for 0x2c903006e29b0 "MF0;ys23ib4:SX6036/U1"` or `Errors for "rd240 mlx4_0"`.
std::optional<IbErrorNode> read_node(std::string_view line) {
  constexpr std::string_view k_prefix = "Errors for ";
  if (!line.starts_with(k_prefix)) {
    return std::nullopt;
  }
  std::string_view rest = trim(line.substr(k_prefix.size()));
  IbErrorNode node;
  if (!rest.starts_with('"')) {
    auto words = split_ws(rest);
    node.guid = words.empty() ? std::nullopt : ib::guid(words[0]);
  }
  std::size_t end = 0;
  if (auto desc = ib::quoted(rest, 0, end)) {
    node.description = std::string(*desc);
  } else {
    node.description = std::string(rest);
  }
  return node;
}

// "[SymbolErrorCounter == 65535]" -> counter; other bracketed text -> note.
void read_items(std::string_view items, IbErrorPort& port) {
  std::size_t at = 0;
  while (at < items.size()) {
    auto open = items.find('[', at);
    auto close = open == std::string_view::npos ? open : items.find(']', open);
    if (close == std::string_view::npos) {
      if (!trim(items.substr(at)).empty()) {
        port.notes.emplace_back(trim(items.substr(at)));
      }
      return;
    }
    std::string_view item = items.substr(open + 1, close - open - 1);
    auto eq = item.find(" == ");
    auto value = eq == std::string_view::npos ? std::nullopt : parse_u64(trim(item.substr(eq + 4)));
    if (value) {
      std::string name(trim(item.substr(0, eq)));
      bool sat = ib::saturated(*value, ib::port_counter_bits(name));
      port.counters.push_back({std::move(name), *value, sat});
    } else {
      port.notes.emplace_back(item);
    }
    at = close + 1;
  }
}

// "GUID 0x2c903006e29b0 port ALL: [LinkDownedCounter == 48] ...".
std::optional<IbErrorPort> read_port(std::string_view line) {
  auto colon = line.find(':');
  if (!line.starts_with("GUID ") || colon == std::string_view::npos) {
    return std::nullopt;
  }
  auto words = split_ws(line.substr(0, colon));
  if (words.size() != 4 || words[2] != "port" || !ib::guid(words[1])) {
    return std::nullopt;
  }
  IbErrorPort port;
  port.guid = *ib::guid(words[1]);
  port.port = std::string(words[3]);
  port.port_number = ib::u32(words[3]);
  read_items(line.substr(colon + 1), port);
  return port;
}

// "## Summary: 4 nodes checked, 4 bad nodes found" and the lines after it.
bool read_summary(std::string_view line, IbQueryErrors& out) {
  if (!line.starts_with("##")) {
    return false;
  }
  std::string_view body = trim(line.substr(2));
  if (body.starts_with("Thresholds:")) {
    out.thresholds = std::string(trim(body.substr(11)));
    return true;
  }
  if (body.starts_with("Suppressed:")) {
    out.suppressed = std::string(trim(body.substr(11)));
    return true;
  }
  if (body.starts_with("Summary:")) {
    body = trim(body.substr(8));
  }
  auto words = split_ws(body);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    auto n = parse_u64(words[i]);
    if (!n) {
      continue;
    }
    bool checked = i + 2 < words.size() && words[i + 2].starts_with("checked");
    if (words[i + 1] == "nodes" && checked) {
      out.nodes_checked = n;
    } else if (words[i + 1] == "bad") {
      out.bad_nodes = n;
    } else if (words[i + 1] == "ports" && checked) {
      out.ports_checked = n;
    } else if (words[i + 1] == "ports") {
      out.ports_with_errors = n;
    }
  }
  return true;
}

void read_line(std::string_view line, IbQueryErrors& out) {
  if (auto node = read_node(line)) {
    out.nodes.push_back(std::move(*node));
  } else if (auto port = out.nodes.empty() ? std::nullopt : read_port(line)) {
    out.nodes.back().ports.push_back(std::move(*port));
  } else if (!read_summary(line, out) && !detail::is_prompt_line(line)) {
    out.unparsed.emplace_back(line);
  }
}

nlohmann::json port_json(const IbErrorPort& p) {
  nlohmann::json counters = nlohmann::json::array();
  for (const auto& c : p.counters) {
    counters.push_back({{"name", c.name}, {"value", c.value}, {"saturated", c.saturated}});
  }
  return {{"guid", ib::guid_text(p.guid)},
          {"port", p.port},
          {"port_number", detail::opt(p.port_number)},
          {"counters", counters},
          {"notes", p.notes}};
}

}  // namespace

const IbErrorCounter* IbErrorPort::find(std::string_view name) const {
  for (const auto& c : counters) {
    if (c.name == name) {
      return &c;
    }
  }
  return nullptr;
}

const IbErrorNode* IbQueryErrors::find_node(std::string_view description) const {
  for (const auto& n : nodes) {
    if (n.description == description) {
      return &n;
    }
  }
  return nullptr;
}

Result<IbQueryErrors> parse_ibqueryerrors(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbQueryErrors out;
  for (auto line : ib::lines(text)) {
    line = trim(line);
    if (!line.empty()) {
      read_line(line, out);
    }
  }
  if (out.nodes.empty() && !out.nodes_checked) {
    return detail::parse_error(
        "no ibqueryerrors output found (an 'Errors for <node>' block or a '## Summary:' line)");
  }
  return out;
}

nlohmann::json to_json(const IbQueryErrors& errors) {
  using detail::opt;
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : errors.nodes) {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& p : n.ports) {
      ports.push_back(port_json(p));
    }
    nodes.push_back({{"guid", n.guid ? nlohmann::json(ib::guid_text(*n.guid)) : nullptr},
                     {"description", n.description},
                     {"ports", ports}});
  }
  return {{"nodes", nodes},
          {"nodes_checked", opt(errors.nodes_checked)},
          {"bad_nodes", opt(errors.bad_nodes)},
          {"ports_checked", opt(errors.ports_checked)},
          {"ports_with_errors", opt(errors.ports_with_errors)},
          {"thresholds", errors.thresholds},
          {"suppressed", errors.suppressed},
          {"unparsed", errors.unparsed}};
}

}  // namespace netdoctor::parsers
