#include "parsers/ibdiagnet_net_dump.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/ibdiagnet_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// The columns of ibdiagnet 2.x when a block's header line is missing.
const std::vector<std::string>& default_columns() {
  static const std::vector<std::string> columns = {"#",
                                                   "IB#",
                                                   "Sta",
                                                   "PhysSta",
                                                   "MTU",
                                                   "LWA",
                                                   "LSA",
                                                   "FEC mode",
                                                   "Retran",
                                                   "Neighbor Guid",
                                                   "N#",
                                                   "NLID",
                                                   "Neighbor Description"};
  return columns;
}

// Fields separated by ':', trimmed; with `limit`, the last field is the rest of the line (the
// neighbour's description may hold ':' itself).
std::vector<std::string> split_fields(std::string_view line,
                                      std::size_t limit = std::string_view::npos) {
  std::vector<std::string> out;
  while (out.size() + 1 < limit) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      break;
    }
    out.emplace_back(trim(line.substr(0, colon)));
    line.remove_prefix(colon + 1);
  }
  out.emplace_back(trim(line));
  return out;
}

// `"MF0;leaf-01:MQM8700/U1", Mellanox, 0xb8cef603001bf9de, LID 1`.
std::optional<NetDumpNode> read_block_header(std::string_view line) {
  if (!line.starts_with('"')) {
    return std::nullopt;
  }
  auto close = line.rfind('"');
  if (close == 0) {
    return std::nullopt;
  }
  auto rest = split(line.substr(close + 1), ',');
  if (rest.size() < 4 || !trim(rest[0]).empty()) {
    return std::nullopt;
  }
  auto guid = ib::guid(rest[2]);
  auto lid_words = split_ws(rest[3]);
  if (!guid || lid_words.size() != 2 || lid_words[0] != "LID") {
    return std::nullopt;
  }
  NetDumpNode node;
  node.description = std::string(line.substr(1, close - 1));
  node.vendor = std::string(trim(rest[1]));
  node.guid = *guid;
  node.lid = ib::u32(lid_words[1]);
  return node;
}

std::string unquote(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = text.substr(1, text.size() - 2);
  }
  return std::string(text);
}

void assign(NetDumpPort& port, const std::string& column, const std::string& value) {
  std::string c = to_lower(column);
  if (c == "#") {
    port.label = value;
  } else if (c == "ib#") {
    port.port = ib::u32(value);
  } else if (c == "sta") {
    port.state = value;
  } else if (c == "physsta") {
    port.phys_state = value;
  } else if (c == "mtu") {
    port.mtu = ib::u32(value);
  } else if (c == "lwa") {
    port.width = value;
  } else if (c == "lsa") {
    port.speed = value;
  } else if (c == "fec mode" || c == "fec") {
    port.fec = value;
  } else if (c == "retran" || c == "rtr") {
    port.retransmission = value;
  } else if (c == "neighbor guid") {
    port.peer_guid = value.empty() ? std::nullopt : ib::guid(value);
  } else if (c == "n#") {
    port.peer_port = value;
  } else if (c == "nlid") {
    port.peer_lid = ib::u32(value);
  } else if (c == "neighbor description") {
    port.peer_description = unquote(value);
  } else {
    port.extra[column] = value;
  }
}

NetDumpPort read_port(std::string_view line, const std::vector<std::string>& columns) {
  auto fields = split_fields(line, columns.size());
  NetDumpPort port;
  for (std::size_t i = 0; i < fields.size() && i < columns.size(); ++i) {
    assign(port, columns[i], fields[i]);
  }
  return port;
}

bool is_column_header(const std::vector<std::string>& fields) {
  return fields.size() >= 3 && fields[0] == "#";
}

}  // namespace

Result<IbdiagNetDump> parse_ibdiagnet_net_dump(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbdiagNetDump out;
  for (auto raw : ib::lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty()) {
      continue;
    }
    if (auto node = read_block_header(line)) {
      out.nodes.push_back(std::move(*node));
      continue;
    }
    auto fields = split_fields(line);
    if (!out.nodes.empty() && is_column_header(fields)) {
      out.nodes.back().columns = std::move(fields);
    } else if (ibdiag::is_comment(line)) {
      continue;
    } else if (!out.nodes.empty() && fields.size() >= 4) {
      NetDumpNode& node = out.nodes.back();
      const auto& columns = node.columns.empty() ? default_columns() : node.columns;
      node.ports.push_back(read_port(line, columns));
    } else {
      out.unparsed.emplace_back(line);
    }
  }
  if (out.nodes.empty()) {
    return detail::parse_error(
        "no ibdiagnet2.net_dump switch block found (a '\"<description>\", <vendor>, 0x<guid>, "
        "LID <lid>' line followed by its port table)");
  }
  return out;
}

nlohmann::json to_json(const IbdiagNetDump& dump) {
  using detail::opt;
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : dump.nodes) {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& p : n.ports) {
      ports.push_back({{"label", p.label},
                       {"port", opt(p.port)},
                       {"state", p.state},
                       {"phys_state", p.phys_state},
                       {"mtu", opt(p.mtu)},
                       {"width", p.width},
                       {"speed", p.speed},
                       {"fec", p.fec},
                       {"retransmission", p.retransmission},
                       {"peer_guid", p.peer_guid ? nlohmann::json(ib::guid_text(*p.peer_guid))
                                                 : nlohmann::json(nullptr)},
                       {"peer_port", p.peer_port},
                       {"peer_lid", opt(p.peer_lid)},
                       {"peer_description", p.peer_description},
                       {"extra", p.extra}});
    }
    nodes.push_back({{"description", n.description},
                     {"vendor", n.vendor},
                     {"guid", ib::guid_text(n.guid)},
                     {"lid", opt(n.lid)},
                     {"columns", n.columns},
                     {"ports", ports}});
  }
  return {{"nodes", nodes}, {"unparsed", dump.unparsed}};
}

}  // namespace netdoctor::parsers
