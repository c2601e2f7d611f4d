#include "parsers/ip_address.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace {

// "3: ens1f0np0@parent: <FLAGS> mtu ..." -> fills index, name, flags and the key/value tail.
std::optional<IpInterface> parse_header(std::string_view line) {
  auto colon = line.find(": ");
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  auto index = parse_u64(line.substr(0, colon));
  if (!index) {
    return std::nullopt;
  }
  std::string_view rest = line.substr(colon + 2);
  auto open = rest.find('<');
  auto close = rest.find('>');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  std::string_view name = trim(rest.substr(0, open));
  if (!name.ends_with(':')) {
    return std::nullopt;
  }
  name.remove_suffix(1);
  IpInterface iface;
  iface.index = static_cast<std::uint32_t>(*index);
  auto at = name.find('@');
  iface.name = std::string(name.substr(0, at));
  if (at != std::string_view::npos) {
    iface.parent = std::string(name.substr(at + 1));
  }
  for (auto flag : split(rest.substr(open + 1, close - open - 1), ',')) {
    if (!flag.empty()) {
      iface.flags.emplace_back(flag);
    }
  }
  auto tokens = split_ws(rest.substr(close + 1));
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i] == "mtu") {
      iface.mtu = parse_u64(tokens[i + 1]);
    } else if (tokens[i] == "state") {
      iface.state = std::string(tokens[i + 1]);
    } else if (tokens[i] == "master") {
      iface.master = std::string(tokens[i + 1]);
    }
  }
  return iface;
}

void parse_detail(std::string_view line, IpInterface& iface) {
  auto tokens = split_ws(line);
  if (tokens.empty()) {
    return;
  }
  std::string_view first = tokens[0];
  if (first.starts_with("link/")) {
    iface.link_type = std::string(first.substr(5));
    if (tokens.size() > 1 && tokens[1] != "brd") {
      iface.mac = std::string(tokens[1]);
    }
  } else if ((first == "inet" || first == "inet6") && tokens.size() > 1) {
    IpAddr addr;
    addr.family = std::string(first);
    std::string_view cidr = tokens[1];
    auto slash = cidr.find('/');
    addr.address = std::string(cidr.substr(0, slash));
    if (slash != std::string_view::npos) {
      addr.prefix_len = static_cast<std::uint32_t>(parse_u64(cidr.substr(slash + 1)).value_or(0));
    } else {
      addr.prefix_len = first == "inet" ? 32 : 128;
    }
    for (std::size_t i = 2; i + 1 < tokens.size(); ++i) {
      if (tokens[i] == "scope") {
        addr.scope = std::string(tokens[i + 1]);
      }
    }
    iface.addresses.push_back(std::move(addr));
    return;
  }
  // -d detail lines: "vlan protocol 802.1Q id 100 ...", "... parentbus pci parentdev X".
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i] == "vlan" && i + 4 < tokens.size() && tokens[i + 1] == "protocol" &&
        tokens[i + 3] == "id") {
      if (auto id = parse_u64(tokens[i + 4])) {
        iface.vlan_id = static_cast<std::uint32_t>(*id);
      }
    } else if (tokens[i] == "parentdev") {
      iface.parent_dev = std::string(tokens[i + 1]);
    }
  }
}

}  // namespace

bool IpInterface::has_flag(std::string_view flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

const IpInterface* IpAddressList::find(std::string_view name) const {
  for (const auto& iface : interfaces) {
    if (iface.name == name) {
      return &iface;
    }
  }
  return nullptr;
}

Result<IpAddressList> parse_ip_address(std::string_view text) {
  ND_TRY(detail::check_text(text));
  IpAddressList out;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || detail::is_prompt_line(line)) {
      continue;
    }
    bool indented = !raw.empty() && (raw.front() == ' ' || raw.front() == '\t');
    if (!indented && std::isdigit(static_cast<unsigned char>(line.front())) != 0) {
      if (auto iface = parse_header(line)) {
        out.interfaces.push_back(std::move(*iface));
        continue;
      }
    }
    if (!out.interfaces.empty()) {
      parse_detail(line, out.interfaces.back());
    }
  }
  if (out.interfaces.empty()) {
    return detail::parse_error("no 'N: name: <FLAGS>' interface line found");
  }
  return out;
}

nlohmann::json to_json(const IpAddressList& list) {
  nlohmann::json interfaces = nlohmann::json::array();
  for (const auto& iface : list.interfaces) {
    nlohmann::json addresses = nlohmann::json::array();
    for (const auto& addr : iface.addresses) {
      addresses.push_back({{"family", addr.family},
                           {"address", addr.address},
                           {"prefix_len", addr.prefix_len},
                           {"scope", addr.scope}});
    }
    interfaces.push_back({{"index", iface.index},
                          {"name", iface.name},
                          {"parent", iface.parent},
                          {"flags", iface.flags},
                          {"mtu", detail::opt(iface.mtu)},
                          {"state", iface.state},
                          {"master", iface.master},
                          {"link_type", iface.link_type},
                          {"mac", iface.mac},
                          {"vlan_id", detail::opt(iface.vlan_id)},
                          {"parent_dev", iface.parent_dev},
                          {"addresses", addresses}});
  }
  return {{"interfaces", interfaces}};
}

}  // namespace netdoctor::parsers
