#include "parsers/ibnetdiscover.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/ibnetdiscover_ports.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "4xQDR" -> ("4x", "QDR").
void read_link_token(std::string_view token, std::string& width, std::string& speed) {
  auto x = token.find('x');
  if (x != std::string_view::npos && x > 0 && parse_u64(token.substr(0, x))) {
    width = std::string(token.substr(0, x + 1));
    speed = std::string(token.substr(x + 1));
  }
}

// `"MF0;ib5:SX6036/U1" enhanced port 0 lid 128 lmc 0` or `lid 121 lmc 0 "desc" lid 128 4xQDR`:
// lid/lmc before the quotes are the local port's, after them the remote's (or the switch's).
struct Comment {
  std::string description;
  std::optional<std::uint32_t> lid_before, lmc_before, lid_after, lmc_after;
  std::optional<bool> enhanced;
  std::string last_word;
};

Comment read_comment(std::string_view text) {
  Comment c;
  std::size_t end = 0;
  auto desc = ib::quoted(text, 0, end);
  std::size_t open = desc ? text.find('"') : text.size();
  if (desc) {
    c.description = std::string(*desc);
  }
  auto scan = [&c](std::string_view part, auto& lid, auto& lmc) {
    auto w = split_ws(part);
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "lid") {
        lid = ib::u32(w[i + 1]);
      } else if (w[i] == "lmc") {
        lmc = ib::u32(w[i + 1]);
      } else if (w[i + 1] == "port" && (w[i] == "enhanced" || w[i] == "base")) {
        c.enhanced = w[i] == "enhanced";
      }
    }
    if (!w.empty()) {
      c.last_word = std::string(w.back());
    }
  };
  scan(text.substr(0, open), c.lid_before, c.lmc_before);
  if (desc) {
    scan(text.substr(end), c.lid_after, c.lmc_after);
  }
  return c;
}

// "[12]" at `at` -> 12, `at` moved past it.
std::optional<std::uint32_t> bracketed(std::string_view line, std::size_t& at) {
  if (at >= line.size() || line[at] != '[') {
    return std::nullopt;
  }
  auto close = line.find(']', at);
  if (close == std::string_view::npos) {
    return std::nullopt;
  }
  auto n = ib::u32(line.substr(at + 1, close - at - 1));
  at = close + 1;
  return n;
}

// "(24be05ffff985d91)" at `at` -> GUID, `at` moved past it.
std::optional<std::uint64_t> paren_guid(std::string_view line, std::size_t& at) {
  if (at >= line.size() || line[at] != '(') {
    return std::nullopt;
  }
  auto close = line.find(')', at);
  if (close == std::string_view::npos) {
    return std::nullopt;
  }
  auto g = ib::guid(line.substr(at + 1, close - at - 1));
  at = close + 1;
  return g;
}

std::optional<IbnetLink> read_link(std::string_view line) {
  IbnetLink link;
  std::size_t at = 0;
  auto port = bracketed(line, at);
  if (!port) {
    return std::nullopt;
  }
  link.port = *port;
  link.port_guid = paren_guid(line, at);
  std::size_t end = 0;
  auto remote = ib::quoted(line, at, end);
  if (!remote) {
    return std::nullopt;
  }
  link.remote_id = std::string(*remote);
  link.remote_port = bracketed(line, end);
  link.remote_port_guid = paren_guid(line, end);
  auto hash = line.find('#', end);
  if (hash != std::string_view::npos) {
    Comment c = read_comment(line.substr(hash + 1));
    link.remote_description = c.description;
    link.lid = c.lid_before;
    link.lmc = c.lmc_before;
    link.remote_lid = c.lid_after;
    read_link_token(c.last_word, link.width, link.speed);
  }
  return link;
}

