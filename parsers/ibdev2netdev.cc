#include "parsers/ibdev2netdev.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/rdma_text.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

constexpr std::string_view k_arrow = "==>";
constexpr std::string_view k_port = " port ";
constexpr std::string_view k_fw = " fw ";

// What follows `token` (a view into `whole`, as split_ws gives) in `whole`.
std::string_view after_token(std::string_view whole, std::string_view token) {
  return whole.substr(static_cast<std::size_t>(token.data() - whole.data()) + token.size());
}

// "(Up)" at the start of `s` -> "Up" (trimmed) and `s` advanced past it.
std::optional<std::string_view> take_parenthesised(std::string_view& s) {
  s = trim_left(s);
  auto close = s.find(')');
  if (!s.starts_with('(') || close == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view inside = trim(s.substr(1, close - 1));
  s.remove_prefix(close + 1);
  return inside;
}

// The right of the arrow: "<netdev> (<state>) [anything]".
bool read_target(std::string_view right, Ibdev2netdevEntry& entry) {
  right = trim(right);
  auto space = right.find_first_of(" \t");
  if (space == std::string_view::npos) {
    return false;
  }
  entry.netdev = std::string(right.substr(0, space));
  right.remove_prefix(space);
  auto state = take_parenthesised(right);
  if (!state || state->empty()) {
    return false;
  }
  entry.state = std::string(*state);
  entry.extra = std::string(trim(right));
  return true;
}

// "[<pci>] <dev> (<devid> - <partid>) <description>" of the -v form.
bool read_verbose_head(std::string_view head, Ibdev2netdevEntry& entry) {
  auto tokens = split_ws(head);
  if (tokens.empty()) {
    return false;
  }
  // A PCI address ("0000:02:00.0") comes first when the script found one.
  std::size_t at = 0;
  if (tokens.size() > 1 && tokens[0].find(':') != std::string_view::npos &&
      tokens[0].find('.') != std::string_view::npos) {
    entry.pci_address = std::string(tokens[at++]);
  }
  entry.device = std::string(tokens[at]);
  std::string_view rest = after_token(head, tokens[at]);
  if (auto ids = take_parenthesised(rest)) {
    auto dash = ids->find(" - ");
    entry.device_id = std::string(trim(ids->substr(0, dash)));
    if (dash != std::string_view::npos) {
      entry.part_id = std::string(trim(ids->substr(dash + 3)));
    }
  }
  entry.description = std::string(trim(rest));
  return true;
}

// The left of the arrow, -v form: "<head> fw <fw> port <n> (<port state>)".
bool read_verbose_source(std::string_view left, Ibdev2netdevEntry& entry) {
  auto port_at = left.rfind(k_port);
  auto fw_at = left.rfind(k_fw, port_at);
  if (port_at == std::string_view::npos || fw_at == std::string_view::npos) {
    return false;
  }
  std::string_view port_part = left.substr(port_at + k_port.size());
  auto port_tokens = split_ws(port_part);
  auto port = port_tokens.empty() ? std::nullopt : detail::parse_u32(port_tokens[0]);
  if (!port) {
    return false;
  }
  entry.port = *port;
  port_part = after_token(port_part, port_tokens[0]);
  entry.port_state = std::string(take_parenthesised(port_part).value_or(""));
  entry.firmware =
      std::string(trim(left.substr(fw_at + k_fw.size(), port_at - fw_at - k_fw.size())));
  entry.verbose = true;
  return read_verbose_head(left.substr(0, fw_at), entry);
}

// The left of the arrow: "<dev> port <n>" or the -v form.
bool read_source(std::string_view left, Ibdev2netdevEntry& entry) {
  auto tokens = split_ws(left);
  if (tokens.size() == 3 && tokens[1] == "port") {
    auto port = detail::parse_u32(tokens[2]);
    if (!port) {
      return false;
    }
    entry.device = std::string(tokens[0]);
    entry.port = *port;
    return true;
  }
  return read_verbose_source(left, entry);
}

std::optional<Ibdev2netdevEntry> read_line(std::string_view line) {
  auto arrow = line.find(k_arrow);
  if (arrow == std::string_view::npos) {
    return std::nullopt;
  }
  Ibdev2netdevEntry entry;
  if (!read_source(line.substr(0, arrow), entry) ||
      !read_target(line.substr(arrow + k_arrow.size()), entry)) {
    return std::nullopt;
  }
  return entry;
}

}  // namespace

Result<Ibdev2netdev> parse_ibdev2netdev(std::string_view text) {
  ND_TRY(detail::check_text(text));
  Ibdev2netdev out;
  for (std::string_view line : detail::content_lines(text)) {
    if (auto entry = read_line(line)) {
      out.entries.push_back(std::move(*entry));
    } else {
      out.unparsed_lines.emplace_back(line);
    }
  }
  if (out.entries.empty()) {
    return detail::parse_error("no '<dev> port <n> ==> <netdev> (<state>)' line found");
  }
  return out;
}

nlohmann::json to_json(const Ibdev2netdev& map) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& e : map.entries) {
    array.push_back({{"device", e.device},
                     {"port", e.port},
                     {"netdev", e.netdev},
                     {"state", e.state},
                     {"verbose", e.verbose},
                     {"pci_address", e.pci_address},
                     {"device_id", e.device_id},
                     {"part_id", e.part_id},
                     {"description", e.description},
                     {"firmware", e.firmware},
                     {"port_state", e.port_state},
                     {"extra", e.extra}});
  }
  return {{"entries", array}, {"unparsed_lines", map.unparsed_lines}};
}

}  // namespace netdoctor::parsers
