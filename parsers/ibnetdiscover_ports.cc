#include "parsers/ibnetdiscover_ports.h"

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "parsers/ib_common.h"
#include "parsers/text_util.h"

namespace netdoctor::parsers {
namespace detail {
namespace {

bool is_type(std::string_view word) {
  return word == "SW" || word == "CA" || word == "RT";
}

// ( 'a' - 'b' ) -> a, b; 'a' -> a. Quotes inside a description stay (split at "' - '").
void read_descriptions(std::string_view rest, IbnetPortLine& p) {
  auto first = rest.find('\'');
  auto last = rest.rfind('\'');
  if (first == std::string_view::npos || last == first) {
    return;
  }
  std::string_view inside = rest.substr(first + 1, last - first - 1);
  if (!p.connected) {
    p.description = std::string(inside);
    return;
  }
  auto sep = inside.find("' - '");
  if (sep == std::string_view::npos) {
    p.description = std::string(inside);
    return;
  }
  p.description = std::string(inside.substr(0, sep));
  p.remote_description = std::string(inside.substr(sep + 5));
}

}  // namespace

std::optional<IbnetPortLine> read_ibnet_port_line(std::string_view line) {
  auto quote = line.find('\'');
  auto words = split_ws(line.substr(0, quote));
  if (words.size() < 6 || !is_type(words[0]) || !ib::guid(words[3]) ||
      !words[3].starts_with("0x")) {
    return std::nullopt;
  }
  IbnetPortLine p;
  p.type = std::string(words[0]);
  p.lid = ib::u32(words[1]);
  p.port = ib::u32(words[2]);
  p.guid = *ib::guid(words[3]);
  p.width = std::string(words[4]);
  p.speed = std::string(words[5]);
  if (words.size() >= 11 && words[6] == "-" && is_type(words[7])) {
    p.connected = true;
    p.remote_type = std::string(words[7]);
    p.remote_lid = ib::u32(words[8]);
    p.remote_port = ib::u32(words[9]);
    p.remote_guid = ib::guid(words[10]);
  }
  if (quote != std::string_view::npos) {
    read_descriptions(line.substr(quote), p);
  }
  return p;
}

}  // namespace detail

namespace {

nlohmann::json guid_json(const std::optional<std::uint64_t>& guid) {
  return guid ? nlohmann::json(ib::guid_text(*guid)) : nlohmann::json(nullptr);
}

nlohmann::json node_json(const IbnetNode& n) {
  using detail::opt;
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : n.links) {
    links.push_back({{"port", l.port},
                     {"port_guid", guid_json(l.port_guid)},
                     {"lid", opt(l.lid)},
                     {"lmc", opt(l.lmc)},
                     {"remote_id", l.remote_id},
                     {"remote_port", opt(l.remote_port)},
                     {"remote_port_guid", guid_json(l.remote_port_guid)},
                     {"remote_description", l.remote_description},
                     {"remote_lid", opt(l.remote_lid)},
                     {"width", l.width},
                     {"speed", l.speed}});
  }
  return {{"type", n.type},
          {"ports", opt(n.ports)},
          {"id", n.id},
          {"guid", guid_json(n.guid)},
          {"system_image_guid", guid_json(n.system_image_guid)},
          {"vendor_id", n.vendor_id},
          {"device_id", n.device_id},
          {"description", n.description},
          {"enhanced_port0", opt(n.enhanced_port0)},
          {"lid", opt(n.lid)},
          {"lmc", opt(n.lmc)},
          {"links", links}};
}

nlohmann::json port_line_json(const IbnetPortLine& p) {
  using detail::opt;
  return {{"type", p.type},
          {"lid", opt(p.lid)},
          {"port", opt(p.port)},
          {"guid", ib::guid_text(p.guid)},
          {"width", p.width},
          {"speed", p.speed},
          {"connected", p.connected},
          {"remote_type", p.remote_type},
          {"remote_lid", opt(p.remote_lid)},
          {"remote_port", opt(p.remote_port)},
          {"remote_guid", guid_json(p.remote_guid)},
          {"description", p.description},
          {"remote_description", p.remote_description}};
}

}  // namespace

nlohmann::json to_json(const IbNetDiscover& net) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : net.nodes) {
    nodes.push_back(node_json(n));
  }
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : net.port_lines) {
    ports.push_back(port_line_json(p));
  }
  return {{"generated_on", net.generated_on},
          {"initiated_from", net.initiated_from},
          {"nodes", nodes},
          {"port_lines", ports},
          {"unparsed", net.unparsed}};
}

}  // namespace netdoctor::parsers