// `Switch	36 "S-f4521403001165a0"		# "MF0;ib5:SX6036/U1" enhanced port 0 lid 128 lmc
// 0`.
std::optional<IbnetNode> read_header(std::string_view line) {
  auto words = split_ws(line);
  if (words.size() < 3 || (words[0] != "Switch" && words[0] != "Ca" && words[0] != "Rt")) {
    return std::nullopt;
  }
  IbnetNode node;
  node.type = std::string(words[0]);
  node.ports = ib::u32(words[1]);
  std::size_t end = 0;
  auto id = ib::quoted(line, 0, end);
  if (!node.ports || !id) {
    return std::nullopt;
  }
  node.id = std::string(*id);
  if (auto hash = line.find('#', end); hash != std::string_view::npos) {
    Comment c = read_comment(line.substr(hash + 1));
    node.description = c.description;
    node.enhanced_port0 = c.enhanced;
    node.lid = c.lid_after;
    node.lmc = c.lmc_after;
  }
  return node;
}

// vendid=, devid=, sysimgguid=, switchguid=0x..(..), caguid=, routerguid= before a header.
bool read_attribute(std::string_view line, IbnetNode& pending) {
  auto eq = line.find('=');
  if (eq == std::string_view::npos || line.find(' ') < eq) {
    return false;
  }
  std::string_view key = line.substr(0, eq);
  std::string_view value = line.substr(eq + 1);
  value = value.substr(0, value.find('('));
  if (key == "vendid") {
    pending.vendor_id = std::string(value);
  } else if (key == "devid") {
    pending.device_id = std::string(value);
  } else if (key == "sysimgguid") {
    pending.system_image_guid = ib::guid(value);
  } else if (key == "switchguid" || key == "caguid" || key == "routerguid") {
    pending.guid = ib::guid(value);
  } else {
    return false;
  }
  return true;
}

bool read_topology_comment(std::string_view line, IbNetDiscover& out) {
  constexpr std::string_view k_generated = "# Topology file: generated on ";
  constexpr std::string_view k_initiated = "# Initiated from ";
  if (line.starts_with(k_generated)) {
    out.generated_on = std::string(trim(line.substr(k_generated.size())));
    return true;
  }
  if (line.starts_with(k_initiated)) {
    out.initiated_from = std::string(trim(line.substr(k_initiated.size())));
    return true;
  }
  return line == "#";  // the empty comment lines around them; any other comment is kept
}

void read_line(std::string_view line, IbnetNode& pending, IbNetDiscover& out) {
  if (auto node = read_header(line)) {
    node->guid = pending.guid;
    node->system_image_guid = pending.system_image_guid;
    node->vendor_id = pending.vendor_id;
    node->device_id = pending.device_id;
    out.nodes.push_back(std::move(*node));
    pending = {};
  } else if (auto link = out.nodes.empty() ? std::nullopt : read_link(line)) {
    out.nodes.back().links.push_back(std::move(*link));
  } else if (auto port_line = detail::read_ibnet_port_line(line)) {
    out.port_lines.push_back(std::move(*port_line));
  } else if (read_attribute(line, pending) || read_topology_comment(line, out)) {
    return;
  } else if (line.starts_with('#') || !detail::is_prompt_line(line)) {
    // A "# ..." line is a topology comment here more often than a root prompt: kept.
    out.unparsed.emplace_back(line);
  }
}

}  // namespace

const IbnetNode* IbNetDiscover::find_node(std::string_view description) const {
  for (const auto& n : nodes) {
    if (n.description == description) {
      return &n;
    }
  }
  return nullptr;
}

Result<IbNetDiscover> parse_ibnetdiscover(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IbNetDiscover out;
  IbnetNode pending;
  for (auto line : ib::lines(text)) {
    line = trim(line);
    if (!line.empty()) {
      read_line(line, pending, out);
    }
  }
  if (out.nodes.empty() && out.port_lines.empty()) {
    return detail::parse_error(
        "no ibnetdiscover output found (a 'Switch|Ca <ports> \"<id>\"' node header or a -p "
        "'SW|CA <lid> <port> 0x<guid> <width> <speed>' line)");
  }
  return out;
}

}  // namespace netdoctor::parsers
